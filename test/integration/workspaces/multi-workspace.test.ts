import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeView, SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { NOT_INSTALLED_TEXT } from '../../../src/slack/app.ts';
import { confirmationIdOf, visibleText } from '../../support/bot.ts';
import {
  CLIENT_SECRET,
  type DistributedBot,
  startDistributedBot,
  startInstalledWorkspaces,
  type TestWorkspace,
  testWorkspace,
} from '../../support/distributed-bot.ts';

const A = testWorkspace('T0ALPHA');
const B = testWorkspace('T0BETA');
const BIG_EVENT = '26855';

describe('two workspaces side by side (distributed app)', () => {
  let bot: DistributedBot;
  let keyA: string;
  let keyB: string;
  const botTokens: string[] = [];

  // Another seeded event each time (an unlocked one has nothing left to pay for).
  let events = 0;
  const nextEvent = () =>
    bot.sim.events.filter((e) => e.eventId !== BIG_EVENT && e.exhibitorCount > 0 && e.personnelCount > 0)[
      events++
    ]?.eventId ?? '';

  const messagesOf = (workspace: TestWorkspace) => bot.slack.messages(workspace.channel);

  /** `/events <text>` by the workspace's member; the confirmation card it produced, as a snapshot. */
  async function cardFor(workspace: TestWorkspace, text: string): Promise<SlackMessage> {
    await bot.command(text, workspace.member);
    await bot.idle();
    const card = messagesOf(workspace).at(-1);
    if (!card || !visibleText(card).includes('confirm.yes'))
      throw new Error(`no confirmation card for ${text} in ${workspace.teamId}: ${card?.text}`);
    return structuredClone(card);
  }

  /** The answer `/events <text>` gets in the workspace's channel (the last message after it). */
  async function answerTo(workspace: TestWorkspace, text: string): Promise<string> {
    await bot.command(text, workspace.member);
    await bot.idle();
    return visibleText(messagesOf(workspace).at(-1) ?? { text: '', blocks: [] });
  }

  /** The workspace's member unlocks the email of the `nth` findable person; the task's id (not polled yet). */
  async function openUnlockTask(workspace: TestWorkspace, nth: number): Promise<string> {
    const person = bot.sim.seed.personnel.filter((p) => p.linked && p.emailFindable)[nth];
    await bot.click(await cardFor(workspace, `emails ${person?.id}`), 'confirm.yes', workspace.member);
    await bot.idle();
    const [task] = await bot.store.unlockTasks.unfinishedForTeam(workspace.teamId);
    if (!task) throw new Error(`no open unlock task in ${workspace.teamId}`);
    return task.taskId;
  }

  async function homeOf(workspace: TestWorkspace): Promise<FakeView> {
    await bot.slack.openHome(workspace.member.userId, workspace.teamId);
    await bot.idle();
    const home = bot.slack.home(workspace.member.userId);
    if (!home) throw new Error(`no Home published for ${workspace.member.userId}`);
    return structuredClone(home);
  }

  beforeAll(async () => {
    bot = await startDistributedBot({ workspaces: [A, B] });
    keyA = bot.newKey(20_000);
    keyB = bot.newKey(15_000);
    expect(await bot.install(A.teamId)).toBe(200);
    expect(await bot.install(B.teamId)).toBe(200);
    await bot.connectKey(A.teamId, keyA);
    await bot.connectKey(B.teamId, keyB);
    for (const { teamId } of [A, B]) {
      const installed = await bot.store.installations.fetchInstallation({
        teamId,
        isEnterpriseInstall: false,
      });
      botTokens.push(installed.bot?.token ?? 'missing');
    }
  });
  afterAll(() => bot.close());

  it('charges each workspace’s confirmed unlock to its own key, posting with its own token', async () => {
    const cardA = await cardFor(A, `unlock ${BIG_EVENT}`);
    await bot.click(cardA, 'confirm.yes', A.member);
    await bot.idle();
    const cardB = await cardFor(B, `unlock ${BIG_EVENT}`);
    await bot.click(cardB, 'confirm.yes', B.member);
    await bot.idle();

    expect(bot.sim.ledger(keyA)).toHaveLength(1);
    expect(bot.sim.ledger(keyB)).toHaveLength(1);
    expect(cardA.teamId).toBe(A.teamId);
    expect(cardB.teamId).toBe(B.teamId);
    const posted = (w: TestWorkspace) => messagesOf(w).filter((m) => m.user === bot.slack.botUserId);
    expect(posted(A).every((m) => m.teamId === A.teamId)).toBe(true);
    expect(posted(B).every((m) => m.teamId === B.teamId)).toBe(true);
  });

  it('shows each workspace its own balance and spend, never the other’s', async () => {
    const creditsA = await answerTo(A, 'credits');
    const spendA = await answerTo(A, 'spend');
    const creditsB = await answerTo(B, 'credits');
    const spendB = await answerTo(B, 'spend');

    expect(creditsA).toContain('18,000 credits* available of 20,000');
    expect(creditsB).toContain('13,000 credits* available of 15,000');
    expect(spendA).toContain(A.member.userId);
    expect(spendA).not.toContain(B.member.userId);
    expect(spendB).toContain(B.member.userId);
    expect(spendB).not.toContain(A.member.userId);
  });

  it('refuses a click from a member of A on B’s confirmation card, and charges nobody', async () => {
    const cardB = await cardFor(B, `unlock ${nextEvent()}`);
    const before = [bot.sim.ledger(keyA).length, bot.sim.ledger(keyB).length];

    const answer = await bot.click(cardB, 'confirm.yes', A.member);
    await bot.idle();
    const refusal = messagesOf(B).at(-1);

    expect(answer.status).toBe(200);
    expect(refusal?.visibleTo).toBe(A.member.userId);
    expect(refusal?.text).toContain('belongs to another workspace');
    expect([bot.sim.ledger(keyA).length, bot.sim.ledger(keyB).length]).toEqual(before);

    // The card is still B's to confirm, charged to B's key.
    await bot.click(cardB, 'confirm.yes', B.member);
    await bot.idle();
    expect(bot.sim.ledger(keyA)).toHaveLength(before[0] ?? 0);
    expect(bot.sim.ledger(keyB)).toHaveLength((before[1] ?? 0) + 1);
  });

  it('shows A’s Home only A’s balance and pending confirmations', async () => {
    const pendingB = confirmationIdOf(await cardFor(B, `unlock ${nextEvent()}`));
    const pendingA = confirmationIdOf(await cardFor(A, `unlock ${nextEvent()}`));

    const homeA = JSON.stringify((await homeOf(A)).view);
    const homeB = JSON.stringify((await homeOf(B)).view);

    expect(homeA).toContain(pendingA);
    expect(homeA).not.toContain(pendingB);
    expect(homeA).toContain('18,000');
    expect(homeA).not.toContain('13,000');
    expect(homeB).toContain(pendingB);
    expect(homeB).not.toContain(pendingA);
  });

  it('polls each workspace’s unlock task with its own key and replies in its own thread', async () => {
    const [personA, personB] = bot.sim.seed.personnel.filter((p) => p.linked && p.emailFindable);
    const cardA = await cardFor(A, `emails ${personA?.id}`);
    await bot.click(cardA, 'confirm.yes', A.member);
    const cardB = await cardFor(B, `emails ${personB?.id}`);
    await bot.click(cardB, 'confirm.yes', B.member);
    await bot.idle();
    bot.sim.completeTasks();

    // The simulator answers a task only to the key that submitted it.
    const summary = await (await bot.scheduled(() => new Date(Date.now() + 31_000))()).pollUnlockTasks();

    expect(summary).toMatchObject({ posted: 2 });
    const replyA = messagesOf(A).find((m) => m.threadTs === cardA.ts);
    const replyB = messagesOf(B).find((m) => m.threadTs === cardB.ts);
    expect(replyA?.teamId).toBe(A.teamId);
    expect(visibleText(replyA ?? { text: '', blocks: [] })).toContain(personA?.email);
    expect(replyB?.teamId).toBe(B.teamId);
    expect(visibleText(replyB ?? { text: '', blocks: [] })).toContain(personB?.email);
    expect(JSON.stringify(messagesOf(A))).not.toContain(personB?.email);
  });

  describe('digests, and B removing the app', () => {
    const HOUR = 60 * 60_000;
    // 07:00 UTC tomorrow: each digest's first run is due at 08:00 its time, one local day apart.
    let at = Date.parse(`${new Date().toISOString().slice(0, 10)}T07:00:00Z`) + 24 * HOUR;
    const clock = () => new Date(at);
    const digestsIn = (workspace: TestWorkspace) =>
      messagesOf(workspace).filter((m) => m.visibleTo === undefined && /Digest for/.test(m.text));
    const subscribe = (workspace: TestWorkspace) =>
      bot.store.digestSubscriptions.put({
        teamId: workspace.teamId,
        channelId: workspace.channel,
        time: '08:00',
        timeZone: 'UTC',
        filters: {},
        createdBy: workspace.member.userId,
        nextRunAt: new Date(at + HOUR),
      });
    const runDigests = async () => (await bot.scheduled(clock)()).runDigests();

    beforeAll(async () => {
      await subscribe(A);
      await subscribe(B);
    });

    it('posts each workspace’s digest in its own channel, with its own token', async () => {
      at += HOUR + 60_000;
      const summary = await runDigests();

      expect(summary.posted).toBe(2);
      expect(digestsIn(A).map((m) => m.teamId)).toEqual([A.teamId]);
      expect(digestsIn(B).map((m) => m.teamId)).toEqual([B.teamId]);
    });

    it('stops B’s digests, watches and open unlock tasks once B uninstalls the app; A’s go on', async () => {
      const [taskA, taskB] = [await openUnlockTask(A, 2), await openUnlockTask(B, 3)];
      for (const workspace of [A, B]) await bot.command('watch add globex.com', workspace.member);
      await bot.idle();
      const watchOf = async (workspace: TestWorkspace) =>
        (await bot.store.watchLists.settings(workspace.teamId, workspace.channel))?.status;
      expect([await watchOf(A), await watchOf(B)]).toEqual(['on', 'on']);
      const answer = await bot.slack.sendEvent({ type: 'app_uninstalled' }, { teamId: B.teamId });
      await bot.idle();
      const requestsBefore = bot.sim.requests().length;
      bot.sim.completeTasks();
      const polled = await (await bot.scheduled(() => new Date(Date.now() + 31_000))()).pollUnlockTasks();
      const pollsOfB = bot.sim
        .requests()
        .slice(requestsBefore)
        .filter((r) => r.path.endsWith(`/${taskB}`));
      const [nextA] = await bot.store.digestSubscriptions.due({ now: new Date(at + 48 * HOUR), limit: 10 });
      at = Date.parse(nextA?.nextRunAt ?? '') + 60_000;
      const summary = await runDigests();

      expect(nextA?.teamId).toBe(A.teamId);
      expect(answer.status).toBe(200);
      expect(summary.posted).toBe(1);
      expect(digestsIn(A)).toHaveLength(2);
      expect(digestsIn(B)).toHaveLength(1);
      expect(await bot.store.workspaces.getServiceKeyInfo(B.teamId)).toBeNull();
      // B's task is stopped, never polled again; A's is polled and its result posted in its thread.
      expect(polled).toMatchObject({ posted: 1 });
      expect(pollsOfB).toEqual([]);
      expect(await bot.store.unlockTasks.unfinishedForTeam(B.teamId, { followUps: true })).toEqual([]);
      expect(await bot.store.unlockTasks.get(taskB)).not.toHaveProperty('resultPostedAt');
      expect(await bot.store.unlockTasks.get(taskA)).toHaveProperty('resultPostedAt');
      // B's watch is off (out of the due index: never checked again), its accounts kept; A's stays on.
      expect([await watchOf(A), await watchOf(B)]).toEqual(['on', 'off']);
      expect(await bot.store.watchLists.onForTeam(B.teamId)).toEqual([]);
      expect(await bot.store.watchLists.allAccounts(B.teamId, B.channel)).toHaveLength(1);
    });

    it('tells B’s members the app was removed, doing nothing, and A’s still get answers', async () => {
      const [slackCalls, simRequests] = [bot.slack.calls.length, bot.sim.requests().length];
      const refused = await bot.command('credits', B.member);
      await bot.idle();
      const nothingDone = [bot.slack.calls.length - slackCalls, bot.sim.requests().length - simRequests];
      const creditsA = await answerTo(A, 'credits');

      expect(JSON.parse(refused.body)).toEqual({ response_type: 'ephemeral', text: NOT_INSTALLED_TEXT });
      expect(nothingDone).toEqual([0, 0]);
      expect(creditsA).toContain(`${bot.sim.balance(keyA).toLocaleString('en-US')} credits available`);
    });
  });

  it('refuses a request from a workspace that never installed the app, before any work', async () => {
    const ghost = testWorkspace('T0GHOST');
    const [slackCalls, simRequests] = [bot.slack.calls.length, bot.sim.requests().length];

    const answer = await bot.command('credits', ghost.member);
    await bot.idle();

    // No installation, no token: the first middleware answers in the ack, no listener runs.
    expect(JSON.parse(answer.body)).toEqual({ response_type: 'ephemeral', text: NOT_INSTALLED_TEXT });
    expect(bot.slack.calls.length).toBe(slackCalls);
    expect(bot.sim.requests().length).toBe(simRequests);
    expect(bot.slack.messages(ghost.channel).map((message) => message.text)).toEqual([NOT_INSTALLED_TEXT]);
  });

  it('never puts either workspace’s service key or bot token in a log line or a Slack message', () => {
    const shown = [bot.logger.lines.join('\n'), JSON.stringify(bot.slack.messages())].join('\n');

    for (const secret of [keyA, keyB, CLIENT_SECRET, ...botTokens]) expect(shown).not.toContain(secret);
  });
});

