import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIVE_UP_AFTER_MS, pollDelayMs } from '../../../src/domain/poll-cadence.ts';
import { createEisClient } from '../../../src/eis/index.ts';
import type { SeededPersonnel } from '../../../simulator/server.ts';
import { createScheduledLoader } from '../../../src/roots/runtime.ts';
import { ACTION_IDS } from '../../../src/slack/views/action-ids.ts';
import type { UnlockTask } from '../../../src/domain/ports/index.ts';
import { ALICE, type Bot, startBot, visibleText } from '../../support/bot.ts';

const TASK_ROUTE = 'GET /external/contacts/unlock-tasks/{taskId}';

describe('unlock results in threads (poll-tasks)', () => {
  let bot: Bot;
  let env: Record<string, string>;
  // The business clock: real time plus whatever a test moves it by, or held at one moment.
  let offsetMs = 0;
  let heldAt: number | undefined;
  const clock = () => new Date(heldAt ?? Date.now() + offsetMs);
  const loader = () => createScheduledLoader(env, { logger: bot.logger, now: clock });
  let poll: () => ReturnType<Awaited<ReturnType<ReturnType<typeof loader>>>['pollUnlockTasks']>;
  const used = new Set<string>();

  /** People not used by an earlier test (an unlocked contact would be skipped). */
  function people(count: number, emailFindable: boolean): SeededPersonnel[] {
    const found = bot.sim.seed.personnel
      .filter((p) => p.linked && p.emailFindable === emailFindable && !used.has(p.id))
      .slice(0, count);
    for (const person of found) used.add(person.id);
    return found;
  }

  /** `/events emails …`, confirmed by the requester: returns the card and the stored task. */
  async function confirmedEmailUnlock(ids: string[]): Promise<{ cardTs: string; task: UnlockTask }> {
    await bot.command(`emails ${ids.join(' ')}`);
    await bot.idle();
    const card = bot.last();
    await bot.click(card, ACTION_IDS.confirmYes, ALICE);
    await bot.idle();
    const due = await bot.store.unlockTasks.due({
      now: new Date(Date.now() + 2 * GIVE_UP_AFTER_MS),
      limit: 100,
    });
    const task = due.find((t) => t.threadTs === card.ts);
    if (!task)
      throw new Error(
        `no unlock task for card ${card.ts}: ${visibleText(bot.find((m) => m.ts === card.ts))}`,
      );
    return { cardTs: card.ts, task };
  }

  const repliesIn = (threadTs: string) => bot.messages().filter((m) => m.threadTs === threadTs);

  beforeAll(async () => {
    bot = await startBot();
    env = bot.scheduledEnv();
    const load = loader();
    poll = async () => (await load()).pollUnlockTasks();
  });
  afterAll(() => bot.close());

  describe('one task, run after run', () => {
    let cardTs: string;
    let findable: SeededPersonnel[];
    let unfindable: SeededPersonnel[];

    it('posts nothing while the service is still working, says so on the card, and polls it again a step later', async () => {
      // Prepare
      findable = people(2, true);
      unfindable = people(1, false);
      const unlock = await confirmedEmailUnlock([...findable, ...unfindable].map((p) => p.id));
      cardTs = unlock.cardTs;

      // Act: a poll at one moment of the clock.
      const polledAt = Date.now();
      heldAt = polledAt;
      const summary = await poll().finally(() => (heldAt = undefined));

      // Assess
      expect(summary).toMatchObject({ polled: 1, posted: 0, rescheduled: 1 });
      expect(repliesIn(cardTs)).toEqual([]);
      const task = await bot.store.unlockTasks.get(unlock.task.taskId);
      expect(task?.attempts).toBe(1);
      // A young task is due again at its next step from the poll (the run that polled it is still going).
      const age = polledAt - Date.parse(unlock.task.createdAt);
      expect(task?.nextPollAt).toBe(new Date(polledAt + pollDelayMs(age)).toISOString());
      const card = visibleText(bot.find((m) => m.ts === cardTs));
      expect(card).toContain(
        'Waiting for the service: 3 contacts, just started; results usually arrive within a minute.',
      );
      expect(card).not.toContain('Charging');
    });

    it('posts one reply in the card’s thread once the task completed, and updates the card', async () => {
      // Prepare
      bot.sim.completeTasks();
      offsetMs = 31_000;

      // Act
      const summary = await poll();

      // Assess
      expect(summary).toMatchObject({ posted: 1 });
      const replies = repliesIn(cardTs);
      expect(replies).toHaveLength(1);
      const reply = visibleText(replies[0] ?? { text: '', blocks: [] });
      for (const person of findable) {
        expect(reply).toContain(person.fullName);
        expect(reply).toContain(person.email);
      }
      expect(reply).toContain(unfindable[0]?.fullName ?? 'missing');
      expect(reply).toContain('no email address found');
      expect(replies[0]?.warnings).toEqual([]);
      const card = bot.find((m) => m.ts === cardTs);
      expect(card.text + JSON.stringify(card.blocks)).toContain('2 emails found, 1 charged but not found');
    });

    it('posts nothing new on a third run', async () => {
      // Prepare
      offsetMs = 60 * 60_000;
      const before = bot.messages().length;

      // Act
      const summary = await poll();

      // Assess
      expect(summary.polled).toBe(0);
      expect(bot.messages()).toHaveLength(before);
      expect(repliesIn(cardTs)).toHaveLength(1);
    });
  });

  it('posts once when two runs overlap', async () => {
    // Prepare
    offsetMs = 0;
    const { cardTs } = await confirmedEmailUnlock(people(2, true).map((p) => p.id));
    bot.sim.completeTasks();
    const [first, second] = [loader(), loader()];

    // Act
    const summaries = await Promise.all([
      first().then((jobs) => jobs.pollUnlockTasks()),
      second().then((jobs) => jobs.pollUnlockTasks()),
    ]);

    // Assess
    expect(repliesIn(cardTs)).toHaveLength(1);
    expect(summaries.reduce((sum, s) => sum + s.posted, 0)).toBe(1);
  });

  it('gives up after 24 h with one thread message, and never posts the result after it', async () => {
    // Prepare: the service never says the task is done
    offsetMs = 0;
    const { cardTs, task } = await confirmedEmailUnlock(people(1, true).map((p) => p.id));
    bot.sim.injectFault({ kind: 'status', status: 404, route: TASK_ROUTE, times: 1 });
    offsetMs = GIVE_UP_AFTER_MS + 60_000;

    // Act
    const first = await poll();
    bot.sim.completeTasks();
    offsetMs += 60 * 60_000;
    const second = await poll();

    // Assess
    expect(first.timedOut).toBe(1);
    expect(second.posted).toBe(0);
    const replies = repliesIn(cardTs);
    expect(replies).toHaveLength(1);
    expect(visibleText(replies[0] ?? { text: '', blocks: [] })).toContain('No result after 24 hours');
    expect((await bot.store.unlockTasks.get(task.taskId))?.resultPostedAt).toBeDefined();
  });

  it('posts the other results when one task’s channel is gone, and records that failure', async () => {
    // Prepare: two confirmed unlocks, and a third whose channel no longer exists
    offsetMs = 0;
    const good = [
      await confirmedEmailUnlock(people(1, true).map((p) => p.id)),
      await confirmedEmailUnlock(people(1, true).map((p) => p.id)),
    ];
    const eis = createEisClient({ baseUrl: bot.sim.url, apiKey: bot.apiKey });
    const submission = await eis.contacts.unlockEmails(people(1, true).map((p) => p.id));
    await eis.close();
    const goneTaskId = submission.taskId ?? '';
    await bot.store.unlockTasks.create({
      taskId: goneTaskId,
      kind: 'email',
      teamId: ALICE.teamId,
      channelId: 'C0GONE',
      threadTs: '1700000000.000001',
      requestedBy: ALICE.userId,
      personnelIds: [],
      skipped: [],
    });
    bot.sim.completeTasks();
    // …and Slack rate-limits one post: it is retried after Retry-After, not lost
    bot.slack.failNext('chat.postMessage', 'ratelimited');

    // Act
    const summary = await poll();

    // Assess
    for (const { cardTs } of good) expect(repliesIn(cardTs)).toHaveLength(1);
    expect(summary).toMatchObject({ posted: 2, slackFailures: 1 });
    const gone = await bot.store.unlockTasks.get(goneTaskId);
    expect(gone?.slackFailures).toBe(1);
    expect(gone?.lastSlackFailure?.reason).toBe('channel_not_found');
  });

  it('starts nothing when the Lambda has too little time left', async () => {
    // Prepare
    offsetMs = 0;
    const { cardTs } = await confirmedEmailUnlock(people(1, true).map((p) => p.id));
    bot.sim.completeTasks();
    const jobs = await loader()();

    // Act
    const summary = await jobs.pollUnlockTasks({ remainingMs: () => 5_000 });

    // Assess
    expect(summary).toMatchObject({ polled: 0, outOfTime: true });
    expect(repliesIn(cardTs)).toEqual([]);
  });

  it('runs through the Lambda handler, reading its config from the environment', async () => {
    // Prepare: the task left by the previous test is due and complete
    Object.assign(process.env, env);
    const { handler } = await import('../../../handlers/poll-tasks.ts');

    // Act
    const summary = await handler({}, { getRemainingTimeInMillis: () => 50_000 });

    // Assess
    expect(summary).toMatchObject({ polled: { posted: 1, outOfTime: false }, reconciled: { failures: 0 } });
  });
});
