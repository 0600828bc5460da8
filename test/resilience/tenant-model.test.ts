import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNING_SECRET } from '../support/bot.ts';
import { CLIENT_SECRET, STATE_SECRET } from '../support/distributed-bot.ts';
import { type FaultRule, randomFaults } from '../support/dynamo-fault-proxy.ts';
import type { SlackMessage } from '../../local/fake-slack/fake-slack.ts';
import { SETTINGS_CONFLICT } from '../../src/slack/features/workspace-admin/views.ts';
import { confirmationIdOf } from '../support/charge-harness.ts';
import { scanAll } from '../support/dynamo.ts';
import {
  type DiedPosting,
  installAs,
  SEQUENCE_START,
  startTenantStack,
  type Tenant,
  type TenantStack,
} from '../support/tenant-harness.ts';
import {
  capsBroken,
  dueItems,
  moneyBroken,
  secretsShown,
  type SequenceRecord,
  settingsBroken,
  stuckWork,
} from '../support/tenant-invariants.ts';
import {
  firstWatchStep,
  newWatchRecord,
  observeAlerts,
  playWatch,
  runWatchChecks,
  undoAppearances,
  type WatchContext,
  type WatchPool,
  type WatchRecord,
  type WatchStep,
  watchCounts,
  watchPool,
  watchStep,
} from '../support/tenant-watch.ts';
import {
  budgetsBroken,
  outsidersActed,
  paidLookupsBroken,
  pingsShown,
  watchState,
  watchStuck,
} from '../support/tenant-watch-invariants.ts';
import {
  type DyingPollStep,
  dyingPollsBroken,
  dyingPollStep,
  playDyingPoll,
} from '../support/tenant-dying-poll.ts';
import {
  type PlannedTwice,
  playShowIds,
  showIdsBroken,
  showIdsStep,
  type ShowIdsStep,
} from '../support/tenant-show-ids.ts';
import {
  playStranger,
  type StrangerStep,
  strangersActed,
  strangerStep,
} from '../support/tenant-strangers.ts';

/**
 * The charge model across tenants (issue 23): three workspaces of the distributed app — A and B
 * sharing one service account, C in an Enterprise Grid org installed org-wide — under random
 * sequences of installs (a member's reinstall, C's own install, the org's install and uninstall),
 * key connects, replacements and removals, uninstalls mid-charge, token refreshes that fail, two
 * admins saving settings at once, a member trying to, and the money path's asks, concurrent clicks,
 * killed workers, redelivered jobs, DynamoDB and service faults and time passing. Then the reconciler
 * and the scheduled jobs run past every deadline, and the invariants are checked: no charge lost,
 * doubled or booked to another account; every cap holds per service account; every workspace's due
 * work advances (or its workspace is paused for a reason that holds); only admins change settings, and
 * a concurrent save is never silently lost; no secret in a log line or message.
 *
 * The account watch (issue 32, `test/support/tenant-watch.ts`) runs beside it: accounts added (names
 * and domains, hostile labels, ones the service does not know, in a second channel too), removed and
 * re-added a week or a month later, imported; budgets set and withdrawn; the hourly run with a check
 * killed mid-way or delivered twice, a channel whose every check times out; watched companies getting
 * new shows (one named to ping); a member of another organisation setting a budget or confirming a
 * charge. Its invariants: at most one paid look-up per account, month and workspace, within the
 * budget; no show announced twice, nor one the company was on when added; every due watch check
 * advances; no text from the data pings anyone or links away; an outsider never sets or confirms.
 *
 * Issue 41's steps, one in a sequence of three: an outside user or a workspace guest tries the ledger,
 * spend, exports, budgets, costs, the watch, a change of the plan or the watch, a charge or its Confirm
 * (`test/support/tenant-strangers.ts`: refused as the permissions table says, and nothing the
 * workspace keeps moves); a show planned by its public and its internal id and unlocked by either
 * (`tenant-show-ids.ts`: one plan row, ledger entries under the public id, the budget warned about);
 * a poll run killed as it posts a finished unlock's reply (`tenant-dying-poll.ts`: a later run posts
 * it, once).
 *
 * MODEL_SEED sets the seed (printed either way; fixed in `npm test` so CI runs the same sequences,
 * fresh in `npm run fuzz`), MODEL_RUNS the sequences (200; `npm run fuzz`: 5,000), MODEL_BUDGET_MS
 * the time budget (30 s: the sequences stop there, passing; the first 20 run however long they take),
 * MODEL_SKIP step kinds to leave out, MODEL_EXAMPLE a sequence to run first (a failure's counterexample,
 * to replay it), MODEL_DEBUG prints where the time went (and steps slower than
 * MODEL_SLOW_MS, 1 s, with their log lines; MODEL_DEBUG=watch also each watch answer and alert row).
 */