describe('a workspace whose installation is gone without an uninstall event for it (org-wide uninstall)', () => {
  let bot: DistributedBot;

  beforeAll(async () => {
    bot = await startInstalledWorkspaces([A, B], { balance: 5_000 });
  });
  afterAll(() => bot.close());

  it('is forgotten by the next poll-tasks run, logged once: tasks stopped, digests off, key deleted, confirmations closed', async () => {
    // Prepare: B has an open unlock task, a pending confirmation and a digest due, then its installation item disappears.
    const person = bot.sim.seed.personnel.find((p) => p.linked && p.emailFindable);
    await bot.command(`emails ${person?.id}`, B.member);
    await bot.idle();
    const card = bot.slack.messages(B.channel).at(-1);
    if (!card) throw new Error('no confirmation card');
    await bot.click(card, 'confirm.yes', B.member);
    await bot.idle();
    const [task] = await bot.store.unlockTasks.unfinishedForTeam(B.teamId);
    await bot.command(`unlock ${BIG_EVENT}`, B.member);
    await bot.idle();
    const pendingCard = bot.slack.messages(B.channel).at(-1);
    if (!pendingCard) throw new Error('no second confirmation card');
    const pending = confirmationIdOf(pendingCard);
    await bot.store.digestSubscriptions.put({
      teamId: B.teamId,
      channelId: B.channel,
      time: '08:00',
      timeZone: 'UTC',
      filters: {},
      createdBy: B.member.userId,
      nextRunAt: new Date(),
    });
    await bot.store.installations.deleteInstallation({ teamId: B.teamId, isEnterpriseInstall: false });
    const later = () => new Date(Date.now() + 31_000);
    const linesAboutB = (from: number) => bot.logger.lines.slice(from).filter((l) => l.includes(B.teamId));
    const [requests, lines] = [bot.sim.requests().length, bot.logger.lines.length];

    // Act
    await (await bot.scheduled(later)()).pollUnlockTasks();
    const afterFirst = bot.logger.lines.length;
    const again = await bot.scheduled(later)();
    await again.pollUnlockTasks();
    await again.runDigests();
    // Past every confirmation's deadline: nothing of B's is left for the reconciler either.
    await (await bot.scheduled(() => new Date(Date.now() + 3 * 60 * 60_000))()).reconcileConfirmations();

    // Assess
    expect(task).toBeDefined();
    expect(await bot.store.unlockTasks.unfinishedForTeam(B.teamId, { followUps: true })).toEqual([]);
    expect(
      bot.sim
        .requests()
        .slice(requests)
        .filter((r) => r.path.endsWith(`/${task?.taskId}`)),
    ).toEqual([]);
    expect(await bot.store.digestSubscriptions.activeForTeam(B.teamId)).toEqual([]);
    expect(bot.slack.messages(B.channel).filter((m) => /Digest for/.test(m.text))).toEqual([]);
    expect(await bot.store.workspaces.getServiceKeyInfo(B.teamId)).toBeNull();
    expect(await bot.store.workspaces.getServiceKeyInfo(A.teamId)).not.toBeNull();
    expect(await bot.store.confirmations.get(pending)).toMatchObject({ status: 'cancelled' });
    expect(await bot.store.confirmations.dueForTeam(B.teamId)).toEqual([]);
    const logged = linesAboutB(lines).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toEqual([
      expect.objectContaining({
        message: 'forgot a workspace that removed the app',
        teamId: B.teamId,
        keyRemoved: true,
        digestsStopped: 1,
        tasksStopped: 1,
        confirmationsWithdrawn: 1,
        chargesUnsettled: 0,
      }),
    ]);
    expect(linesAboutB(afterFirst)).toEqual([]);
  });
});

