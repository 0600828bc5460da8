import { describe, expect, it } from 'vitest';
import { EARLY_POLLS, nextPollAt, RUN_EVERY_MS, YOUNG_STEPS } from '../../../src/domain/poll-cadence.ts';
import { pollTasksForAMinute } from '../../../src/domain/poll-run.ts';
import {
  pollSubmittedTask,
  pollUnlockTasks,
  type UnlockPollingDeps,
} from '../../../src/domain/unlock-polling.ts';
import type { UnlockTaskProgress } from '../../../src/domain/unlock-result.ts';
import type { UnlockTask } from '../../../src/domain/ports/index.ts';
import { createMemoryLogger } from '../../../src/platform/log.ts';
import { fakeUnlockTasks } from '../../support/fake-unlock-tasks.ts';

const START = Date.parse('2027-03-01T10:00:00Z');
const SECOND = 1_000;
const MINUTE = 60 * SECOND;
/** A young task's steps: its first two minutes, then until ten. */
const [FIRST_STEP, SECOND_STEP] = YOUNG_STEPS.map((step) => step.everyMs) as [number, number];

function task(taskId: string, createdAt: number): UnlockTask {
  const iso = new Date(createdAt).toISOString();
  return {
    type: 'unlock-task',
    taskId,
    kind: 'email',
    teamId: 'T1',
    channelId: 'C1',
    threadTs: `1700000000.${taskId.padStart(6, '0')}`,
    requestedBy: 'U1',
    personnelIds: ['11'],
    skipped: [],
    createdAt: iso,
    attempts: 0,
    nextPollAt: iso,
    slackFailures: 0,
    expiresAt: 1,
  };
}

const progressAt = (finished: boolean): UnlockTaskProgress => ({
  taskStatus: finished ? 'completed' : 'processing',
  items: [
    { personnelId: '11', status: finished ? 'unlocked' : 'processing', value: finished ? 'a@x.test' : null },
  ],
});

/**
 * The poller's scheduled runs over an in-memory store on a virtual clock: the service finishes each
 * task at its time, a run starts every minute (each nap moves the clock), and every reply is timed.
 */
function world(tasks: UnlockTask[], finishesAt: Record<string, number>) {
  let now = START;
  const clock = () => new Date(now);
  const store = fakeUnlockTasks(tasks, clock);
  const polls = new Map<string, number>();
  const replies = new Map<string, number[]>();
  const naps: number[] = [];
  const dueAt = (t: UnlockTask) => Date.parse(t.leaseExpiresAt ?? t.nextPollAt);
  const pollingDeps = (): UnlockPollingDeps => ({
    tasks: store.repo,
    progress: (_kind, taskId) => {
      polls.set(taskId, (polls.get(taskId) ?? 0) + 1);
      return Promise.resolve(progressAt(now >= (finishesAt[taskId] ?? Infinity)));
    },
    thread: {
      postResult: (t) => {
        replies.set(t.taskId, [...(replies.get(t.taskId) ?? []), now]);
        return Promise.resolve();
      },
      postTimeout: () => Promise.resolve(),
      postAccountChanged: () => Promise.resolve(),
      updateCard: () => Promise.resolve(),
      showWaiting: () => Promise.resolve(),
    },
    logger: createMemoryLogger(),
    now: clock,
    sleep: () => Promise.resolve(),
  });
  const run = () =>
    pollTasksForAMinute({
      pass: ({ remainingMs, runStartedAt }) =>
        pollUnlockTasks({ ...pollingDeps(), remainingMs, runStartedAt }),
      nextDue: ({ after, before }) => {
        const times = [...store.byId.values()]
          .filter((t) => !t.resultPostedAt && !t.stoppedAt)
          .map(dueAt)
          .filter((at) => at > after.getTime() && at <= before.getTime())
          .sort((a, b) => a - b);
        return Promise.resolve(times[0] === undefined ? undefined : new Date(times[0]));
      },
      now: clock,
      sleep: (ms) => {
        naps.push(ms);
        now += ms;
        return Promise.resolve();
      },
      logger: createMemoryLogger(),
    });
  /** Runs as EventBridge starts them: one each minute from `from`, `count` of them. */
  const everyMinute = async (from: number, count: number) => {
    for (let minute = 0; minute < count; minute++) {
      now = Math.max(now, from + minute * RUN_EVERY_MS);
      await run();
    }
  };
  return {
    store,
    polls,
    replies,
    naps,
    run,
    everyMinute,
    pollingDeps,
    setNow: (ms: number) => (now = ms),
    now: () => now,
  };
}

