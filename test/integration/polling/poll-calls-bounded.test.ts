import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEisClient, POLL_IN_FLIGHT } from '../../../src/eis/index.ts';
import { FOLLOW_UP_READS_PER_POLL } from '../../../src/domain/follow-up.ts';
import { createScheduledLoader } from '../../../src/roots/runtime.ts';
import type { UnlockTask } from '../../../src/domain/ports/index.ts';
import { ALICE, BOB, type Bot, CHANNEL, startBot, TEAM } from '../../support/bot.ts';

/*
 * Issue 41, item 5: polls are bounded by service calls, not by tasks. Outreach drafts stay "being
 * written" at the service (its clock stands still) until the test finishes them; each poll run is the
 * one poll-tasks makes (`createScheduledLoader`), against DynamoDB Local, the simulator at 200 ms a
 * call and the fake Slack.
 */

const PEOPLE_PER_TASK = 40;
const ALICES_TASKS = 5;
const LATENCY_MS = 200;
const DRAFT_READS = '/external/personnel/outreach';

describe('a poll pass over stacked outreach tasks', () => {
  let bot: Bot;
  const alicesTasks: UnlockTask[] = [];
  let bobsTask: UnlockTask;
  let threads = 0;
  /** Poll runs as poll-tasks makes them, `offsetMs` ahead of the wall clock (so the tasks are due again). */
  const pass = async (offsetMs: number) => {
    const jobs = await createScheduledLoader(bot.scheduledEnv(), {
      logger: bot.logger,
      now: () => new Date(Date.now() + offsetMs),
    })();
    return jobs.pollUnlockTasks();
  };
  const draftReads = () => bot.sim.requests().filter((r) => r.path === DRAFT_READS);
  const readsOf = (task: UnlockTask, reads = draftReads()) =>
    reads.filter((r) => task.personnelIds.includes(String(r.query.personnel_id))).length;

  beforeAll(async () => {
    const frozen = Date.now();
    bot = await startBot({
      clock: { now: () => frozen, sleep: (ms) => new Promise((wake) => setTimeout(wake, ms)) },
    });
    const eventIds = new Set(bot.sim.seed.events.map((event) => event.id));
    const people = bot.sim.seed.personnel.filter((p) => eventIds.has(p.eventId));
    const groupOf = (i: number) => people.slice(i * PEOPLE_PER_TASK, (i + 1) * PEOPLE_PER_TASK);
    const bobs = people.slice(ALICES_TASKS * PEOPLE_PER_TASK).slice(0, 1);
    const eis = createEisClient({ baseUrl: bot.sim.url, apiKey: bot.apiKey });
    for (const person of people.slice(0, ALICES_TASKS * PEOPLE_PER_TASK + 1))
      await eis.outreach.generate({
        channels: ['email'],
        personnelIds: [person.id],
        eventId: person.eventId,
      });
    bot.sim.setLatency(LATENCY_MS);
    const eventsOf = (group: typeof people) => Object.fromEntries(group.map((p) => [p.id, p.eventId]));
    const outreachTask = (id: string, requestedBy: string, group: typeof people) =>
      bot.store.unlockTasks.create({
        taskId: id,
        kind: 'email',
        teamId: TEAM,
        channelId: CHANNEL,
        threadTs: `1700000000.${String(++threads).padStart(6, '0')}`,
        requestedBy,
        personnelIds: group.map((p) => p.id),
        skipped: [],
        followUp: { kind: 'outreach', eventIds: eventsOf(group) },
      });
    // Alice stacks five tasks of 40 people; Bob's one task falls due after all of hers.
    for (let i = 0; i < ALICES_TASKS; i++)
      alicesTasks.push(await outreachTask(`outreach-alice-${i}`, ALICE.userId, groupOf(i)));
    bobsTask = await outreachTask('outreach-bob', BOB.userId, bobs);
  }, 120_000);
  afterAll(() => bot.close());

  it('keeps the key’s calls in flight within the poller’s share, and reads a bounded number of people per task', async () => {
    // Act
    const summary = await pass(0);

    // Assess
    expect(summary.polled).toBe(ALICES_TASKS + 1);
    expect(bot.sim.maxInFlight(bot.apiKey)).toBeLessThanOrEqual(POLL_IN_FLIGHT.total);
    for (const task of alicesTasks) expect(readsOf(task)).toBe(FOLLOW_UP_READS_PER_POLL);
    expect(draftReads()).toHaveLength(ALICES_TASKS * FOLLOW_UP_READS_PER_POLL + 1);
  }, 60_000);

  it('reads the member whose one task came last before her stack is through', () => {
    const reads = draftReads();
    const bobsRead = reads.findIndex((r) => bobsTask.personnelIds.includes(String(r.query.personnel_id)));

    // Alice never holds all of the share, and tasks are taken in turns of their members.
    expect(bobsRead).toBeGreaterThanOrEqual(0);
    expect(bobsRead).toBeLessThan(2 * POLL_IN_FLIGHT.total);
  });

  it('reads each pending person in turn, then the others once more to post the drafts, once per thread', async () => {
    // Act: the drafts are written; passes come as the tasks fall due, until every reply is in.
    bot.sim.completeTasks();
    const everyTask = [...alicesTasks, bobsTask];
    const isPosted = async (task: UnlockTask) =>
      (await bot.store.unlockTasks.get(task.taskId))?.resultPostedAt !== undefined;
    const readsPerPass: { reads: number; posted: boolean }[] = [];
    for (let minute = 1; minute <= PEOPLE_PER_TASK; minute++) {
      const before = draftReads().length;
      const alreadyPosted = await isPosted(alicesTasks[0] as UnlockTask);
      await pass(minute * 60_000);
      const reads = draftReads().slice(before);
      const task = alicesTasks[0] as UnlockTask;
      if (!alreadyPosted) readsPerPass.push({ reads: readsOf(task, reads), posted: await isPosted(task) });
      if ((await Promise.all(everyTask.map(isPosted))).every(Boolean)) break;
    }

    // Assess: a window of pending people per pass, until the pass that finds all of them over reads
    // the others too; one reply per thread; the share held throughout.
    const last = readsPerPass.at(-1);
    expect(last?.posted).toBe(true);
    expect(last?.reads).toBeLessThanOrEqual(PEOPLE_PER_TASK);
    for (const { reads } of readsPerPass.slice(0, -1)) expect(reads).toBe(FOLLOW_UP_READS_PER_POLL);
    expect(readsPerPass.length).toBeLessThanOrEqual(PEOPLE_PER_TASK / FOLLOW_UP_READS_PER_POLL);
    for (const task of everyTask)
      expect(bot.messages().filter((m) => m.threadTs === task.threadTs)).toHaveLength(1);
    expect(bot.sim.maxInFlight(bot.apiKey)).toBeLessThanOrEqual(POLL_IN_FLIGHT.total);
  }, 120_000);
});
