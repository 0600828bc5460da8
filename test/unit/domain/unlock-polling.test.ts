import { describe, expect, it } from 'vitest';
import { SlackDeliveryError } from '../../../src/domain/slack-delivery.ts';
import {
  EVERY_RUN_FOR_MS,
  GIVE_UP_AFTER_MS,
  MAX_BACKOFF_MS,
  pollDelayMs,
  YOUNG_STEPS,
} from '../../../src/domain/poll-cadence.ts';
import { LEASE_MS, pollUnlockTasks, type UnlockPollingDeps } from '../../../src/domain/unlock-polling.ts';
import { type UnlockTaskProgress, unlockResultOf } from '../../../src/domain/unlock-result.ts';
import { createMemoryLogger } from '../../../src/platform/log.ts';
import { fakeUnlockTasks } from '../../support/fake-unlock-tasks.ts';
import type { UnlockTask } from '../../../src/domain/ports/index.ts';

const START = new Date('2027-03-01T10:00:00Z');

function unlockTask(taskId: string, overrides: Partial<UnlockTask> = {}): UnlockTask {
  return {
    type: 'unlock-task',
    taskId,
    kind: 'email',
    teamId: 'T1',
    channelId: 'C1',
    threadTs: `1700000000.${taskId.padStart(6, '0')}`,
    requestedBy: 'U1',
    personnelIds: ['11', '12'],
    skipped: [],
    createdAt: START.toISOString(),
    attempts: 0,
    nextPollAt: START.toISOString(),
    slackFailures: 0,
    expiresAt: 1,
    ...overrides,
  };
}

const done: UnlockTaskProgress = {
  taskStatus: 'completed',
  items: [
    { personnelId: '11', status: 'unlocked', value: 'a@x.test' },
    { personnelId: '12', status: 'failed', value: null, errorCode: 'EMAIL_NOT_FOUND' },
  ],
};

function setup(
  tasks: UnlockTask[],
  progress: (taskId: string) => Promise<UnlockTaskProgress> = () => Promise.resolve(done),
) {
  let now = START;
  const clock = () => now;
  const store = fakeUnlockTasks(tasks, clock);
  const posted: string[] = [];
  const timeouts: string[] = [];
  const accountChanged: string[] = [];
  const deps: UnlockPollingDeps = {
    tasks: store.repo,
    progress: (_kind, taskId) => progress(taskId),
    thread: {
      postResult: (task) => {
        posted.push(task.taskId);
        return Promise.resolve();
      },
      postTimeout: (task) => {
        timeouts.push(task.taskId);
        return Promise.resolve();
      },
      postAccountChanged: (task) => {
        accountChanged.push(task.taskId);
        return Promise.resolve();
      },
      updateCard: async () => {},
      showWaiting: async () => {},
    },
    logger: createMemoryLogger(),
    now: clock,
    sleep: async () => {},
  };
  return { deps, store, posted, timeouts, accountChanged, setNow: (date: Date) => (now = date) };
}

describe('pollDelayMs', () => {
  it('polls a young task at its steps, an older one at every run, then backs off up to its longest wait', () => {
    const youngUntil = YOUNG_STEPS.at(-1)?.untilAgeMs ?? 0;

    // Each young step, from its first moment to its last.
    let from = 0;
    for (const step of YOUNG_STEPS) {
      expect([from, step.untilAgeMs - 1].map(pollDelayMs)).toEqual([step.everyMs, step.everyMs]);
      from = step.untilAgeMs;
    }
    // Then no delay of its own (the next scheduled run polls it) until `EVERY_RUN_FOR_MS`.
    expect([youngUntil, EVERY_RUN_FOR_MS - 1].map(pollDelayMs)).toEqual([0, 0]);
    // Then a delay that only grows, to the longest, and stays there.
    const older = Array.from({ length: 60 }, (_, i) => pollDelayMs(EVERY_RUN_FOR_MS + i * 60_000));
    expect(older[0]).toBeGreaterThan(0);
    expect(older).toEqual([...older].sort((x, y) => x - y));
    expect(older.at(-1)).toBe(MAX_BACKOFF_MS);
    expect(pollDelayMs(GIVE_UP_AFTER_MS)).toBe(MAX_BACKOFF_MS);
  });
});

describe('unlockResultOf', () => {
  it('gives each person asked for the value or why not, and leaves the skipped ones to their own list', () => {
    // Act
    const result = unlockResultOf(
      unlockTask('1', {
        personnelIds: ['11', '12', '13'],
        skipped: [{ personnelId: '13', reason: 'already unlocked' }],
      }),
      done,
    );

    // Assess
    expect(result.people).toEqual([
      { personnelId: '11', value: 'a@x.test' },
      { personnelId: '12', value: null, problem: 'no email address found' },
    ]);
    expect(result.skipped).toHaveLength(1);
  });
});

