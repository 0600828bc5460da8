import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../../src/store/keys.ts';
import type { NewUnlockTask } from '../../../src/domain/ports/index.ts';
import { createTestStore } from '../../support/store-support.ts';

function unlockTask(overrides: Partial<NewUnlockTask> = {}): NewUnlockTask {
  return {
    taskId: 'task-1',
    kind: 'email',
    teamId: 'T1',
    channelId: 'C1',
    threadTs: '1700000000.000100',
    requestedBy: 'U1',
    personnelIds: ['p1', 'p2'],
    skipped: [{ personnelId: 'p3', reason: 'already unlocked' }],
    ...overrides,
  };
}

describe('unlock tasks', () => {
  it('are due as soon as they are created, with a TTL a week out', async () => {
    const { store, clock, client, tableName } = await createTestStore();

    const created = await store.unlockTasks.create(unlockTask({ confirmationId: 'conf-1' }));

    expect(await store.unlockTasks.due({ now: clock.now(), limit: 10 })).toEqual([created]);
    expect(created).toMatchObject({ attempts: 0, nextPollAt: clock.now().toISOString(), slackFailures: 0 });
    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.unlockTask('task-1') }),
    );
    expect(Item?.expiresAt).toBe(Math.floor(clock.now().getTime() / 1000) + 7 * 24 * 3600);
  });

  it('are created once: a retried create returns the stored task unchanged', async () => {
    const { store, clock } = await createTestStore();
    const first = await store.unlockTasks.create(unlockTask());
    clock.advanceSeconds(30);

    const again = await store.unlockTasks.create(unlockTask({ personnelIds: ['other'] }));

    expect(again).toEqual(first);
  });

  it('come out of the due index only when due, earliest first, up to the limit', async () => {
    const { store, clock } = await createTestStore();
    const start = clock.now();
    for (const [taskId, pollInSeconds] of [
      ['later', 120],
      ['soonest', 30],
      ['soon', 60],
      ['not-yet', 600],
    ] as const) {
      await store.unlockTasks.create(unlockTask({ taskId }));
      await store.unlockTasks.lease(taskId, { owner: 'w', leaseMs: 1000 });
      await store.unlockTasks.reschedule(taskId, {
        owner: 'w',
        nextPollAt: new Date(start.getTime() + pollInSeconds * 1000),
        attempts: 1,
      });
    }
    const at = new Date(start.getTime() + 120_000);

    const due = await store.unlockTasks.due({ now: at, limit: 10 });
    const firstTwo = await store.unlockTasks.due({ now: at, limit: 2 });

    expect(due.map((task) => task.taskId)).toEqual(['soonest', 'soon', 'later']);
    expect(firstTwo.map((task) => task.taskId)).toEqual(['soonest', 'soon']);
  });

  it('are leased by one of two concurrent pollers', async () => {
    const { store } = await createTestStore();
    await store.unlockTasks.create(unlockTask());

    const [a, b] = await Promise.all([
      store.unlockTasks.lease('task-1', { owner: 'worker-a', leaseMs: 60_000 }),
      store.unlockTasks.lease('task-1', { owner: 'worker-b', leaseMs: 60_000 }),
    ]);

    expect([a, b].filter((lease) => lease !== null)).toHaveLength(1);
    expect((a ?? b)?.leaseOwner).toBe(a ? 'worker-a' : 'worker-b');
  });

  it('are not due while leased, and can be leased again once the lease has run out', async () => {
    const { store, clock } = await createTestStore();
    await store.unlockTasks.create(unlockTask());
    await store.unlockTasks.lease('task-1', { owner: 'crashed-worker', leaseMs: 60_000 });
    expect(await store.unlockTasks.due({ now: clock.now(), limit: 10 })).toEqual([]);
    expect(await store.unlockTasks.lease('task-1', { owner: 'worker-b', leaseMs: 60_000 })).toBeNull();
    clock.advanceSeconds(60);

    const due = await store.unlockTasks.due({ now: clock.now(), limit: 10 });
    const lease = await store.unlockTasks.lease('task-1', { owner: 'worker-b', leaseMs: 60_000 });

    expect(due.map((task) => task.taskId)).toEqual(['task-1']);
    expect(lease?.leaseOwner).toBe('worker-b');
  });

  it('are rescheduled only by the lease holder, which releases the lease and moves the next poll', async () => {
    const { store, clock } = await createTestStore();
    await store.unlockTasks.create(unlockTask());
    await store.unlockTasks.lease('task-1', { owner: 'worker-a', leaseMs: 60_000 });
    const nextPollAt = new Date(clock.now().getTime() + 30_000);

    const byStranger = await store.unlockTasks.reschedule('task-1', {
      owner: 'worker-b',
      nextPollAt,
      attempts: 1,
    });
    const byOwner = await store.unlockTasks.reschedule('task-1', {
      owner: 'worker-a',
      nextPollAt,
      attempts: 1,
    });

    expect(byStranger).toBe(false);
    expect(byOwner).toBe(true);
    const task = await store.unlockTasks.get('task-1');
    expect(task).toMatchObject({ attempts: 1, nextPollAt: nextPollAt.toISOString() });
    expect(task?.leaseOwner).toBeUndefined();
    expect(await store.unlockTasks.due({ now: clock.now(), limit: 10 })).toEqual([]);
    expect(await store.unlockTasks.due({ now: nextPollAt, limit: 10 })).toHaveLength(1);
  });

  it('are marked posted by exactly one of several concurrent callers, and are never due again', async () => {
    const { store, clock } = await createTestStore();
    await store.unlockTasks.create(unlockTask());

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        store.unlockTasks.markResultPosted('task-1', { owner: `worker-${index}`, outcome: { unlocked: 2 } }),
      ),
    );

    expect(results.filter(Boolean)).toHaveLength(1);
    const farFuture = new Date(clock.now().getTime() + 48 * 3600_000);
    expect(await store.unlockTasks.due({ now: farFuture, limit: 10 })).toEqual([]);
    expect(await store.unlockTasks.lease('task-1', { owner: 'late', leaseMs: 1000 })).toBeNull();
    expect((await store.unlockTasks.get('task-1'))?.outcome).toEqual({ unlocked: 2 });
    expect(await store.unlockTasks.markResultPosted('missing', { owner: 'w', outcome: null })).toBe(false);
  });

  it('are stopped without a result once, unless their result was posted', async () => {
    const { store, client, tableName, clock } = await createTestStore();
    await store.unlockTasks.create(unlockTask({ taskId: 'open' }));
    await store.unlockTasks.create(unlockTask({ taskId: 'posted' }));
    await store.unlockTasks.markResultPosted('posted', { owner: 'w', outcome: { unlocked: 2 } });

    const stops = await Promise.all([
      store.unlockTasks.stop('open', 'app uninstalled'),
      store.unlockTasks.stop('open', 'app uninstalled'),
    ]);
    const postedStop = await store.unlockTasks.stop('posted', 'app uninstalled');
    const unknownStop = await store.unlockTasks.stop('missing', 'app uninstalled');

    expect([stops.filter(Boolean).length, postedStop, unknownStop]).toEqual([1, false, false]);
    const raw = async (taskId: string) =>
      (await client.send(new GetCommand({ TableName: tableName, Key: keys.unlockTask(taskId) }))).Item;
    expect(await raw('open')).toMatchObject({
      stoppedAt: clock.now().toISOString(),
      stoppedReason: 'app uninstalled',
    });
    expect(await raw('posted')).not.toHaveProperty('stoppedAt');
    expect((await store.unlockTasks.get('posted'))?.outcome).toEqual({ unlocked: 2 });
  });

  it('once stopped, are never due, leased, rescheduled or posted again, not even by their lease holder', async () => {
    const { store, clock } = await createTestStore();
    await store.unlockTasks.create(unlockTask());
    await store.unlockTasks.lease('task-1', { owner: 'worker-a', leaseMs: 60_000 });

    await store.unlockTasks.stop('task-1', 'app uninstalled');

    const farFuture = new Date(clock.now().getTime() + 48 * 3600_000);
    expect(await store.unlockTasks.due({ now: farFuture, limit: 10 })).toEqual([]);
    expect(await store.unlockTasks.unfinishedForTeam('T1', { followUps: true })).toEqual([]);
    expect(
      await store.unlockTasks.reschedule('task-1', {
        owner: 'worker-a',
        nextPollAt: clock.now(),
        attempts: 1,
      }),
    ).toBe(false);
    expect(
      await store.unlockTasks.markResultPosted('task-1', { owner: 'worker-a', outcome: { unlocked: 2 } }),
    ).toBe(false);
    clock.advanceSeconds(120);
    expect(await store.unlockTasks.lease('task-1', { owner: 'worker-b', leaseMs: 60_000 })).toBeNull();
    expect(await store.unlockTasks.due({ now: farFuture, limit: 10 })).toEqual([]);
    expect(await store.unlockTasks.listFinishedSince('T1', new Date(0))).toEqual([]);
  });

  it('open for a team are listed with their follow-ups when asked, without them for the Home', async () => {
    const { store } = await createTestStore();
    await store.unlockTasks.create(unlockTask({ taskId: 'unlock' }));
    await store.unlockTasks.create(unlockTask({ taskId: 'drafts', followUp: { kind: 'linkedin' } }));
    await store.unlockTasks.create(unlockTask({ taskId: 'posted' }));
    await store.unlockTasks.create(unlockTask({ taskId: 'other-team', teamId: 'T2' }));
    await store.unlockTasks.markResultPosted('posted', { owner: 'w', outcome: { unlocked: 1 } });

    const all = await store.unlockTasks.unfinishedForTeam('T1', { followUps: true });
    const unlocks = await store.unlockTasks.unfinishedForTeam('T1');

    expect(all.map((task) => task.taskId).sort()).toEqual(['drafts', 'unlock']);
    expect(unlocks.map((task) => task.taskId)).toEqual(['unlock']);
  });

  it('count the failures to post to Slack and keep the last reason', async () => {
    const { store } = await createTestStore();
    await store.unlockTasks.create(unlockTask());

    await store.unlockTasks.recordSlackFailure('task-1', 'channel_not_found');
    await store.unlockTasks.recordSlackFailure('task-1', 'not_in_channel');

    const task = await store.unlockTasks.get('task-1');
    expect(task?.slackFailures).toBe(2);
    expect(task?.lastSlackFailure?.reason).toBe('not_in_channel');
  });

  it('that finished in the window are listed per team with their channel and thread', async () => {
    const { store, clock } = await createTestStore();
    const windowStart = clock.now();
    await store.unlockTasks.create(unlockTask({ taskId: 'old' }));
    await store.unlockTasks.create(
      unlockTask({ taskId: 'new', kind: 'phone', threadTs: '1700000000.000200' }),
    );
    await store.unlockTasks.create(unlockTask({ taskId: 'other-team', teamId: 'T2' }));
    await store.unlockTasks.create(unlockTask({ taskId: 'still-running' }));
    clock.advanceSeconds(-60);
    await store.unlockTasks.markResultPosted('old', { owner: 'w', outcome: { unlocked: 1 } });
    clock.advanceSeconds(3600);
    await store.unlockTasks.markResultPosted('new', { owner: 'w', outcome: { unlocked: 2 } });
    await store.unlockTasks.markResultPosted('other-team', { owner: 'w', outcome: { unlocked: 3 } });

    const finished = await store.unlockTasks.listFinishedSince('T1', windowStart);

    expect(finished).toEqual([
      expect.objectContaining({
        taskId: 'new',
        kind: 'phone',
        channelId: 'C1',
        threadTs: '1700000000.000200',
        outcome: { unlocked: 2 },
      }),
    ]);
  });
});