const SEED =
  process.env.MODEL_SEED === 'random'
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(process.env.MODEL_SEED ?? 20261125);
const RUNS = Number(process.env.MODEL_RUNS ?? 200);
const BUDGET_MS = Number(process.env.MODEL_BUDGET_MS ?? 30_000);
/** The first sequences, run however long they take: the time budget bounds only those beyond them. */
const FLOOR = Math.min(RUNS, 20);
const ASKS = ['unlock 26855', 'unlock 8453', 'emails 100003 100004', 'visitors 26855'] as const;
/** What is asked with a card to click next (visitors need the event unlocked first: often no card). */
const PRICED = ['unlock 26855', 'unlock 8453', 'emails 100003 100004'] as const;
const UNLOCK_ROUTE = 'POST /external/events/{id}/unlock';
const CAPS = [2_000, 5_000, 8_000] as const;
const team = fc.constantFrom(0, 1, 2);
/** Who clicks Confirm (0 member, 1 approver, 2 admin): mostly the approver, sometimes two at once. */
const clickers = fc.array(fc.constantFrom(1, 1, 0, 2), { minLength: 1, maxLength: 3 });
/** One charge in four runs on a worker that dies after that many calls (before, in or after the service's). */
const killAfter = fc.oneof(
  { weight: 3, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 10 }) },
);

type Step =
  | { kind: 'ask'; team: number; text: (typeof ASKS)[number] }
  | { kind: 'charge'; team: number; text: (typeof PRICED)[number]; users: number[]; killAfter: number | null }
  | { kind: 'click'; team: number; card: number; users: number[]; killAfter: number | null }
  | { kind: 'redeliver'; team: number; card: number }
  | { kind: 'install'; team: number; by: 'admin' | 'member' }
  | { kind: 'org'; action: 'install' | 'uninstall' }
  | { kind: 'uninstall'; team: number; card: number; killAfter: number | null }
  | { kind: 'key'; team: number; action: 'shared' | 'fresh' | 'remove'; via: 'modal' | 'store' }
  | { kind: 'settings'; team: number; caps: [number, number] }
  | { kind: 'member-settings'; team: number }
  | { kind: 'token'; team: number; refreshFails: boolean }
  | { kind: 'dynamo'; seed: number; failRate: number; loseRate: number }
  | { kind: 'service'; fault: 'charged-then-502' | 'unavailable' }
  | { kind: 'wait'; seconds: number }
  | { kind: 'scheduled' }
  | WatchStep
  | StrangerStep
  | ShowIdsStep
  | DyingPollStep;

/** MODEL_SKIP=settings,member-settings leaves those steps out (to see what else fails once one defect is known). */
const SKIP = new Set((process.env.MODEL_SKIP ?? '').split(',').filter(Boolean));
/** An ask and the clicks on the card it posts: most charges start here. */
const chargeStep = fc.record({
  kind: fc.constant('charge' as const),
  team,
  text: fc.constantFrom(...PRICED),
  users: clickers,
  killAfter,
});
const anyStep: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('ask' as const), team, text: fc.constantFrom(...ASKS) }),
  },
  { weight: 5, arbitrary: chargeStep },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('click' as const),
      team,
      card: fc.nat(4),
      users: clickers,
      killAfter,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('redeliver' as const), team, card: fc.nat(4) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('install' as const),
      team,
      by: fc.constantFrom('admin' as const, 'member' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('org' as const),
      action: fc.constantFrom('install' as const, 'uninstall' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('uninstall' as const), team, card: fc.nat(4), killAfter }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('key' as const),
      team,
      action: fc.constantFrom('shared' as const, 'fresh' as const, 'remove' as const),
      // The settings modal is the admins' way; the store's, where the modal is not what is tested, is quicker.
      via: fc.constantFrom('modal' as const, 'store' as const, 'store' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('settings' as const),
      team,
      caps: fc.tuple(fc.constantFrom(...CAPS), fc.constantFrom(...CAPS)),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('member-settings' as const), team }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('token' as const), team, refreshFails: fc.boolean() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('dynamo' as const),
      seed: fc.nat(),
      failRate: fc.constantFrom(0, 0.1, 0.3),
      loseRate: fc.constantFrom(0, 0.1, 0.3),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('service' as const),
      fault: fc.constantFrom('charged-then-502' as const, 'unavailable' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('wait' as const),
      seconds: fc.constantFrom(30, 130, 600, 1000),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('scheduled' as const) }) },
);

const step = anyStep.filter((s) => !SKIP.has(s.kind));
const watchSteps = watchStep.filter((s) => !SKIP.has(s.kind));
/**
 * Issue 41's steps, in one sequence of three and one at most (each is several commands: bounded by
 * count, so the default run's time stays about as it was): an outside user or a guest trying what is
 * not theirs, a show planned and unlocked by its two ids, a poller killed as it posts a reply.
 */
const issue41Steps = (
  [
    ['stranger', strangerStep],
    ['show-ids', showIdsStep],
    ['dying-poll', dyingPollStep],
  ] as [Step['kind'], fc.Arbitrary<Step>][]
)
  .filter(([kind]) => !SKIP.has(kind))
  .map(([, arbitrary]) => ({ weight: 1, arbitrary }));
