import { describe, expect, it } from 'vitest';
import type { NewUnlockTask } from '../../../src/domain/ports/index.ts';
import { createTestStore } from '../../support/store-support.ts';

const base: NewUnlockTask = {
  taskId: 'unlock-1',
  kind: 'email',
  teamId: 'T1',
  channelId: 'C1',
  threadTs: '1700000000.000100',
  requestedBy: 'U1',
  personnelIds: ['100001'],
  skipped: [],
};
const drafts: NewUnlockTask = {
  ...base,
  taskId: 'outreach-1',
  followUp: { kind: 'outreach', eventIds: { '100001': '9001' } },
};

describe('follow-up tasks (outreach drafts, LinkedIn activity) beside the unlock tasks', () => {
  it('are due with the unlock tasks, so the same poller takes them, and keep what they follow up', async () => {
    const { store, clock } = await createTestStore();
    await store.unlockTasks.create(base);
    const created = await store.unlockTasks.create(drafts);

    const due = await store.unlockTasks.due({ now: clock.now(), limit: 10 });

    expect(due.map((task) => task.taskId).sort()).toEqual(['outreach-1', 'unlock-1']);
    expect(created.followUp).toEqual(drafts.followUp);
  });

  it('are marked posted once, and stay out of the digest’s finished unlocks and the Home’s running ones', async () => {
    const { store, clock } = await createTestStore();
    const since = clock.now();
    await store.unlockTasks.create(base);
    await store.unlockTasks.create(drafts);
    expect((await store.unlockTasks.unfinishedForTeam('T1')).map((t) => t.taskId)).toEqual(['unlock-1']);

    const marks = await Promise.all([
      store.unlockTasks.markResultPosted('outreach-1', { owner: 'a', outcome: { status: 'completed' } }),
      store.unlockTasks.markResultPosted('outreach-1', { owner: 'b', outcome: { status: 'completed' } }),
    ]);
    await store.unlockTasks.markResultPosted('unlock-1', { owner: 'a', outcome: { status: 'completed' } });

    expect(marks.filter(Boolean)).toHaveLength(1);
    expect((await store.unlockTasks.listFinishedSince('T1', since)).map((t) => t.taskId)).toEqual([
      'unlock-1',
    ]);
    expect(await store.unlockTasks.due({ now: clock.now(), limit: 10 })).toEqual([]);
  });
});
