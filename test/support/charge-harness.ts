import { randomUUID } from 'node:crypto';
import { WebClient } from '@slack/web-api';
import { serviceAccountId } from '../../src/platform/config/secrets.ts';
import { type Actor, confirm } from '../../src/domain/confirmations.ts';
import { reconcileConfirmations } from '../../src/domain/reconcile.ts';
import { createEisClient } from '../../src/eis/index.ts';
import { type FakeSlack, type SlackMessage, startFakeSlack } from '../../local/fake-slack/fake-slack.ts';
import type { Metrics } from '../../src/domain/ports/index.ts';
import { createMemoryLogger } from '../../src/platform/log.ts';
import { webClientOptions } from '../../src/slack/web-client.ts';
import { confirmationCardShower } from '../../src/slack/features/charges/card-updates.ts';
import type { JobContext } from '../../src/slack/kit/jobs.ts';
import { createWorker } from '../../src/slack/worker/index.ts';
import { createSlackOut } from '../../src/slack/kit/slack-out.ts';
import { type Simulator, startSimulator } from '../../simulator/server.ts';
import { createStore } from '../../src/store/index.ts';
import { type Confirmation, RECONCILE_AFTER_SECONDS } from '../../src/domain/ports/index.ts';
import { ConfirmationSchema, LedgerEntrySchema } from '../../src/domain/ports/records.ts';
import { createDocumentClient } from '../../src/store/table.ts';
import { manualClock } from './store-support.ts';
import { createTestTable, scanAll } from './dynamo.ts';
import {
  createProxiedDocumentClient,
  type DynamoFaultProxy,
  startDynamoFaultProxy,
} from './dynamo-fault-proxy.ts';
import type { KillSwitch } from './kill-switch.ts';
import { everyoneAMember } from './member-roles.ts';
import { CONFIRMATION_WORDS } from '../../src/slack/kit/confirmation-card.ts';

export const TEAM = 'T0TEST';
export const CHANNEL = 'C0GENERAL';
export const ALICE = 'U0ALICE';
export const BOB = 'U0BOB';
export const BOSS = 'U0BOSS';

export interface HarnessOptions {
  balance?: number;
  dailyCap?: number;
  approvalThreshold?: number;
  /** Put DynamoDB behind a fault proxy (the SDK's default retries stay on, as in production). */
  dynamoFaults?: boolean;
  /**
   * Retries without their waits, only where nothing is timed: the SDK's back-off (with
   * `dynamoFaults`) and the charge's pauses between attempts to store its outcome.
   */
  noRetryWait?: boolean;
}

/**
 * The charging path without Bolt: the real worker and reconciler over DynamoDB Local (optionally
 * behind the fault proxy), the service simulator and the fake Slack Web API, on a clock the test
 * moves. A worker can be built with a kill switch around all its dependencies.
 */