const issue41Step: fc.Arbitrary<Step | undefined> = fc.oneof(
  { weight: 2 * issue41Steps.length, arbitrary: fc.constant(undefined) },
  ...issue41Steps,
);

/**
 * A sequence: random steps with one charge among them (so nearly every sequence confirms one, and
 * what follows it, a kill, a key change, an uninstall, happens between the charge and the reconciler),
 * and the workspace without a digest.
 */
const sequences = fc
  .record({
    charge: chargeStep,
    at: fc.nat(5),
    others: fc.array(step, { minLength: 1, maxLength: 4 }),
    watch: fc.tuple(firstWatchStep, fc.array(watchSteps, { minLength: 1, maxLength: 5 })),
    noDigest: team,
    extra: issue41Step,
    extraAt: fc.nat(5),
  })
  .map(({ charge, at, others, watch: [first, then], noDigest, extra, extraAt }) => {
    const charged = SKIP.has('charge') ? others : [...others.slice(0, at), charge, ...others.slice(at)];
    const withCharge = extra ? [...charged.slice(0, extraAt), extra, ...charged.slice(extraAt)] : charged;
    // Most watch steps in the first add's workspace, so adds, budgets and checks meet.
    const near = then.map((s): WatchStep =>
      'team' in s ? { ...s, team: (first.team + (s.team === 2 ? 1 : 0)) % 3 } : s,
    );
    const watching: Step[] = SKIP.has(first.kind) ? near : [first, ...near];
    // The watch's steps in their order, the others' between them.
    const steps: Step[] = [];
    for (let i = 0; i < Math.max(withCharge.length, watching.length); i++)
      steps.push(...[watching[i], withCharge[i]].filter((s): s is Step => s !== undefined));
    return { steps, noDigest };
  });

const counts = {
  sequences: 0,
  steps: 0,
  /** Charges started (a confirmed card's ledger entry, written before the service is called). */
  charges: 0,
  /** Charges the service recorded. */
  serviceCharges: 0,
  /** Sequences in which at least one charge started. */
  withCharge: 0,
  kills: 0,
  keyChanges: 0,
  installs: 0,
  uninstalls: 0,
  dynamoFaults: 0,
  failures: 0,
  /** Paid look-ups of watch checks (pre-approved charges). */
  paidLookups: 0,
  /** Steps of a member of another organisation (a budget, a Confirm). */
  external: 0,
  /** Steps of an outside user or a guest trying what the permissions table keeps from them. */
  strangers: 0,
  /** Shows planned by both their ids and unlocked by one. */
  showIds: 0,
  /** Poll runs killed as they posted a reply. */
  dyingPolls: 0,
};

/**
 * DynamoDB faults last this many requests (about a charge's): the SDK's retries back off in real time,
 * so a whole sequence of faults would cost seconds.
 */
const FAULTY_REQUESTS = 40;
function forRequests(count: number, rule: FaultRule): FaultRule {
  let left = count;
  return (request) => (left-- > 0 ? rule(request) : undefined);
}

type Sequence = ReturnType<TenantStack['begin']>;
interface Run {
  seq: Sequence;
  record: SequenceRecord;
  sharedKey: string;
  linesFrom: number;
  callsFrom: number;
  messagesFrom: number;
  faultsFrom: number;
  /** Whether DynamoDB faults were injected in this sequence. */
  dynamoFaulted: boolean;
  /** The workspace whose card was posted last: clicks go there when theirs has none. */
  lastCard: Tenant | undefined;
  watch: WatchRecord;
  /** Shows planned by both their ids (issue 41). */
  planned: PlannedTwice[];
  /** Replies poll runs died posting (issue 41). */
  died: DiedPosting[];
  /** The step kinds played, to know which faults the sequence had. */
  kinds: Set<Step['kind']>;
}

let stack: TenantStack;
let pool: WatchPool;
/** DynamoDB requests failed or answered to no one, so far. */
const faults = () => stack.proxy.stats().failed + stack.proxy.stats().lost;
beforeAll(async () => {
  stack = await startTenantStack(RUNS + 2_000);
  pool = watchPool(stack.sim, SEQUENCE_START);
}, 60_000);
afterAll(() => stack?.close());

/**
 * Three workspaces installed through the OAuth pages by an admin each, a key each, and a digest due
 * in each but `noDigest` (two are enough to see one wait for another, and digests are slow to post).
 */
