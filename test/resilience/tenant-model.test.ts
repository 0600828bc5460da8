import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNING_SECRET } from '../support/bot.ts';
import { CLIENT_SECRET, STATE_SECRET } from '../support/distributed-bot.ts';
import { randomFaults } from '../support/dynamo-fault-proxy.ts';
import {
  confirmationIdOf,
  installAs,
  scanAll,
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

/**
 * The charge model across tenants (issue 23): three workspaces of the distributed app — A and B
 * sharing one service account, C in an Enterprise Grid org installed org-wide — under random
 * sequences of installs (a member's reinstall, C's own install, the org's install and uninstall),
 * key connects, replacements and removals, uninstalls mid-charge, token refreshes that fail, two
 * admins saving settings at once, a member trying to, and the money path's asks, concurrent clicks,
 * killed workers, redelivered jobs, DynamoDB and service faults and time passing. Then the reconciler
 * and the scheduled jobs run twice past every deadline, and the invariants are checked.
 *
 * MODEL_SEED sets the seed (printed either way), MODEL_RUNS the sequences (200; `npm run fuzz`: 5,000),
 * MODEL_BUDGET_MS the time budget (45 s), MODEL_SKIP step kinds to leave out.
 */

const SEED = Number(process.env.MODEL_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Number(process.env.MODEL_RUNS ?? 200);
const BUDGET_MS = Number(process.env.MODEL_BUDGET_MS ?? 45_000);
const ASKS = ['unlock 26855', 'unlock 8453', 'emails 100003 100004', 'visitors 26855'] as const;
const UNLOCK_ROUTE = 'POST /external/events/{id}/unlock';
const CAPS = [2_000, 5_000, 8_000] as const;
const team = fc.constantFrom(0, 1, 2);

type Step =
  | { kind: 'ask'; team: number; text: (typeof ASKS)[number] }
  | { kind: 'click'; team: number; card: number; users: number[]; killAfter: number | null }
  | { kind: 'redeliver'; team: number; card: number }
  | { kind: 'install'; team: number; by: 'admin' | 'member' }
  | { kind: 'org'; action: 'install' | 'uninstall' }
  | { kind: 'uninstall'; team: number; card: number; killAfter: number | null }
  | { kind: 'key'; team: number; action: 'shared' | 'fresh' | 'remove' }
  | { kind: 'settings'; team: number; caps: [number, number] }
  | { kind: 'member-settings'; team: number }
  | { kind: 'token'; team: number; refreshFails: boolean }
  | { kind: 'dynamo'; seed: number; failRate: number; loseRate: number }
  | { kind: 'service'; fault: 'charged-then-502' | 'hang' }
  | { kind: 'wait'; seconds: number }
  | { kind: 'scheduled' };

/** MODEL_SKIP=settings,member-settings leaves those steps out (to see what else fails once one defect is known). */
const SKIP = new Set((process.env.MODEL_SKIP ?? '').split(',').filter(Boolean));
const killAfter = fc.option(fc.integer({ min: 1, max: 8 }), { nil: null });
const anyStep: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('ask' as const), team, text: fc.constantFrom(...ASKS) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('click' as const),
      team,
      card: fc.nat(4),
      users: fc.array(fc.nat(2), { minLength: 1, maxLength: 3 }),
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
      fault: fc.constantFrom('charged-then-502' as const, 'hang' as const),
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

const counts = { sequences: 0, steps: 0, charges: 0, kills: 0, dynamoFaults: 0, failures: 0 };

type Sequence = Awaited<ReturnType<TenantStack['begin']>>;
interface Run {
  stack: TenantStack;
  seq: Sequence;
  record: SequenceRecord;
  sharedKey: string;
  linesFrom: number;
  callsFrom: number;
}

let stack: TenantStack;
beforeAll(async () => {
  stack = await startTenantStack(RUNS + 2_000);
}, 60_000);
afterAll(() => stack?.close());

/** Three workspaces installed through the OAuth pages by an admin each, keys and a digest each. */
async function setUp(): Promise<Run> {
  const seq = await stack.begin();
  const [A, B, C] = seq.tenants;
  const sharedKey = stack.newKey();
  const ownKey = stack.newKey();
  const run: Run = {
    stack,
    seq,
    sharedKey,
    record: { tenants: seq.tenants, keys: [sharedKey, ownKey], adminCaps: new Map(), violations: [] },
    linesFrom: stack.logger.lines.length,
    callsFrom: stack.slack.calls.length,
  };
  await installAs(stack, { teamId: A.teamId, userId: A.admins[0] });
  await installAs(stack, { teamId: B.teamId, userId: B.admins[0] });
  await installAs(stack, { teamId: C.teamId, userId: C.admins[0], enterpriseId: seq.enterpriseId });
  for (const [tenant, key] of [
    [A, sharedKey],
    [B, sharedKey],
    [C, ownKey],
  ] as const) {
    const org = tenant === C ? { orgWideInstall: { enterpriseId: seq.enterpriseId } } : {};
    await seq.truth.workspaces.putServiceKey({
      teamId: tenant.teamId,
      serviceKey: key,
      connectedBy: tenant.admins[0],
      ...org,
    });
    await seq.truth.workspaces.putPolicy(
      tenant.teamId,
      { approverUserIds: [tenant.approver], dailyCap: 5_000 },
      tenant.admins[0],
    );
    run.record.adminCaps.set(tenant.teamId, [5_000]);
    await seq.truth.digestSubscriptions.put({
      teamId: tenant.teamId,
      channelId: tenant.channel,
      time: '09:00',
      timeZone: 'UTC',
      filters: {},
      createdBy: tenant.admins[0],
      nextRunAt: stack.clock.now(),
    });
  }
  return run;
}

const cardsOf = (tenant: Tenant) =>
  stack.slack.messages(tenant.channel).filter((m) => !m.threadTs && !m.visibleTo && confirmationIdOf(m));

/** `user` opens their Home and the workspace settings: the modal, if the app opened one. */
async function openSettings(run: Run, tenant: Tenant, user: string) {
  await stack.slack.openHome(user, tenant.teamId).catch(() => undefined);
  await run.seq.idle();
  const home = stack.slack.home(user);
  if (!home) return undefined;
  await stack.slack.clickInView({ user, viewId: home.id, actionId: 'open.workspace' }).catch(() => undefined);
  await run.seq.idle();
  const modal = stack.slack.modal(user);
  return modal && JSON.stringify(modal.view.blocks).includes('daily_cap') ? modal : undefined;
}

/** `user` (an admin) saves `inputs` in the workspace settings; whether the modal closed without an error. */
async function saveSettings(
  run: Run,
  tenant: Tenant,
  user: string,
  inputs: Record<string, { value: unknown }>,
) {
  if (!(await openSettings(run, tenant, user))) return false;
  await stack.slack.submitForm({ user, inputs: inputs as never }).catch(() => undefined);
  await run.seq.idle();
  return stack.slack.modal(user) === undefined;
}

/** Clicks a card of `tenant` (of the next workspace that has one when it has none), by `users` at once. */
async function clickCard(run: Run, chosen: Tenant, card: number, users: string[], kill: number | null) {
  const at = run.seq.tenants.indexOf(chosen);
  const tenant =
    [0, 1, 2].map((i) => run.seq.tenants[(at + i) % 3]).find((t) => t && cardsOf(t).length > 0) ?? chosen;
  const cards = cardsOf(tenant);
  const target = cards[card % Math.max(1, cards.length)];
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

/** Two admins save different caps at once: both accepted without a word means one was silently lost. */
async function concurrentSettings(run: Run, tenant: Tenant, caps: [number, number]) {
  const [first, second] = tenant.admins;
  run.record.adminCaps.get(tenant.teamId)?.push(...caps);
  if (!(await openSettings(run, tenant, first)) || !(await openSettings(run, tenant, second))) return;
  await Promise.all(
    [first, second].map((user, i) =>
      stack.slack
        .submitForm({ user, inputs: { daily_cap: { value: String(caps[i]) } } })
        .catch(() => undefined),
    ),
  );
  await run.seq.idle();
  const accepted = [first, second].every((user) => stack.slack.modal(user) === undefined);
  const policy = await run.seq.truth.workspaces.getPolicy(tenant.teamId);
  if (accepted && caps[0] !== caps[1])
    run.record.violations.push(
      `${tenant.name}: two admins saved caps ${caps[0]} and ${caps[1]} at once, both were accepted, the policy kept ${policy?.dailyCap}`,
    );
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

/** The stored token of the install serving `tenant` expires now; with `refreshFails`, Slack refuses the refresh. */
async function expireToken(run: Run, tenant: Tenant, refreshFails: boolean) {
  const lookups = [
    { teamId: tenant.teamId, isEnterpriseInstall: false },
    { teamId: tenant.teamId, enterpriseId: run.seq.enterpriseId, isEnterpriseInstall: true },
  ];
  for (const lookup of tenant.name === 'C' ? lookups.reverse() : lookups.slice(0, 1)) {
    const installed = await run.seq.truth.installations.fetchInstallation(lookup).catch(() => undefined);
    if (!installed?.bot) continue;
    await run.seq.truth.installations.storeInstallation({
      ...installed,
      bot: { ...installed.bot, expiresAt: Math.floor(Date.now() / 1000) - 60 },
    });
    if (refreshFails) stack.slack.failNext('oauth.v2.access', 'internal_error');
    return;
  }
}

async function playStep(run: Run, s: Step) {
  const { seq } = run;
  const tenant = 'team' in s ? seq.tenants[s.team] : undefined;
  if (!tenant && 'team' in s) return;
  const t = tenant as Tenant;
  const users = [t?.member, t?.approver, t?.admins[0]];
  switch (s.kind) {
    case 'ask':
      await stack.slack
        .sendCommand({ user: t.member, channel: t.channel, text: s.text, teamId: t.teamId })
        .catch(() => undefined);
      break;
    case 'click':
      await clickCard(
        run,
        t,
        s.card,
        s.users.map((u) => users[u] ?? t.member),
        s.killAfter,
      );
      break;
    case 'redeliver': {
      const cards = cardsOf(t);
      const id = confirmationIdOf(
        cards[s.card % Math.max(1, cards.length)] ?? ({ text: '', blocks: [] } as never),
      );
      if (id) {
        const context = { teamId: t.teamId, channelId: t.channel, userId: t.member };
        await seq
          .runJob(t.teamId, { kind: 'charge', id: `charge:${id}`, confirmationId: id, context })
          .catch(() => undefined);
      }
      break;
    }
    case 'install':
      await installAs(stack, { teamId: t.teamId, userId: s.by === 'admin' ? t.admins[0] : t.member }).catch(
        () => undefined,
      );
      break;
    case 'org':
      if (s.action === 'install') {
        const C = seq.tenants[2];
        await installAs(stack, {
          teamId: C.teamId,
          userId: C.admins[0],
          enterpriseId: seq.enterpriseId,
        }).catch(() => undefined);
      } else
        await stack.slack
          .sendEvent({ type: 'app_uninstalled' }, { teamId: seq.tenants[2].teamId })
          .catch(() => undefined);
      break;
    case 'uninstall':
      // The uninstall arrives while a charge runs (a worker may die in it).
      await clickCard(run, t, s.card, [t.approver], s.killAfter);
      await stack.slack.sendEvent({ type: 'app_uninstalled' }, { teamId: t.teamId }).catch(() => undefined);
      break;
    case 'key': {
      const key = s.action === 'shared' ? run.sharedKey : s.action === 'fresh' ? stack.newKey() : undefined;
      if (key && !run.record.keys.includes(key)) run.record.keys.push(key);
      await saveSettings(
        run,
        t,
        t.admins[0],
        key ? { service_key: { value: key } } : { remove_key: { value: ['remove'] } },
      );
      break;
    }
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
      stack.proxy.setRule(randomFaults({ seed: s.seed, failRate: s.failRate, loseRate: s.loseRate }));
      break;
    case 'service':
      stack.sim.injectFault(
        s.fault === 'hang'
          ? { kind: 'hang', route: UNLOCK_ROUTE }
          : { kind: 'status', status: 502, route: UNLOCK_ROUTE, afterExecute: true },
      );
      break;
    case 'wait':
      stack.clock.advanceSeconds(s.seconds);
      break;
    case 'scheduled':
      await runScheduled(run).catch(() => undefined);
      break;
  }
  await seq.idle();
}

async function runScheduled(run: Run) {
  const jobs = await run.seq.scheduled();
  await jobs.reconcileConfirmations();
  await jobs.pollUnlockTasks();
  await jobs.runDigests();
}

/**
 * Faults cleared, past every deadline: the scheduled jobs run twice (an hour apart), a scheduled job
 * that throws being a finding of its own. What was due before the first run and is due, unchanged,
 * after the second is stuck.
 */
async function settle(run: Run): Promise<string[]> {
  stack.proxy.clearRule();
  stack.sim.clearFaults();
  run.seq.disarm();
  await run.seq.idle();
  stack.clock.advanceSeconds(3 * 60 * 60);
  stack.sim.completeTasks();
  const dueBefore = dueItems(await scanAll(run.seq.table), stack.clock.now());
  const broken: string[] = [];
  for (let i = 0; i < 2; i++) {
    await runScheduled(run).catch((error: unknown) =>
      broken.push(`a scheduled job failed: ${String(error)}`),
    );
    stack.clock.advanceSeconds(60 * 60);
  }
  const dueAfter = dueItems(await scanAll(run.seq.table), stack.clock.now());
  return [...broken, ...stuckWork(dueBefore, dueAfter, run.seq.tenants)];
}

async function brokenInvariants(run: Run): Promise<string[]> {
  const items = await scanAll(run.seq.table);
  const simLedger = (key: string) => stack.sim.ledger(key);
  const installs = items.filter((item) => item.type === 'installation');
  const tokens = installs.flatMap((item) => {
    const bot = (item.bot ?? {}) as Record<string, unknown>;
    return [bot.token, bot.refreshToken].filter((v): v is string => typeof v === 'string');
  });
  const calls = stack.slack.calls
    .slice(run.callsFrom)
    .map((call) => call.authorization?.replace(/^(Bearer|Basic) /, '') ?? '');
  const channels = new Set(
    run.seq.tenants.flatMap((t) => [
      t.channel,
      `D${t.member}`,
      `D${t.admins[0]}`,
      `D${t.admins[1]}`,
      `D${t.approver}`,
    ]),
  );
  const shown = [
    stack.logger.lines.slice(run.linesFrom).join('\n'),
    JSON.stringify(stack.slack.messages().filter((m) => channels.has(m.channel))),
  ].join('\n');
  return [
    ...run.record.violations,
    ...moneyBroken(items, run.record, simLedger),
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
  ];
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
        await fc.assert(
          fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 8 }), async (steps) => {
            const t0 = Date.now();
            const run = await setUp();
            if (process.env.MODEL_DEBUG) console.info(`setup ${Date.now() - t0} ms`);
            for (const s of steps) {
              counts.steps++;
              const t0 = Date.now();
              await playStep(run, s);
              if (process.env.MODEL_DEBUG) console.info(`step ${s.kind} ${Date.now() - t0} ms`);
            }
            counts.dynamoFaults += stack.proxy.stats().failed + stack.proxy.stats().lost;
            const t1 = Date.now();
            const stuck = await settle(run);
            if (process.env.MODEL_DEBUG) console.info(`settle ${Date.now() - t1} ms`);
            counts.sequences++;
            counts.kills += run.seq.kills();
            counts.charges += run.record.keys.reduce((n, key) => n + stack.sim.ledger(key).length, 0);
            const broken = [...stuck, ...(await brokenInvariants(run))];
            if (broken.length > 0) counts.failures++;
            expect(broken).toEqual([]);
          }),
          { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: BUDGET_MS },
        );
      } finally {
        console.info(
          `tenant model: ${counts.sequences} sequences, ${counts.steps} steps, ${counts.charges} charges, ${counts.kills} workers killed, ${counts.dynamoFaults} DynamoDB faults, ${counts.failures} failing (shrinking included) in ${Date.now() - started} ms; seed ${SEED}`,
        );
      }
      expect(counts.sequences).toBeGreaterThanOrEqual(Math.min(RUNS, 50));
    },
    BUDGET_MS + 90_000,
  );
});