describe('pollUnlockTasks', () => {
  it('stops a task submitted with another account’s key unpolled, and says so in its thread', async () => {
    // Prepare: the workspace's key is now account Y's; one task was submitted with X's, one with Y's.
    const asked: string[] = [];
    const { deps, store, posted, accountChanged } = setup(
      [unlockTask('x', { serviceAccount: 'acct-X' }), unlockTask('y', { serviceAccount: 'acct-Y' })],
      (taskId) => {
        asked.push(taskId);
        return Promise.resolve(done);
      },
    );

    // Act
    const summary = await pollUnlockTasks({ ...deps, accountId: 'acct-Y' });

    // Assess
    expect(asked).toEqual(['y']);
    expect(posted).toEqual(['y']);
    expect(accountChanged).toEqual(['x']);
    expect(summary).toMatchObject({ stopped: 1, posted: 1 });
    expect(store.stops).toEqual([{ taskId: 'x', reason: 'service key replaced' }]);
  });

  it('polls at most five tasks at once', async () => {
    // Prepare
    let inFlight = 0;
    let peak = 0;
    const { deps, posted } = setup(
      Array.from({ length: 12 }, (_, i) => unlockTask(String(i + 1))),
      async () => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        return done;
      },
    );

    // Act
    await pollUnlockTasks({ ...deps, concurrency: 50 });

    // Assess
    expect(peak).toBe(5);
    expect(posted).toHaveLength(12);
  });

  it('posts the result, then marks it posted, and posts nothing a second time', async () => {
    // Prepare
    const { deps, store, posted } = setup([unlockTask('1')]);
    const order: string[] = [];
    const markResultPosted = store.repo.markResultPosted;
    deps.tasks = {
      ...store.repo,
      markResultPosted: async (...args) => {
        order.push('mark');
        return markResultPosted(...args);
      },
    };
    deps.thread.postResult = (task) => {
      order.push('post');
      posted.push(task.taskId);
      return Promise.resolve();
    };

    // Act
    await pollUnlockTasks(deps);
    await pollUnlockTasks(deps);

    // Assess
    expect(order).toEqual(['post', 'mark']);
    expect(posted).toEqual(['1']);
  });

  it('leaves a reply its run died before posting to a later run, once the lease runs out, and posts it once', async () => {
    // Prepare: the first run stops for good inside the post (its Lambda ended there).
    const { deps, posted, setNow } = setup([unlockTask('1')]);
    const { thread } = deps;
    deps.thread = { ...thread, postResult: () => new Promise<void>(() => {}) };
    void pollUnlockTasks(deps);
    await new Promise((resolve) => setTimeout(resolve, 10));
    deps.thread = thread;

    // Act: a run while the lease holds, then one after it ran out, then another.
    const whileLeased = await pollUnlockTasks(deps);
    setNow(new Date(START.getTime() + LEASE_MS));
    const afterLease = await pollUnlockTasks(deps);
    const later = await pollUnlockTasks(deps);

    // Assess
    expect(whileLeased.posted).toBe(0);
    expect(afterLease.posted).toBe(1);
    expect(later.polled).toBe(0);
    expect(posted).toEqual(['1']);
  });

  it('does not count a reply another run marked first', async () => {
    // Prepare
    const { deps, store, posted } = setup([unlockTask('1')]);
    deps.tasks = { ...store.repo, markResultPosted: () => Promise.resolve(false) };

    // Act
    const summary = await pollUnlockTasks(deps);

    // Assess
    expect(posted).toEqual(['1']);
    expect(summary.posted).toBe(0);
    expect(summary.skipped).toBe(1);
  });

  it('keeps going when one task’s poll or post fails', async () => {
    // Prepare
    const { deps, store, posted } = setup([unlockTask('1'), unlockTask('2'), unlockTask('3')], (taskId) =>
      taskId === '1' ? Promise.reject(new Error('service down')) : Promise.resolve(done),
    );
    deps.thread.postResult = (task) => {
      if (task.taskId === '2') {
        return Promise.reject(new SlackDeliveryError('is_archived', { retryable: false }));
      }
      posted.push(task.taskId);
      return Promise.resolve();
    };

    // Act
    const summary = await pollUnlockTasks(deps);

    // Assess
    expect(posted).toEqual(['3']);
    expect(store.failures).toEqual([{ taskId: '2', reason: 'is_archived' }]);
    expect(store.byId.get('1')?.attempts).toBe(1);
    expect(summary).toMatchObject({ posted: 1, rescheduled: 1, slackFailures: 1 });
  });

  it('retries a rate-limited post after Retry-After, and posts once', async () => {
    // Prepare
    const { deps, posted } = setup([unlockTask('1')]);
    const waits: number[] = [];
    let calls = 0;
    deps.sleep = (ms) => {
      waits.push(ms);
      return Promise.resolve();
    };
    deps.thread.postResult = (task) => {
      calls += 1;
      if (calls === 1) {
        return Promise.reject(new SlackDeliveryError('ratelimited', { retryable: true, retryAfterMs: 3000 }));
      }
      posted.push(task.taskId);
      return Promise.resolve();
    };

    // Act
    await pollUnlockTasks(deps);

    // Assess
    expect(posted).toEqual(['1']);
    expect(Math.max(...waits)).toBeGreaterThan(2000);
  });

  it('gives up after 24 h with one timeout message', async () => {
    // Prepare
    const { deps, timeouts, posted, setNow } = setup([unlockTask('1')], () =>
      Promise.resolve({ taskStatus: 'processing', items: [] }),
    );
    setNow(new Date(START.getTime() + GIVE_UP_AFTER_MS));

    // Act
    await pollUnlockTasks(deps);
    setNow(new Date(START.getTime() + 2 * GIVE_UP_AFTER_MS));
    await pollUnlockTasks(deps);

    // Assess
    expect(timeouts).toEqual(['1']);
    expect(posted).toEqual([]);
  });

  it('starts no task once the Lambda’s remaining time is short, leaving them due', async () => {
    // Prepare
    const { deps, posted, store } = setup([unlockTask('1'), unlockTask('2')]);
    let remaining = 25_000;
    deps.progress = () => {
      remaining -= 10_000;
      return Promise.resolve(done);
    };

    // Act
    const summary = await pollUnlockTasks({ ...deps, concurrency: 1, remainingMs: () => remaining });

    // Assess
    expect(summary.outOfTime).toBe(true);
    expect(posted).toEqual(['1']);
    expect(store.byId.get('2')?.leaseOwner).toBeUndefined();
  });
});