async function setUp(noDigest: number): Promise<Run> {
  const seq = stack.begin();
  const [A, B, C] = seq.tenants;
  const sharedKey = stack.newKey();
  const ownKey = stack.newKey();
  const run: Run = {
    seq,
    sharedKey,
    record: { tenants: seq.tenants, keys: [sharedKey, ownKey], adminCaps: new Map(), violations: [] },
    linesFrom: stack.logger.lines.length,
    callsFrom: stack.slack.calls.length,
    messagesFrom: stack.slack.messages().length,
    faultsFrom: faults(),
    dynamoFaulted: false,
    lastCard: undefined,
    watch: newWatchRecord(stack.slack.calls.length),
    planned: [],
    died: [],
    kinds: new Set(),
  };
  await Promise.all([
    installAs(stack, { teamId: A.teamId, userId: A.admins[0] }),
    installAs(stack, { teamId: B.teamId, userId: B.admins[0] }),
    installAs(stack, { teamId: C.teamId, userId: C.admins[0], enterpriseId: seq.enterpriseId }),
  ]);
  const keyOf = (tenant: Tenant) => (tenant === C ? ownKey : sharedKey);
  await Promise.all(
    seq.tenants.map(async (tenant) => {
      await connectKey(run, tenant, keyOf(tenant));
      await seq.truth.workspaces.putPolicy(
        tenant.teamId,
        { approverUserIds: [tenant.approver], dailyCap: 5_000 },
        tenant.admins[0],
      );
      run.record.adminCaps.set(tenant.teamId, [5_000]);
      if (tenant === seq.tenants[noDigest]) return;
      await seq.truth.digestSubscriptions.put({
        teamId: tenant.teamId,
        channelId: tenant.channel,
        time: '09:00',
        timeZone: 'UTC',
        // Few events: a digest's cost grows with them, and what it says is not what is tested here.
        filters: { city: 'Munich' },
        createdBy: tenant.admins[0],
        nextRunAt: stack.clock.now(),
      });
    }),
  );
  return run;
}

/** An admin connects `key` (as the settings modal stores it, without going through the modal). */
const connectKey = (run: Run, tenant: Tenant, key: string) =>
  run.seq.truth.workspaces.putServiceKey({
    teamId: tenant.teamId,
    serviceKey: key,
    connectedBy: tenant.admins[0],
    ...(tenant.name === 'C' ? { orgWideInstall: { enterpriseId: run.seq.enterpriseId } } : {}),
  });

const cardsOf = (tenant: Tenant) =>
  stack.slack.messages(tenant.channel).filter((m) => !m.threadTs && !m.visibleTo && confirmationIdOf(m));

/** The chosen workspace if it has a card, else the one whose card was posted last. */
const withCards = (run: Run, chosen: Tenant) =>
  cardsOf(chosen).length > 0 ? chosen : (run.lastCard ?? chosen);

/** The `card`-th card of `tenant` counting back from the newest. */
const nthCard = (tenant: Tenant, card: number) => {
  const cards = cardsOf(tenant);
  return cards[cards.length - 1 - (card % Math.max(1, cards.length))];
};

/** A closed modal, so the next open starts a fresh stack (Slack keeps at most three). */
async function closeModals(users: string[]) {
  for (const user of users)
    while (stack.slack.modal(user)) await stack.slack.closeView({ user }).catch(() => undefined);
}

/** `user` opens their Home and the workspace settings: the modal, if the app opened one. */
async function openSettings(run: Run, tenant: Tenant, user: string) {
  await closeModals([user]);
  await stack.slack.openHome(user, tenant.teamId).catch(() => undefined);
  await run.seq.idle();
  const home = stack.slack.home(user);
  if (!home) return undefined;
  await stack.slack.clickInView({ user, viewId: home.id, actionId: 'open.workspace' }).catch(() => undefined);
  await run.seq.idle();
  const modal = stack.slack.modal(user);
  return modal && JSON.stringify(modal.view.blocks).includes('daily_cap') ? modal : undefined;
}

/** `user` saves `inputs` in the workspace settings; whether the modal closed without an error. */
async function saveSettings(
  run: Run,
  tenant: Tenant,
  user: string,
  inputs: Record<string, { value: unknown }>,
) {
  if (!(await openSettings(run, tenant, user))) return false;
  await stack.slack.submitForm({ user, inputs: inputs as never }).catch(() => undefined);
  await run.seq.idle();
  const saved = stack.slack.modal(user) === undefined;
  await closeModals([user]);
  return saved;
}

/** `users` click Confirm on `target` of `tenant` at once, the charge's worker killed after `kill` calls. */
async function clickCard(
  run: Run,
  tenant: Tenant,
  target: SlackMessage | undefined,
  users: string[],
  kill: number | null,
) {
  if (!target) return;
  if (kill !== null) run.seq.killNextCharge(kill);
  await Promise.all(
    users.map((user) =>
      stack.slack
        .click({
          user,
          channel: tenant.channel,
          ts: target.ts,
          actionId: 'confirm.yes',
          teamId: tenant.teamId,
        })
        .catch(() => undefined),
    ),
  );
}

/** A member of `tenant` asks for something with a price: the card, once the worker posted it. */
async function ask(run: Run, tenant: Tenant, text: string) {
  const before = cardsOf(tenant).length;
  await stack.slack
    .sendCommand({ user: tenant.member, channel: tenant.channel, text, teamId: tenant.teamId })
    .catch(() => undefined);
  await run.seq.idle();
  const cards = cardsOf(tenant);
  if (cards.length === before) return undefined;
  run.lastCard = tenant;
  return cards.at(-1);
}