export async function startChargeHarness(options: HarnessOptions = {}) {
  const table = await createTestTable();
  const proxy: DynamoFaultProxy | undefined = options.dynamoFaults
    ? await startDynamoFaultProxy({ target: table.endpoint })
    : undefined;
  const client = proxy
    ? createProxiedDocumentClient(proxy, { noRetryWait: options.noRetryWait ?? false })
    : createDocumentClient({ endpoint: table.endpoint });
  // Noon tomorrow (UTC): a test that moves the clock by minutes stays within one ledger day whenever
  // it runs, and items' TTLs lie in the future, so DynamoDB Local's TTL sweep leaves them alone.
  const clock = manualClock(`${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}T12:00:00Z`);
  const store = createStore({ client, tableName: table.tableName, now: clock.now });
  // A second store straight to DynamoDB Local, for the test's own reads (never faulted).
  const truth = createStore({ client: table.client, tableName: table.tableName, now: clock.now });
  const sim: Simulator = await startSimulator({ latencyMs: 0 });
  const apiKey = `sk_test_${randomUUID().slice(0, 8)}`;
  sim.addKey(apiKey, { balance: options.balance ?? 50_000 });
  const slack: FakeSlack = await startFakeSlack({ channels: [CHANNEL] });
  const logger = createMemoryLogger();
  /** Every metric data point the workers report, in order. */
  const metricPoints: { name: string; value: number; dimension?: { name: string; value: string } }[] = [];
  const metrics: Metrics = {
    add: (name, value, dimension) =>
      void metricPoints.push({ name, value, ...(dimension ? { dimension } : {}) }),
  };
  const eis = createEisClient({ baseUrl: sim.url, apiKey, logger, timeoutMs: 1000 });
  // As the runtime builds it, with a short timeout so "answered too late" fits in a test.
  const web = new WebClient(
    'xoxb-test-token',
    webClientOptions(slack.apiUrl, { retries: false, timeoutMs: 300 }),
  );
  const policy = {
    approvers: [BOSS],
    ...(options.dailyCap !== undefined ? { dailyCap: options.dailyCap } : {}),
    ...(options.approvalThreshold !== undefined ? { approvalThreshold: options.approvalThreshold } : {}),
  };
  const context = (userId: string, messageTs?: string): JobContext => ({
    teamId: TEAM,
    channelId: CHANNEL,
    userId,
    ...(messageTs ? { messageTs } : {}),
  });

  const workerWith = (kill?: KillSwitch) =>
    createWorker({
      eis: kill ? kill.wrap(eis, 'eis') : eis,
      store: kill ? kill.wrap(store, 'store') : store,
      slack: kill ? kill.wrap(createSlackOut(web, logger), 'slack') : createSlackOut(web, logger),
      userTimeZone: () => Promise.resolve('UTC'),
      workspaceRoles: everyoneAMember,
      policyIn: () => Promise.resolve(policy),
      accountId: serviceAccountId(apiKey),
      logger,
      now: clock.now,
      metrics,
      pollSubmittedTask: () => Promise.resolve(false),
      ...(options.noRetryWait ? { sleep: () => Promise.resolve() } : {}),
    });
  const worker = workerWith();
  const showCard = confirmationCardShower(
    async (channel, ts, message) => {
      await web.chat.update({ channel, ts, ...message });
    },
    store.confirmations,
    logger,
  );

  /** `/events <text>` as the worker runs it; a command with the same trigger id is the same delivery. */
  const command = (text: string, userId = ALICE, triggerId: string = randomUUID()) =>
    worker.handle({ kind: 'command', id: `command:${triggerId}`, text, context: context(userId) });
  /** The Confirm click's listener half: who may, and the one conditional claim. */
  const claim = (confirmationId: string, userId = ALICE, teamId = TEAM) =>
    confirm(confirmationId, { userId, teamId, membership: 'member' } satisfies Actor, {
      confirmations: store.confirmations,
      policyIn: () => Promise.resolve(policy),
    });
  /** The charge job the listener dispatches, on `runner` (a worker that may be killed). */
  const chargeJob = (confirmationId: string, userId = ALICE, runner = worker) =>
    runner.handle({
      kind: 'charge',
      id: `charge:${confirmationId}`,
      confirmationId,
      context: context(userId),
    });
  const reconcile = () =>
    reconcileConfirmations({
      confirmations: store.confirmations,
      charges: store.charges,
      service: { accountId: serviceAccountId(apiKey), eis },
      showCard,
      logger,
      now: clock.now,
    });
  const cards = () => slack.messages(CHANNEL).filter((message) => isConfirmationCard(message));

  /** Asks for `text` and claims the card it posts: the confirmation id and the claim's decision. */
  const askAndClaim = async (text: string) => {
    await command(text);
    const card = cards().at(-1);
    const id = card && confirmationIdOf(card);
    // A failing claim is what its user would be told ("try again"): no decision.
    return id ? { id, decision: await claim(id).catch(() => undefined) } : undefined;
  };
  /** Ask, confirm, charge: each step as its Lambda runs it, a failing step ending that step only. */
  const askConfirmCharge = async (text = 'unlock 26855'): Promise<string | undefined> => {
    const asked = await askAndClaim(text);
    if (asked?.decision?.kind === 'claimed') await chargeJob(asked.id);
    return asked?.id;
  };

  return {
    store,
    truth,
    tableClient: table.client,
    tableName: table.tableName,
    sim,
    apiKey,
    slack,
    proxy,
    clock,
    logger,
    metricPoints,
    policy,
    accountId: serviceAccountId(apiKey),
    workerWith,
    command,
    claim,
    chargeJob,
    reconcile,
    /** Past every deadline and every worker's timeout, with DynamoDB healthy again: one reconciler run. */
    async reconcileLater() {
      proxy?.clearRule();
      clock.advanceSeconds(15 * 60 + RECONCILE_AFTER_SECONDS.charging + 1);
      return reconcile();
    },
    cards,
    askAndClaim,
    askConfirmCharge,
    async close() {
      await eis.close();
      await Promise.all([slack.close(), sim.close(), proxy?.close()]);
    },
  };
}
export type ChargeHarness = Awaited<ReturnType<typeof startChargeHarness>>;

