import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceAccountId } from '../../../src/platform/config/secrets.ts';
import { RECONCILE_AFTER_SECONDS } from '../../../src/domain/ports/index.ts';
import { confirmationIdOf, visibleText } from '../../support/bot.ts';
import {
  type DistributedBot,
  startDistributedBot,
  type TestWorkspace,
  testWorkspace,
} from '../../support/distributed-bot.ts';

const SWITCHED = testWorkspace('T0SWITCH');
const REMOVED = testWorkspace('T0REMOVED');
const GONE = testWorkspace('T0GONE');
const TASKS = testWorkspace('T0TASKS');
const BIG_EVENT = '26855';
/** An admin of the first workspace (per Slack's `users.info`), who neither installed nor confirmed. */
const ADMIN = 'U0OWNERSWITCH';
const OUTCOME_UNKNOWN = 'cannot ask the service whether the charge went through';

/** Past every charge's deadline: what a scheduled reconcile run sees a few minutes later. */
const afterTheDeadline = () => new Date(Date.now() + (RECONCILE_AFTER_SECONDS.charging + 5) * 1000);

describe('a charge whose worker died, settled only with the account it was made on (distributed app)', () => {
  let bot: DistributedBot;
  const keys = new Map<string, string>();

  beforeAll(async () => {
    bot = await startDistributedBot({
      workspaces: [SWITCHED, REMOVED, GONE, TASKS],
      users: { [ADMIN]: { name: 'owner', tz: 'UTC', teamId: SWITCHED.teamId, isAdmin: true } },
      dynamoFaults: true,
    });
    for (const { teamId } of [SWITCHED, REMOVED, GONE, TASKS]) {
      expect(await bot.install(teamId)).toBe(200);
      keys.set(teamId, bot.newKey(20_000));
      await bot.connectKey(teamId, keys.get(teamId) ?? '');
    }
  });
  afterAll(() => bot.close());

  /**
   * The workspace's member confirms the 2,000-credit unlock; the service charges it, then the worker
   * can no longer store anything (as if killed after the call): the charge stays running.
   */
  async function chargeLeftRunning(workspace: TestWorkspace) {
    await bot.command(`unlock ${BIG_EVENT}`, workspace.member);
    await bot.idle();
    const card = structuredClone(bot.slack.messages(workspace.channel).at(-1));
    const id = card && confirmationIdOf(card);
    if (!card || !id) throw new Error(`no confirmation card in ${workspace.teamId}`);
    bot.proxy?.setRule((request) =>
      request.operation === 'TransactWriteItems' &&
      JSON.stringify(request.body).includes('outcome = :outcome')
        ? { kind: 'fail' }
        : undefined,
    );
    await bot.click(card, 'confirm.yes', workspace.member);
    await bot.idle();
    bot.proxy?.clearRule();
    const running = await bot.store.confirmations.get(id);
    expect(running?.status).toBe('running');
    expect(bot.sim.ledger(keys.get(workspace.teamId) ?? '')).toHaveLength(1);
    return { id, ts: card.ts, day: running?.chargeDay ?? '' };
  }

  const cardText = (workspace: TestWorkspace, ts: string) =>
    visibleText(bot.slack.messages(workspace.channel).find((m) => m.ts === ts) ?? { text: '', blocks: [] });
  const ledgerOf = async (workspace: TestWorkspace) =>
    bot.store.ledger.listSince(workspace.teamId, new Date(Date.now() - 3_600_000));

  it('key X charged, then key Y connected: settled as outcome unknown at 2,000, X’s cap kept, Y never asked', async () => {
    // Prepare
    const keyX = keys.get(SWITCHED.teamId) ?? '';
    const charge = await chargeLeftRunning(SWITCHED);
    const keyY = bot.newKey(20_000);
    await bot.connectKey(SWITCHED.teamId, keyY);
    const requestsBefore = bot.sim.requests().length;

    // Act
    const report = await (await bot.scheduled(afterTheDeadline)()).reconcileConfirmations();

    // Assess
    expect(report).toMatchObject({ settled: 1, cardsShown: 1 });
    expect(await ledgerOf(SWITCHED)).toMatchObject([
      { confirmationId: charge.id, status: 'unknown', credits: 2000 },
    ]);
    expect(await bot.store.charges.spent(serviceAccountId(keyX), charge.day)).toBe(2000);
    expect(await bot.store.confirmations.get(charge.id)).toMatchObject({ status: 'failed' });
    const card = cardText(SWITCHED, charge.ts);
    expect(card).toContain(OUTCOME_UNKNOWN);
    expect(card).toContain('up to 2,000 credits may have been spent');
    expect(card).not.toMatch(/nothing was charged/i);
    // Y's account was neither asked nor charged.
    expect(bot.sim.requests().slice(requestsBefore)).toEqual([]);
    expect(bot.sim.ledger(keyY)).toEqual([]);
  });

  it('shows the unknown outcome on the Home of the workspace’s admins only, with what to check', async () => {
    // Prepare: the first test left a 2,000-credit charge of unknown outcome.
    const homeOf = async (userId: string) => {
      await bot.slack.openHome(userId, SWITCHED.teamId);
      await bot.idle();
      return JSON.stringify(bot.slack.home(userId)?.view ?? null);
    };

    // Act
    const [admin, member] = [await homeOf(ADMIN), await homeOf(SWITCHED.member.userId)];

    // Assess
    expect(admin).toContain('Needs attention');
    expect(admin).toContain('up to *2,000 credits* may have been spent');
    expect(admin).toContain(`asked by <@${SWITCHED.member.userId}>`);
    expect(admin).toContain('balance and usage history of the service account');
    expect(member).toContain('Event Intelligence');
    expect(member).not.toContain('Needs attention');
  });

  it('key removed mid-charge: settled as outcome unknown after the deadline, the card updated with the bot token', async () => {
    // Prepare
    const charge = await chargeLeftRunning(REMOVED);
    await bot.store.workspaces.removeServiceKey(REMOVED.teamId);

    // Act
    await (await bot.scheduled(afterTheDeadline)()).reconcileConfirmations();

    // Assess
    expect(await bot.store.confirmations.get(charge.id)).toMatchObject({ status: 'failed' });
    expect(await ledgerOf(REMOVED)).toMatchObject([{ status: 'unknown', credits: 2000 }]);
    const card = cardText(REMOVED, charge.ts);
    expect(card).toContain(OUTCOME_UNKNOWN);
    expect(card).not.toContain('Charging…');
    expect(await bot.store.confirmations.dueForTeam(REMOVED.teamId)).toEqual([]);
  });

  it('app uninstalled mid-charge: settled, out of the reconciler’s index, logged, and no Slack call', async () => {
    // Prepare
    const charge = await chargeLeftRunning(GONE);
    await bot.slack.sendEvent({ type: 'app_uninstalled' }, { teamId: GONE.teamId });
    await bot.idle();
    const [slackCalls, lines] = [bot.slack.calls.length, bot.logger.lines.length];

    // Act
    await (await bot.scheduled(afterTheDeadline)()).reconcileConfirmations();

    // Assess
    expect(await bot.store.confirmations.get(charge.id)).toMatchObject({ status: 'failed' });
    expect(await ledgerOf(GONE)).toMatchObject([{ status: 'unknown', credits: 2000 }]);
    expect(await bot.store.confirmations.dueForTeam(GONE.teamId)).toEqual([]);
    expect(bot.slack.calls.length).toBe(slackCalls);
    const logged = bot.logger.lines.slice(lines).join('\n');
    expect(logged).toContain(charge.id);
    expect(logged).toContain('no card to update');
  });

  it('an unlock task of key X is stopped, not polled with key Y, and its thread says where the results are', async () => {
    // Prepare: an email unlock confirmed with X, its task still open; then Y replaces X.
    const person = bot.sim.seed.personnel.find((p) => p.linked && p.emailFindable);
    await bot.command(`emails ${person?.id}`, TASKS.member);
    await bot.idle();
    const card = structuredClone(bot.slack.messages(TASKS.channel).at(-1));
    if (!card) throw new Error('no confirmation card');
    await bot.click(card, 'confirm.yes', TASKS.member);
    await bot.idle();
    const [task] = await bot.store.unlockTasks.unfinishedForTeam(TASKS.teamId);
    await bot.connectKey(TASKS.teamId, bot.newKey(20_000));
    bot.sim.completeTasks();
    const requestsBefore = bot.sim.requests().length;

    // Act
    await (await bot.scheduled(() => new Date(Date.now() + 31_000))()).pollUnlockTasks();

    // Assess
    expect(task).toBeDefined();
    const polls = bot.sim
      .requests()
      .slice(requestsBefore)
      .filter((r) => r.path.endsWith(`/${task?.taskId}`));
    expect(polls).toEqual([]);
    expect(await bot.store.unlockTasks.get(task?.taskId ?? '')).toMatchObject({
      stoppedReason: 'service key replaced',
    });
    const reply = bot.slack.messages(TASKS.channel).find((m) => m.threadTs === card.ts);
    expect(visibleText(reply ?? { text: '', blocks: [] })).toContain('no longer connected');
    expect(JSON.stringify(bot.slack.messages(TASKS.channel))).not.toContain(person?.email);
  });
});
