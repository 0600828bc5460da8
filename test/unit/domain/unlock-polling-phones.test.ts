import { describe, expect, it } from 'vitest';
import { pollDelayMs } from '../../../src/domain/poll-cadence.ts';
import { pollUnlockTasks, type UnlockPollingDeps } from '../../../src/domain/unlock-polling.ts';
import type { UnlockOutcome, UnlockResult, UnlockTaskProgress } from '../../../src/domain/unlock-result.ts';
import type { UnlockWaiting } from '../../../src/domain/unlock-waiting.ts';
import { createMemoryLogger } from '../../../src/platform/log.ts';
import { fakeUnlockTasks } from '../../support/fake-unlock-tasks.ts';
import type { UnlockKind, UnlockTask } from '../../../src/domain/ports/index.ts';

const START = new Date('2027-03-01T10:00:00Z');

function phoneTask(overrides: Partial<UnlockTask> = {}): UnlockTask {
  return {
    type: 'unlock-task',
    taskId: 'phone-1',
    kind: 'phone',
    teamId: 'T1',
    channelId: 'C1',
    threadTs: '1700000000.000001',
    requestedBy: 'U1',
    confirmationId: 'confirmation-1',
    personnelIds: ['21', '22', '23', '24'],
    skipped: [{ personnelId: '24', reason: 'already unlocked' }],
    createdAt: START.toISOString(),
    attempts: 0,
    nextPollAt: START.toISOString(),
    slackFailures: 0,
    expiresAt: 1,
    ...overrides,
  };
}

/** One phone task, the service answering `progress`, and a thread that records what it was given. */
function setup(task: UnlockTask, progress: UnlockTaskProgress) {
  const clock = () => START;
  const store = fakeUnlockTasks([task], clock);
  const asked: { kind: UnlockKind; taskId: string }[] = [];
  const replies: { taskId: string; result: UnlockResult }[] = [];
  const cards: { taskId: string; kind: UnlockKind; outcome: UnlockOutcome }[] = [];
  const waiting: { taskId: string; waiting: UnlockWaiting }[] = [];
  const order: string[] = [];
  const deps: UnlockPollingDeps = {
    tasks: store.repo,
    progress: (kind, taskId) => {
      asked.push({ kind, taskId });
      return Promise.resolve(progress);
    },
    thread: {
      postResult: (posted, result) => {
        order.push('reply');
        replies.push({ taskId: posted.taskId, result });
        return Promise.resolve();
      },
      postTimeout: () => {
        order.push('timeout');
        return Promise.resolve();
      },
      postAccountChanged: () => Promise.resolve(),
      updateCard: (updated, outcome) => {
        order.push('card');
        cards.push({ taskId: updated.taskId, kind: updated.kind, outcome });
        return Promise.resolve();
      },
      showWaiting: (shown, facts) => {
        order.push('waiting');
        waiting.push({ taskId: shown.taskId, waiting: facts });
        return Promise.resolve();
      },
    },
    logger: createMemoryLogger(),
    now: clock,
    sleep: async () => {},
  };
  return { deps, store, asked, replies, cards, waiting, order };
}

describe('pollUnlockTasks with a phone unlock', () => {
  it('posts one thread reply with the phone numbers and why the others have none, then updates the card', async () => {
    // Prepare
    const { deps, store, asked, replies, cards, order } = setup(phoneTask(), {
      taskStatus: 'completed',
      items: [
        { personnelId: '21', status: 'unlocked', value: '+44 20 7946 0001' },
        { personnelId: '22', status: 'failed', value: null, errorCode: 'PHONE_NOT_FOUND' },
        { personnelId: '23', status: 'unlocked', value: '+1 415 555 0123' },
      ],
    });

    // Act
    const summary = await pollUnlockTasks(deps);

    // Assess
    expect(asked).toEqual([{ kind: 'phone', taskId: 'phone-1' }]);
    expect(replies).toEqual([
      {
        taskId: 'phone-1',
        result: {
          kind: 'phone',
          status: 'completed',
          people: [
            { personnelId: '21', value: '+44 20 7946 0001' },
            { personnelId: '22', value: null, problem: 'no phone number found' },
            { personnelId: '23', value: '+1 415 555 0123' },
          ],
          skipped: [{ personnelId: '24', reason: 'already unlocked' }],
        },
      },
    ]);
    const outcome: UnlockOutcome = { status: 'completed', unlocked: 2, notUnlocked: 1, skipped: 1 };
    expect(cards).toEqual([{ taskId: 'phone-1', kind: 'phone', outcome }]);
    expect(order).toEqual(['reply', 'card']);
    expect(store.marks).toEqual([{ taskId: 'phone-1', outcome }]);
    expect(summary).toMatchObject({ polled: 1, posted: 1, rescheduled: 0, slackFailures: 0 });
  });

  it('says in the thread and on the card that a failed phone unlock found nothing', async () => {
    // Prepare
    const { deps, replies, cards } = setup(phoneTask({ personnelIds: ['21', '22'], skipped: [] }), {
      taskStatus: 'failed',
      items: [
        { personnelId: '21', status: 'failed', value: null, errorCode: 'TASK_FAILED' },
        { personnelId: '22', status: 'failed', value: null, errorCode: 'TASK_FAILED' },
      ],
    });

    // Act
    const summary = await pollUnlockTasks(deps);

    // Assess
    expect(replies).toEqual([
      {
        taskId: 'phone-1',
        result: {
          kind: 'phone',
          status: 'failed',
          people: [
            { personnelId: '21', value: null, problem: 'the unlock failed' },
            { personnelId: '22', value: null, problem: 'the unlock failed' },
          ],
          skipped: [],
        },
      },
    ]);
    expect(cards).toEqual([
      {
        taskId: 'phone-1',
        kind: 'phone',
        outcome: { status: 'failed', unlocked: 0, notUnlocked: 2, skipped: 0 },
      },
    ]);
    expect(summary.posted).toBe(1);
  });

  it('posts nothing and asks again later while the phone unlock is still running', async () => {
    // Prepare
    const { deps, store, replies, cards, waiting } = setup(phoneTask(), {
      taskStatus: 'processing',
      items: [{ personnelId: '21', status: 'processing', value: null }],
    });

    // Act
    const summary = await pollUnlockTasks(deps);

    // Assess
    expect(replies).toEqual([]);
    expect(cards).toEqual([]);
    // The card counts the contacts the service is unlocking: the four asked for less the one skipped.
    expect(waiting).toEqual([
      {
        taskId: 'phone-1',
        waiting: { contacts: 3, startedAgo: { unit: 'seconds', count: 0 }, expected: 'within-a-minute' },
      },
    ]);
    // A young task: due again at its next step.
    expect(store.byId.get('phone-1')).toMatchObject({
      attempts: 1,
      nextPollAt: new Date(START.getTime() + pollDelayMs(0)).toISOString(),
    });
    expect(summary.rescheduled).toBe(1);
  });
});
