import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEisClient, pollSharesForKey } from '../../../src/eis/index.ts';
import { FOLLOW_UP_READS_PER_POLL } from '../../../src/domain/follow-up.ts';
import { createScheduledLoader } from '../../../src/roots/runtime.ts';
import type { UnlockTask } from '../../../src/domain/ports/index.ts';
import { ALICE, type Bot, CHANNEL, startBot, TEAM } from '../../support/bot.ts';

/*
 * Issue 41, item 5: a follow-up poll whose read fails ends with all of its reads. Before, the poll gave
 * up at the first failed read and left the others running and queued in the key's share for polls,
 * where they held places after their poll had ended (and more piled up at each poll while the failure
 * lasted: the bench's stacked outreach tasks made 1,640 reads each and never replied). Each poll run is
 * the one poll-tasks makes (`createScheduledLoader`), against DynamoDB Local, the simulator at 200 ms
 * a call (its clock stands still until the test finishes the drafts) and the fake Slack.
 */

const PEOPLE = 2 * FOLLOW_UP_READS_PER_POLL;
const LATENCY_MS = 200;
const DRAFT_READS = '/external/personnel/outreach';

describe('a follow-up poll whose read fails', () => {
  let bot: Bot;
  let task: UnlockTask;
  /** A poll run as poll-tasks makes it, `offsetMs` ahead of the wall clock (so the task is due again). */
  const pass = async (offsetMs: number) => {
    const jobs = await createScheduledLoader(bot.scheduledEnv(), {
      logger: bot.logger,
      now: () => new Date(Date.now() + offsetMs),
    })();
    return jobs.pollUnlockTasks();
  };
  const draftReads = () => bot.sim.requests().filter((r) => r.path === DRAFT_READS);

  beforeAll(async () => {
    const frozen = Date.now();
    bot = await startBot({
      clock: { now: () => frozen, sleep: (ms) => new Promise((wake) => setTimeout(wake, ms)) },
    });
    const eventIds = new Set(bot.sim.seed.events.map((event) => event.id));
    const people = bot.sim.seed.personnel.filter((p) => eventIds.has(p.eventId)).slice(0, PEOPLE);
    const eis = createEisClient({ baseUrl: bot.sim.url, apiKey: bot.apiKey });
    for (const person of people)
      await eis.outreach.generate({
        channels: ['email'],
        personnelIds: [person.id],
        eventId: person.eventId,
      });
    bot.sim.setLatency(LATENCY_MS);
    task = await bot.store.unlockTasks.create({
      taskId: 'outreach-failed-read',
      kind: 'email',
      teamId: TEAM,
      channelId: CHANNEL,
      threadTs: '1700000000.000001',
      requestedBy: ALICE.userId,
      personnelIds: people.map((p) => p.id),
      skipped: [],
      followUp: { kind: 'outreach', eventIds: Object.fromEntries(people.map((p) => [p.id, p.eventId])) },
    });
  }, 120_000);
  afterAll(() => bot.close());

  it('ends with every read it started: none is left running or waiting in the key’s share', async () => {
    // Prepare: the service refuses the poll's first read.
    bot.sim.injectFault({ kind: 'status', status: 400, route: `GET ${DRAFT_READS}`, times: 1 });

    // Act
    const summary = await pass(0);

    // Assess: the poll read its whole window, then gave up; the share is idle as the run ends.
    expect(summary.polled).toBe(1);
    expect(summary.posted).toBe(0);
    const shares = pollSharesForKey(bot.apiKey);
    expect({ inFlight: shares.inFlight, waiting: shares.waiting }).toEqual({ inFlight: 0, waiting: 0 });
    expect(draftReads()).toHaveLength(FOLLOW_UP_READS_PER_POLL);
  }, 60_000);

  it('posts the drafts once at later polls, with no read beyond the bound', async () => {
    // Act: the drafts are written; passes come as the task falls due, until its reply is in.
    bot.sim.completeTasks();
    const isPosted = async () => (await bot.store.unlockTasks.get(task.taskId))?.resultPostedAt !== undefined;
    let polls = 1;
    for (let minute = 1; minute <= PEOPLE && !(await isPosted()); minute++) {
      await pass(minute * 60_000);
      polls += 1;
    }

    // Assess: a window a poll, and everyone once more in the poll that posts.
    expect(await isPosted()).toBe(true);
    expect(bot.messages().filter((m) => m.threadTs === task.threadTs)).toHaveLength(1);
    expect(draftReads().length).toBeLessThanOrEqual(polls * FOLLOW_UP_READS_PER_POLL + PEOPLE);
  }, 120_000);
});