/**
 * Two admins save different caps at once: both accepted without a word means one was silently lost;
 * the one accepted is what is stored; the other is told someone else saved.
 */
async function concurrentSettings(run: Run, tenant: Tenant, caps: [number, number]) {
  const admins = tenant.admins;
  run.record.adminCaps.get(tenant.teamId)?.push(...caps);
  if (!(await openSettings(run, tenant, admins[0])) || !(await openSettings(run, tenant, admins[1]))) return;
  const answers = await Promise.all(
    admins.map((user, i) =>
      stack.slack
        .submitForm({ user, inputs: { daily_cap: { value: String(caps[i]) } } })
        .catch(() => undefined),
    ),
  );
  await run.seq.idle();
  const accepted = admins.map((user) => stack.slack.modal(user) === undefined);
  await closeModals([...admins]);
  const stored = (await run.seq.truth.workspaces.getPolicy(tenant.teamId))?.dailyCap;
  const said = `two admins saved caps ${caps[0]} and ${caps[1]} at once`;
  if (caps[0] === caps[1]) return;
  if (accepted[0] && accepted[1])
    run.record.violations.push(`${tenant.name}: ${said}, both were accepted, the policy kept ${stored}`);
  const winner = accepted.indexOf(true);
  if (winner >= 0 && !accepted[1 - winner] && stored !== caps[winner])
    run.record.violations.push(
      `${tenant.name}: ${said}, ${caps[winner]} was accepted, the policy has ${stored}`,
    );
  // Told why (or, while DynamoDB fails, at least told it did not save).
  const loser = answers[1 - winner]?.body ?? '';
  const told = run.dynamoFaulted ? '"errors"' : SETTINGS_CONFLICT;
  if (winner >= 0 && !accepted[1 - winner] && !loser.includes(told))
    run.record.violations.push(`${tenant.name}: ${said}, the save not taken was not told: ${loser}`);
}

/** A member tries the settings: whatever the app lets them do, the key and policy stay as they were. */
async function memberSettings(run: Run, tenant: Tenant) {
  const before = JSON.stringify(await scanWorkspace(run, tenant));
  await saveSettings(run, tenant, tenant.member, {
    daily_cap: { value: '999999999' },
    approvers: { value: [tenant.member] },
  });
  const after = JSON.stringify(await scanWorkspace(run, tenant));
  if (after !== before)
    run.record.violations.push(`${tenant.name}: a member (no admin) changed the workspace settings`);
}

const scanWorkspace = async (run: Run, tenant: Tenant) => [
  await run.seq.truth.workspaces.getPolicy(tenant.teamId),
  await run.seq.truth.workspaces.getServiceKeyInfo(tenant.teamId),
];

/** An admin connects the shared key, a fresh account's or removes the key, in the modal or as it would. */
async function changeKey(
  run: Run,
  tenant: Tenant,
  action: 'shared' | 'fresh' | 'remove',
  via: 'modal' | 'store',
) {
  const key = action === 'shared' ? run.sharedKey : action === 'fresh' ? stack.newKey() : undefined;
  if (key && !run.record.keys.includes(key)) run.record.keys.push(key);
  counts.keyChanges++;
  if (via === 'modal') {
    await saveSettings(
      run,
      tenant,
      tenant.admins[0],
      key ? { service_key: { value: key } } : { remove_key: { value: ['remove'] } },
    );
  } else if (key) await connectKey(run, tenant, key);
  else await run.seq.truth.workspaces.removeServiceKey(tenant.teamId);
}

/** The stored token of the install serving `tenant` expires now; with `refreshFails`, Slack refuses the refresh. */
async function expireToken(run: Run, tenant: Tenant, refreshFails: boolean) {
  const lookups = [
    { teamId: tenant.teamId, isEnterpriseInstall: false },
    { teamId: tenant.teamId, enterpriseId: run.seq.enterpriseId, isEnterpriseInstall: true },
  ];
  for (const lookup of tenant.name === 'C' ? lookups : lookups.slice(0, 1)) {
    const installed = await run.seq.truth.installations.fetchInstallation(lookup).catch(() => undefined);
    if (!installed?.bot) continue;
    await run.seq.truth.installations.storeInstallation({
      ...installed,
      bot: { ...installed.bot, expiresAt: Math.floor(Date.now() / 1000) - 60 },
    });
    if (refreshFails) stack.slack.failNext('oauth.v2.access', 'internal_error');
    // Someone opens the Home: the app refreshes the token (or fails to) now.
    await stack.slack.openHome(tenant.admins[0], tenant.teamId).catch(() => undefined);
    return;
  }
}