describe('token rotation under load (distributed app)', () => {
  const C = testWorkspace('T0GAMMA');
  let bot: DistributedBot;

  beforeAll(async () => {
    bot = await startDistributedBot({ workspaces: [C], tokenLifetimeSeconds: 43_200 });
    expect(await bot.install(C.teamId)).toBe(200);
    await bot.connectKey(C.teamId, bot.newKey(5_000));
  });
  afterAll(() => bot.close());

  it('refreshes an expired bot token once for 10 concurrent commands, and answers them all', async () => {
    // Prepare: the stored token expired a minute ago (as after a quiet night).
    const lookup = { teamId: C.teamId, isEnterpriseInstall: false };
    const { bot: grant, ...installation } = await bot.store.installations.fetchInstallation(lookup);
    await bot.store.installations.storeInstallation({
      ...installation,
      bot: { ...grant, expiresAt: Math.floor(Date.now() / 1000) - 60 },
    });

    // Act
    const answers = await Promise.all(Array.from({ length: 10 }, () => bot.command('credits', C.member)));
    await bot.idle();

    // Assess
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(bot.slack.oauth.refreshCount()).toBe(1);
    const balances = bot.slack
      .messages(C.channel)
      .filter((m) => m.text.includes('5,000 credits available') && m.visibleTo === C.member.userId);
    expect(balances).toHaveLength(10);
    expect(balances.every((m) => m.teamId === C.teamId)).toBe(true);
  });
});
