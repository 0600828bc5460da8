import { describe, expect, it } from 'vitest';
import { nextDigestRun } from '../../../src/domain/digest.ts';
import { createTestStore } from '../../support/store-support.ts';

const action = { kind: 'event-unlock', eventId: '26855' };
const price = { credits: 2000, upTo: false };

describe('the App Home’s store queries', () => {
  it('lists a team’s confirmations that can still be confirmed, and no others', async () => {
    const { store, clock } = await createTestStore();
    const ask = (id: string, teamId = 'T1', expiresInSeconds = 900) =>
      store.confirmations.create({
        id,
        teamId,
        channelId: 'C1',
        requestedBy: 'U1',
        action,
        price,
        expiresInSeconds,
      });
    await ask('pending');
    await ask('other-team', 'T2');
    await ask('claimed');
    await store.confirmations.claim('claimed', { by: 'U1' });
    await ask('cancelled');
    await store.confirmations.cancel('cancelled', { by: 'U1' });
    await ask('lapsing', 'T1', 60);
    clock.advanceSeconds(61);

    const pending = await store.confirmations.pendingForTeam('T1');

    expect(pending.map((confirmation) => confirmation.id)).toEqual(['pending']);
  });

  it('lists a team’s unlock tasks whose result is not posted yet', async () => {
    const { store } = await createTestStore();
    const task = (taskId: string, teamId = 'T1') =>
      store.unlockTasks.create({
        taskId,
        kind: 'email',
        teamId,
        channelId: 'C1',
        threadTs: '1700000000.000100',
        requestedBy: 'U1',
        personnelIds: ['100001'],
        skipped: [],
      });
    await task('running');
    await task('elsewhere', 'T2');
    await task('done');
    await store.unlockTasks.markResultPosted('done', { owner: 'test', outcome: {} });

    const running = await store.unlockTasks.unfinishedForTeam('T1');

    expect(running.map((t) => t.taskId)).toEqual(['running']);
  });

  it('lists a team’s active digests, not disabled or deleted ones', async () => {
    const { store, clock } = await createTestStore();
    const digest = (channelId: string, teamId = 'T1') =>
      store.digestSubscriptions.put({
        teamId,
        channelId,
        time: '09:00',
        timeZone: 'UTC',
        filters: {},
        createdBy: 'U1',
        nextRunAt: nextDigestRun({ time: '09:00', timeZone: 'UTC' }, clock.now()),
      });
    await digest('C-active');
    await digest('C-other-team', 'T2');
    await digest('C-disabled');
    await store.digestSubscriptions.disable('T1', 'C-disabled', 'is_archived');
    await digest('C-deleted');
    await store.digestSubscriptions.delete('T1', 'C-deleted');

    const active = await store.digestSubscriptions.activeForTeam('T1');

    expect(active.map((d) => d.channelId)).toEqual(['C-active']);
  });
});