/** The money path's steps: asks, clicks (killed or not), redelivered charge jobs, an uninstall mid-charge. */
async function playCharge(run: Run, s: Step & { team: number }) {
  const chosen = run.seq.tenants[s.team] as Tenant;
  const users = (t: Tenant, picks: number[]) =>
    picks.map((u) => [t.member, t.approver, t.admins[0]][u] ?? t.member);
  switch (s.kind) {
    case 'ask':
      return void (await ask(run, chosen, s.text));
    case 'charge':
      return clickCard(run, chosen, await ask(run, chosen, s.text), users(chosen, s.users), s.killAfter);
    case 'click': {
      const t = withCards(run, chosen);
      return clickCard(run, t, nthCard(t, s.card), users(t, s.users), s.killAfter);
    }
    case 'redeliver': {
      const t = withCards(run, chosen);
      const card = nthCard(t, s.card);
      const id = card && confirmationIdOf(card);
      if (!id) return;
      const context = { teamId: t.teamId, channelId: t.channel, userId: t.approver };
      return void (await run.seq
        .runJob(t.teamId, { kind: 'charge', id: `charge:${id}`, confirmationId: id, context })
        .catch(() => undefined));
    }
    case 'uninstall': {
      // The uninstall arrives while a charge runs (its worker may die in it).
      const t = withCards(run, chosen);
      await clickCard(run, t, nthCard(t, s.card), [t.approver], s.killAfter);
      counts.uninstalls++;
      return void (await stack.slack.uninstall({ teamId: t.teamId }).catch(() => undefined));
    }
  }
}

async function playStep(run: Run, s: Step) {
  const { seq } = run;
  const t = ('team' in s ? seq.tenants[s.team] : seq.tenants[2]) as Tenant;
  switch (s.kind) {
    case 'ask':
    case 'charge':
    case 'click':
    case 'redeliver':
    case 'uninstall':
      await playCharge(run, s);
      break;
    case 'install':
      counts.installs++;
      await installAs(stack, { teamId: t.teamId, userId: s.by === 'admin' ? t.admins[0] : t.member }).catch(
        () => undefined,
      );
      break;
    case 'org':
      if (s.action === 'install') {
        counts.installs++;
        await installAs(stack, {
          teamId: t.teamId,
          userId: t.admins[0],
          enterpriseId: seq.enterpriseId,
        }).catch(() => undefined);
      } else {
        counts.uninstalls++;
        await stack.slack.uninstall({ teamId: t.teamId, orgWide: true }).catch(() => undefined);
      }
      break;
    case 'key':
      await changeKey(run, t, s.action, s.via);
      break;
    case 'settings':
      await concurrentSettings(run, t, s.caps);
      break;
    case 'member-settings':
      await memberSettings(run, t);
      break;
    case 'token':
      await expireToken(run, t, s.refreshFails);
      break;
    case 'dynamo':
      run.dynamoFaulted = true;
      stack.faultDynamo(forRequests(FAULTY_REQUESTS, randomFaults(s)));
      break;
    case 'service':
      // Not a hang: the client gives up on one after 10 s of real time (test/resilience/charge-model.test.ts has them).
      stack.sim.injectFault(
        s.fault === 'unavailable'
          ? { kind: 'status', status: 503, route: UNLOCK_ROUTE }
          : { kind: 'status', status: 502, route: UNLOCK_ROUTE, afterExecute: true },
      );
      break;
    case 'wait':
      stack.clock.advanceSeconds(s.seconds);
      break;
    case 'scheduled':
      await runScheduled(run).catch(() => undefined);
      break;
    case 'external-confirm': {
      // A member asks; a member of another organisation, an admin of their own, clicks Confirm.
      counts.external++;
      await clickCard(run, t, await ask(run, t, 'unlock 8453'), [t.external], null);
      break;
    }
    case 'stranger':
      counts.strangers++;
      await playStranger({ stack, seq, violations: run.record.violations }, s);
      break;
    case 'show-ids':
      counts.showIds++;
      await playShowIds({ stack, seq, planned: run.planned }, s);
      break;
    case 'dying-poll': {
      const died = run.died.length;
      await playDyingPoll({ stack, seq, died: run.died }, s);
      counts.dyingPolls += run.died.length - died;
      break;
    }
    default:
      if (s.kind === 'external-budget') counts.external++;
      await playWatch(watchContext(run), s);
  }
  await seq.idle();
  observeAlerts(watchContext(run));
}

const watchContext = (run: Run): WatchContext => ({
  stack,
  seq: run.seq,
  pool,
  watch: run.watch,
  runScheduled: () => runScheduled(run),
});

async function runScheduled(run: Run) {
  const jobs = await run.seq.scheduled();
  await jobs.reconcileConfirmations();
  await jobs.pollUnlockTasks();
  await jobs.runDigests();
  await runWatchChecks(watchContext(run));
}

/**
 * Faults cleared, past every deadline: the scheduled jobs run, a scheduled job that throws being a
 * finding of its own. What was due before the run and is due, unchanged, an hour after it is stuck,
 * unless its workspace's work is paused for a reason that holds.
 */