describe('nextPollAt', () => {
  const runStartedAt = new Date(START);
  const at = (ms: number) => new Date(START + ms);

  it('counts a young task’s step from this poll', () => {
    expect(nextPollAt(30 * SECOND, at(7 * SECOND), runStartedAt)).toEqual(at(7 * SECOND + FIRST_STEP));
    expect(nextPollAt(5 * MINUTE, at(7 * SECOND), runStartedAt)).toEqual(at(7 * SECOND + SECOND_STEP));
  });

  it('makes an older task due when a later run starts, never in the middle of one', () => {
    // Every run until 30 minutes: the next one's start.
    expect(nextPollAt(15 * MINUTE, at(42 * SECOND), runStartedAt)).toEqual(at(MINUTE));
    // Backed off by 6 minutes at 40 minutes old: the first start at least that far away.
    expect(nextPollAt(40 * MINUTE, at(2 * SECOND), runStartedAt)).toEqual(at(7 * MINUTE));
  });

  it('counts from this poll when no run is polling (the worker’s first polls)', () => {
    expect(nextPollAt(15 * MINUTE, at(42 * SECOND))).toEqual(at(42 * SECOND));
  });
});

describe('pollTasksForAMinute', () => {
  it('replies within 15 s of the service finishing, for tasks that take 20 s, 45 s and 100 s', async () => {
    // Prepare: three tasks submitted 10 s into a minute whose run had nothing to do.
    const created = START + 10 * SECOND;
    const finishesAt = { a: created + 20 * SECOND, b: created + 45 * SECOND, c: created + 100 * SECOND };
    const w = world([task('a', created), task('b', created), task('c', created)], finishesAt);

    // Act: the runs of the next three minutes (the first starts 50 s after the tasks did).
    await w.everyMinute(START + MINUTE, 3);

    // Assess
    for (const [taskId, finished] of Object.entries(finishesAt)) {
      const replies = w.replies.get(taskId) ?? [];
      expect(replies).toHaveLength(1);
      expect((replies[0] ?? Infinity) - Math.max(finished, START + MINUTE)).toBeLessThanOrEqual(15 * SECOND);
    }
  });

  it('replies within a step of the finish, and polls a task only at its first step in its first 2 minutes', async () => {
    // Prepare: submitted just as a run starts; finishes 100 s later.
    const takes = 100 * SECOND;
    const w = world([task('a', START)], { a: START + takes });

    // Act
    await w.everyMinute(START, 3);

    // Assess: a poll at 0 and at every step until the one that finds it finished.
    const [reply] = w.replies.get('a') ?? [];
    expect((reply ?? Infinity) - (START + takes)).toBeLessThanOrEqual(FIRST_STEP);
    expect(w.polls.get('a')).toBe(Math.ceil(takes / FIRST_STEP) + 1);
  });

  it('ends at once when nothing is due before its minute is up', async () => {
    // Prepare: an empty store.
    const w = world([], {});

    // Act
    const summary = await w.run();

    // Assess
    expect(summary.passes).toBe(1);
    expect(w.naps).toEqual([]);
    expect(w.now()).toBe(START);
  });

  it('polls an older task once when a run starts, and does not stay up waiting for it', async () => {
    // Prepare: a task 15 minutes old, still running.
    const w = world([task('old', START - 15 * MINUTE)], {});

    // Act: three runs, a minute apart.
    await w.everyMinute(START, 3);

    // Assess: one poll a run, no nap in any.
    expect(w.polls.get('old')).toBe(3);
    expect(w.naps).toEqual([]);
    expect(w.store.byId.get('old')?.nextPollAt).toBe(new Date(START + 3 * MINUTE).toISOString());
  });

  it('starts no poll after its minute, so runs a minute apart poll a young task at its steps once', async () => {
    // Prepare: a task that never finishes, submitted as the first run starts.
    const w = world([task('a', START)], {});

    // Act: two runs; the second starts as the first's minute ends.
    await w.run();
    const firstRunPolls = w.polls.get('a') ?? 0;
    await w.everyMinute(START + MINUTE, 1);

    // Assess: a poll at every step of each run's minute, and none twice.
    expect(firstRunPolls).toBe(RUN_EVERY_MS / FIRST_STEP);
    expect(w.polls.get('a')).toBe((2 * RUN_EVERY_MS) / FIRST_STEP);
    expect(w.now()).toBeLessThan(START + 2 * MINUTE);
  });

  it('leaves a task to the run once the run has polled it: the worker’s first polls stop', async () => {
    // Prepare: a task that runs for minutes; a scheduled run polls it between the worker's 2nd and 3rd polls.
    const w = world([task('a', START)], {});
    let waits = 0;
    const sleep = async (ms: number) => {
      w.setNow(w.now() + ms);
      waits += 1;
      if (waits === 3) await pollUnlockTasks(w.pollingDeps());
    };

    // Act
    const finished = await pollSubmittedTask('a', { ...w.pollingDeps(), sleep }, EARLY_POLLS);

    // Assess: the worker's two polls and the run's; the task is the run's now, not due to the worker again.
    expect(finished).toBe(false);
    expect(w.polls.get('a')).toBe(3);
    expect(waits).toBe(3);
  });
});