/** What each state of a confirmation card says: the pending heading, then the outcomes'. */
const CARD_HEADINGS = [
  CONFIRMATION_WORDS.heading,
  'Charging…',
  'Charged — results pending',
  'Done',
  'did not work',
  'Outcome unknown',
  'Cancelled',
  'Expired',
];

/** A confirmation card in any state (its blocks name the confirmation or its outcome). */
export function isConfirmationCard(message: SlackMessage): boolean {
  if (message.threadTs || message.visibleTo) return false;
  const blocks = JSON.stringify(message.blocks);
  return CARD_HEADINGS.some((heading) => blocks.includes(heading));
}

export const hasLiveButtons = (message: SlackMessage) =>
  JSON.stringify(message.blocks).includes('confirm.yes');
export const isCharging = (message: SlackMessage) => JSON.stringify(message.blocks).includes('Charging…');

/** The confirmation ids on the cards of the channel, in posting order. */
export function confirmationIdOf(message: SlackMessage): string | undefined {
  return /\\"confirmationId\\":\\"([^"\\]+)\\"/.exec(JSON.stringify(message.blocks))?.[1];
}

/** Every confirmation in the table (read straight from DynamoDB Local, never through a fault). */
async function allConfirmations(h: ChargeHarness): Promise<Confirmation[]> {
  const items = await scanAll({ client: h.tableClient, tableName: h.tableName });
  return items.filter((item) => item.type === 'confirmation').map((item) => ConfirmationSchema.parse(item));
}

/**
 * The money path's invariants, after the reconciler has had its say: what the service charged is
 * what the ledger says it charged (plus at most the entries marked "outcome unknown"); nothing is
 * left pending, running or "Charging…"; no decided card keeps live buttons; the cap was never passed
 * by quoted prices; one card per command at most. Returns what is broken, in words.
 */
export async function brokenInvariants(h: ChargeHarness, commands: number): Promise<string[]> {
  const broken: string[] = [];
  const service = h.sim.ledger(h.apiKey);
  const serviceCredits = service.reduce((sum, entry) => sum + entry.credits, 0);
  const items = await scanAll({ client: h.tableClient, tableName: h.tableName });
  const ledger = items
    .filter((item) => item.type === 'ledger-entry')
    .map((item) => LedgerEntrySchema.parse(item));
  const sum = (status: string) =>
    ledger.filter((entry) => entry.status === status).reduce((total, entry) => total + entry.credits, 0);
  const charged = sum('charged');
  const unknown = sum('unknown');
  if (serviceCredits < charged || serviceCredits > charged + unknown)
    broken.push(`service charged ${serviceCredits}, ledger says ${charged} charged + ${unknown} unknown`);
  if (ledger.some((entry) => entry.status === 'pending')) broken.push('a ledger entry is still pending');
  const confirmations = await allConfirmations(h);
  for (const confirmation of confirmations) {
    if (confirmation.status === 'pending' || confirmation.status === 'running')
      broken.push(`confirmation ${confirmation.id} is still ${confirmation.status}`);
  }
  const cardsByConfirmation = new Map<string, number>();
  for (const card of h.cards()) {
    const id = confirmationIdOf(card);
    if (id) cardsByConfirmation.set(id, (cardsByConfirmation.get(id) ?? 0) + 1);
    if (hasLiveButtons(card)) broken.push(`card ${card.ts} still has live buttons`);
    if (isCharging(card)) broken.push(`card ${card.ts} still says Charging…`);
  }
  for (const [id, count] of cardsByConfirmation)
    if (count > 1) broken.push(`${count} cards for confirmation ${id}`);
  if (h.cards().length > commands) broken.push(`${h.cards().length} cards for ${commands} commands`);
  const cap = h.policy.dailyCap;
  const quoted = ledger
    .filter((entry) => entry.status !== 'refused')
    .reduce(
      (total, entry) => total + (confirmations.find((c) => c.id === entry.confirmationId)?.reserved ?? 0),
      0,
    );
  if (cap !== undefined && quoted > cap) broken.push(`quoted ${quoted} credits went past the cap of ${cap}`);
  return broken;
}