async function settle(run: Run): Promise<string[]> {
  stack.healDynamo();
  stack.sim.clearFaults();
  stack.slack.clearFailures();
  run.seq.disarm();
  await run.seq.idle();
  stack.clock.advanceSeconds(3 * 60 * 60);
  stack.sim.completeTasks();
  const itemsBefore = await scanAll(run.seq.table);
  // Watch checks are judged by their own rule below (their progress counts, not only their due time).
  const dueBefore = new Map(
    [...dueItems(itemsBefore, stack.clock.now())].filter(([, due]) => due.kind !== 'watch'),
  );
  const watchBefore = watchState(itemsBefore);
  const watchDue = stack.clock.now().toISOString();
  const broken: string[] = [];
  await runScheduled(run).catch((error: unknown) => broken.push(`a scheduled job failed: ${String(error)}`));
  // Past the 6 hours after which a check that died is given a new id, the watch runs again, and the
  // reconciler settles what its checks charged.
  stack.clock.advanceSeconds(7 * 60 * 60);
  await runWatchChecks(watchContext(run));
  stack.clock.advanceSeconds(60 * 60);
  await (await run.seq.scheduled()).reconcileConfirmations().catch((error: unknown) => {
    broken.push(`the reconciler failed: ${String(error)}`);
  });
  const items = await scanAll(run.seq.table);
  const dueAfter = dueItems(items, stack.clock.now());
  const paused = (teamId: string) =>
    items.some((item) => item.type === 'scheduled-workspace' && item.teamId === teamId && item.paused);
  return [
    ...broken,
    ...stuckWork(dueBefore, dueAfter, items, run.seq.tenants),
    ...watchStuck(watchBefore, watchState(items), watchDue, paused),
  ];
}

/**
 * Whether a budget's warning may be missing for a reason of its own: DynamoDB failed, or Slack may
 * not have taken the post (a refresh that failed, an uninstall), so the warning waits for the next charge.
 */
const warningMayFail = (run: Run) =>
  run.dynamoFaulted ||
  ['token', 'uninstall', 'org', 'install'].some((kind) => run.kinds.has(kind as Step['kind']));

function brokenInvariants(run: Run, items: Record<string, unknown>[]): string[] {
  const paused = (teamId: string) =>
    items.some((item) => item.type === 'scheduled-workspace' && item.teamId === teamId && item.paused);
  const simLedger = (key: string) => stack.sim.ledger(key);
  const installs = items.filter((item) => item.type === 'installation');
  const tokens = installs.flatMap((item) => {
    const bot = (item.bot ?? {}) as Record<string, unknown>;
    return [bot.token, bot.refreshToken].filter((v): v is string => typeof v === 'string');
  });
  const calls = stack.slack.calls
    .slice(run.callsFrom)
    .map((call) => call.authorization?.replace(/^(Bearer|Basic) /, '') ?? '');
  const shown = [
    stack.logger.lines.slice(run.linesFrom).join('\n'),
    JSON.stringify(stack.slack.messages().slice(run.messagesFrom)),
  ].join('\n');
  // Confirmations DynamoDB's TTL deleted during the sequence are still the charges' history.
  const history = [...run.watch.swept, ...items];
  return [
    ...run.record.violations,
    ...moneyBroken(history, run.record, simLedger),
    ...capsBroken(items, run.record, simLedger),
    ...settingsBroken(items, run.record),
    ...secretsShown(shown, [
      ...run.record.keys,
      ...tokens,
      ...calls,
      CLIENT_SECRET,
      SIGNING_SECRET,
      STATE_SECRET,
    ]),
    ...run.watch.violations,
    ...paidLookupsBroken(items, run.watch, run.seq.tenants),
    ...budgetsBroken(history, run.watch),
    ...outsidersActed(history, run.seq.tenants),
    ...strangersActed(history, run.seq.tenants),
    ...pingsShown(stack.slack, run.callsFrom, run.seq.tenants),
    ...showIdsBroken(items, stack.sim, run.planned, warningMayFail(run)),
    ...dyingPollsBroken(items, run.died, stack, paused),
  ];
}

/** The last failing sequence (as MODEL_EXAMPLE takes it) and what it broke. */
let lastFailing: { sequence: string; broken: string[] } | undefined;

/** One sequence: set up, its steps, the scheduled runs, the invariants; the table emptied after. */
const timings = new Map<string, [number, number]>();
async function timed<T>(what: string, work: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await work();
  } finally {
    const [n, ms] = timings.get(what) ?? [0, 0];
    timings.set(what, [n + 1, ms + performance.now() - t0]);
  }
}
async function sequence({ steps, noDigest }: { steps: Step[]; noDigest: number }) {
  const run = await timed('setup', () => setUp(noDigest));
  try {
    for (const s of steps) {
      counts.steps++;
      run.kinds.add(s.kind);
      const t0 = performance.now();
      const l0 = stack.logger.lines.length;
      await timed(s.kind === 'key' ? `key-${s.via}` : s.kind, () => playStep(run, s));
      if (process.env.MODEL_DEBUG && performance.now() - t0 > Number(process.env.MODEL_SLOW_MS ?? 1000))
        console.info(
          `slow step (${Math.round(performance.now() - t0)} ms): ${JSON.stringify(s)} of ${JSON.stringify(steps)}\n${stack.logger.lines.slice(l0).join('\n')}`,
        );
    }
    const stuck = await timed('settle', () => settle(run));
    const day = (at: Date) => Date.parse(at.toISOString().slice(0, 10));
    run.record.days = 1 + (day(stack.clock.now()) - day(SEQUENCE_START)) / 86_400_000;
    observeAlerts(watchContext(run));
    const items = await scanAll(run.seq.table);
    counts.paidLookups += [...run.watch.swept, ...items].filter(
      (item) => item.type === 'confirmation' && item.preApproval && item.chargeStartedAt,
    ).length;
    const charges = items.filter((item) => item.type === 'ledger-entry' && item.confirmationId).length;
    counts.sequences++;
    counts.charges += charges;
    counts.withCharge += charges > 0 ? 1 : 0;
    counts.serviceCharges += run.record.keys.reduce((n, key) => n + stack.sim.ledger(key).length, 0);
    counts.dynamoFaults += faults() - run.faultsFrom;
    const broken = [...stuck, ...brokenInvariants(run, items)];
    if (broken.length > 0) {
      counts.failures++;
      // Shrinking runs smaller and smaller failing sequences: the last one is the one to replay.
      lastFailing = { sequence: JSON.stringify({ steps, noDigest }), broken };
    }
    expect(broken).toEqual([]);
  } finally {
    undoAppearances(stack.sim, run.watch);
    await timed('end', () => stack.end());
  }
}

describe('three tenants (two on one service account, one Grid org) under random sequences', () => {
  it(
    'keeps every tenancy invariant after the reconciler and the scheduled jobs have run',
    async () => {
      console.info(
        `tenant model: seed ${SEED} (set MODEL_SEED to replay), up to ${RUNS} sequences in ${BUDGET_MS} ms`,
      );
      const started = Date.now();
      try {
        // The first FLOOR sequences run whatever the time (a loaded machine makes the run longer, never
        // emptier); the rest, with another seed, while the budget lasts.
        await fc.assert(fc.asyncProperty(sequences, sequence), {
          // MODEL_EXAMPLE: a sequence to run first, as a failure prints it (its counterexample's object).
          examples: process.env.MODEL_EXAMPLE ? [[JSON.parse(process.env.MODEL_EXAMPLE) as never]] : [],
          seed: SEED,
          numRuns: FLOOR,
        });
        const spent = Date.now() - started;
        const left = BUDGET_MS - spent;
        // More only while a sequence's mean time is left: fast-check fails a run it interrupts before
        // its first sequence ("Property interrupted after 0 tests"), as a floor ending near the budget did.
        if (RUNS > FLOOR && left > spent / FLOOR)
          await fc.assert(fc.asyncProperty(sequences, sequence), {
            seed: SEED + 1,
            numRuns: RUNS - FLOOR,
            interruptAfterTimeLimit: left,
          });
      } finally {
        counts.kills = stack.kills();
        console.info(
          [
            `tenant model: ${counts.sequences} sequences, ${counts.steps} steps in ${Date.now() - started} ms; seed ${SEED}`,
            `${counts.charges} charges made (${counts.withCharge} sequences with one or more), ${counts.serviceCharges} reaching the service`,
            `${counts.kills} workers killed, ${counts.keyChanges} key changes, ${counts.installs} installs and ${counts.uninstalls} uninstalls beyond the three each sequence starts with`,
            `${counts.dynamoFaults} DynamoDB faults, ${counts.failures} failing (shrinking included)`,
            `issue 41: ${counts.strangers} steps of an outside user or a guest, ${counts.showIds} shows planned by both ids, ${counts.dyingPolls} poll runs killed posting a reply`,
            `watch: ${watchCounts.steps} steps, ${watchCounts.checks} checks run (${watchCounts.killedChecks} killed), ${watchCounts.alerts} alerts of ${watchCounts.rows} rows, ${counts.paidLookups} paid look-ups, ${counts.external} steps of an outside user`,
          ].join('\n  '),
        );
        if (lastFailing)
          console.info(
            `tenant model: the shortest failing sequence found broke\n  ${lastFailing.broken.join('\n  ')}\nreplay it: MODEL_EXAMPLE='${lastFailing.sequence}'`,
          );
        if (process.env.MODEL_DEBUG)
          for (const [what, [n, ms]] of timings)
            console.info(`${what}: ${n} × ${Math.round(ms / n)} ms = ${Math.round(ms)} ms`);
      }
    },
    // The floor's sequences run however long a loaded machine takes: a minute each is allowed (one took
    // 37 s on the 2-core machine at load 30, where 180 s for all 20 failed the run for its speed).
    BUDGET_MS + FLOOR * 60_000,
  );
});
