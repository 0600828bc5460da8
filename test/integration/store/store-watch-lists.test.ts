import { describe, expect, it } from 'vitest';
import type { WatchAccountInput } from '../../../src/domain/ports/index.ts';
import { readWatchList } from '../../../src/domain/watch/index.ts';
import { createTestStore } from '../../support/store-support.ts';

const acme: WatchAccountInput = { key: 'name:acme', label: 'Acme', kind: 'target' };
const initech: WatchAccountInput = { key: 'name:initech', label: 'Initech', kind: 'competitor' };
const show = {
  eventId: 'E1',
  name: 'Pack Expo',
  dateStart: '2031-06-01',
  dateEnd: '2031-06-03',
  city: 'Berlin',
};

describe('watch lists', () => {
  it('import 1,000 accounts at once and are due for a check at once', async () => {
    const { store, clock } = await createTestStore();
    const lines = Array.from({ length: 1000 }, (_, index) => `Company ${index}`).join('\n');
    const reading = readWatchList(lines);
    if (!reading.ok) throw new Error('not read');

    const result = await store.watchLists.addAccounts('T1', 'C1', reading.accounts, 'U1');

    expect(result.ok && result.added).toHaveLength(1000);
    const all = await store.watchLists.allAccounts('T1', 'C1');
    expect(all).toHaveLength(1000);
    expect(all.every((account) => account.resolution === 'pending' && account.told === undefined)).toBe(true);
    expect(await store.watchLists.dueIn('T1', { now: clock.now(), limit: 10 })).toMatchObject([
      { teamId: 'T1', channelId: 'C1', status: 'on', budgetCredits: 0 },
    ]);
    expect((await store.scheduledWork.list()).map((workspace) => workspace.teamId)).toEqual(['T1']);
  });

  it('refuse an import that would watch more than 1,000 accounts, writing none of it', async () => {
    const { store } = await createTestStore();
    await store.watchLists.addAccounts('T1', 'C1', [acme, initech], 'U1');
    const many = Array.from({ length: 999 }, (_, index) => ({
      key: `name:company ${index}`,
      label: `Company ${index}`,
      kind: 'target' as const,
    }));

    const result = await store.watchLists.addAccounts('T1', 'C1', many, 'U1');

    expect(result).toEqual({ ok: false, reason: 'too-many', watched: 2, adding: 999 });
    expect(await store.watchLists.allAccounts('T1', 'C1')).toHaveLength(2);
  });

  it('keep an account’s look-ups and told state when it is added again, its kind as now given', async () => {
    const { store } = await createTestStore();
    await store.watchLists.addAccounts('T1', 'C1', [acme], 'U1');
    await store.watchLists.saveLookup('T1', 'C1', acme.key, {
      resolution: 'resolved',
      exhibitorIds: ['X1'],
      told: [show],
    });

    const again = await store.watchLists.addAccounts('T1', 'C1', [{ ...acme, kind: 'competitor' }], 'U2');

    expect(again.ok && again.added).toEqual([]);
    expect(await store.watchLists.account('T1', 'C1', acme.key)).toMatchObject({
      kind: 'competitor',
      resolution: 'resolved',
      exhibitorIds: ['X1'],
      told: [show],
      addedBy: 'U1',
    });
  });

  it('are apart per workspace: another team’s channel with the same id sees and changes nothing', async () => {
    const { store } = await createTestStore();
    await store.watchLists.addAccounts('T1', 'C1', [acme], 'U1');
    await store.watchLists.setBudget('T1', 'C1', 500, 'U1');

    expect(await store.watchLists.settings('T2', 'C1')).toBeNull();
    expect(await store.watchLists.allAccounts('T2', 'C1')).toEqual([]);
    expect(await store.watchLists.removeAccount('T2', 'C1', acme.key)).toBe(false);
    expect(
      await store.watchLists.saveLookup('T2', 'C1', acme.key, {
        resolution: 'resolved',
        exhibitorIds: [],
        told: [],
      }),
    ).toBe(false);
    expect(await store.watchLists.setMuted('T2', 'C1', acme.key, true)).toBe(false);
    expect(await store.watchLists.setStatus('T2', 'C1', 'off')).toBeNull();
    expect(await store.watchLists.claimCheck('T2', 'C1', 'check-1')).toMatchObject({ slice: 0 });
    expect(await store.watchLists.claimCheck('T1', 'C1', 'check-1')).toMatchObject({ slice: 0 });

    const untouched = await store.watchLists.account('T1', 'C1', acme.key);
    expect(untouched?.muted).toBe(false);
    expect(untouched?.told).toBeUndefined();
    expect(await store.watchLists.settings('T1', 'C1')).toMatchObject({ status: 'on', budgetCredits: 500 });
    expect(await store.watchLists.accounts('T2', 'C1', { limit: 10 })).toEqual({
      accounts: [],
      cursor: null,
    });
  });

  it('do not bring back a removed account when a check saves what it found', async () => {
    const { store } = await createTestStore();
    await store.watchLists.addAccounts('T1', 'C1', [acme], 'U1');

    expect(await store.watchLists.removeAccount('T1', 'C1', acme.key)).toBe(true);
    const saved = await store.watchLists.saveLookup('T1', 'C1', acme.key, {
      resolution: 'resolved',
      exhibitorIds: ['X1'],
      told: [show],
    });

    expect(saved).toBe(false);
    expect(await store.watchLists.account('T1', 'C1', acme.key)).toBeNull();
  });

  it('page through accounts in key order', async () => {
    const { store } = await createTestStore();
    const inputs = ['a', 'b', 'c', 'd', 'e'].map((letter) => ({
      key: `name:${letter}`,
      label: letter,
      kind: 'target' as const,
    }));
    await store.watchLists.addAccounts('T1', 'C1', inputs, 'U1');

    const first = await store.watchLists.accounts('T1', 'C1', { limit: 2 });
    const second = await store.watchLists.accounts('T1', 'C1', { limit: 2, cursor: first.cursor });
    const last = await store.watchLists.accounts('T1', 'C1', { limit: 2, cursor: second.cursor });

    expect([first, second, last].map((page) => page.accounts.map((account) => account.label))).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e'],
    ]);
    expect(last.cursor).toBeNull();
  });
});

/** Any claim owner token (the store makes a fresh one per claim). */
const anyOwner: unknown = expect.any(String);

describe('watch checks', () => {
  it('are claimed once: a re-delivered check gets no claim', async () => {
    const { store } = await createTestStore();

    const first = await store.watchLists.claimCheck('T1', 'C1', 'rev-3@2031-05-14T10');
    const again = await store.watchLists.claimCheck('T1', 'C1', 'rev-3@2031-05-14T10');

    expect(first).toEqual({ owner: anyOwner, slice: 0, paidLookups: 0 });
    expect(again).toBeNull();
  });

  it('are given back only by their owner: then the same check id can be claimed again', async () => {
    // Prepare
    const { store } = await createTestStore();
    const claim = await store.watchLists.claimCheck('T1', 'C1', 'rev-3@2031-05-14T10');
    if (claim === null) throw new Error('the first claim was refused');

    // Act
    await store.watchLists.releaseCheck('T1', 'C1', 'rev-3@2031-05-14T10', 'someone-else');
    const whileHeld = await store.watchLists.claimCheck('T1', 'C1', 'rev-3@2031-05-14T10');
    await store.watchLists.releaseCheck('T1', 'C1', 'rev-3@2031-05-14T10', claim.owner);
    const afterRelease = await store.watchLists.claimCheck('T1', 'C1', 'rev-3@2031-05-14T10');

    // Assess
    expect(whileHeld).toBeNull();
    expect(afterRelease).toEqual({ owner: anyOwner, slice: 1, paidLookups: 0 });
  });

  it('run a slice at a time: the next slice once the last handed on, each once, nothing after the check is done', async () => {
    // Prepare
    const { store } = await createTestStore();
    const id = 'rev-3@2031-05-14T10';
    const first = await store.watchLists.claimCheck('T1', 'C1', id, null);
    if (first === null) throw new Error('the first slice was refused');

    // Act
    const earlyNext = await store.watchLists.claimCheck('T1', 'C1', id, 1);
    await store.watchLists.endSlice('T1', 'C1', id, first.owner, { next: 'more', paidLookups: 0 });
    const hourlyRunMeanwhile = await store.watchLists.claimCheck('T1', 'C1', id, null);
    const second = await store.watchLists.claimCheck('T1', 'C1', id, 1);
    const secondAgain = await store.watchLists.claimCheck('T1', 'C1', id, 1);
    await store.watchLists.endSlice('T1', 'C1', id, second?.owner ?? '', { next: 'done', paidLookups: 0 });
    const afterDone = await store.watchLists.claimCheck('T1', 'C1', id, 2);

    // Assess
    expect(earlyNext).toBeNull();
    expect(hourlyRunMeanwhile).toBeNull();
    expect(second).toEqual({ owner: anyOwner, slice: 1, paidLookups: 0 });
    expect(secondAgain).toBeNull();
    expect(afterDone).toBeNull();
  });

  it('are taken over once a slice’s lease has run out (its holder died), by its re-delivery or the hourly run', async () => {
    // Prepare
    const { store, clock } = await createTestStore();
    const id = 'rev-3@2031-05-14T10';
    await store.watchLists.claimCheck('T1', 'C1', id, 2);
    const handedOn = await store.watchLists.claimCheck('T1', 'C1', 'rev-4@2031-05-14T10', null);
    await store.watchLists.endSlice('T1', 'C1', 'rev-4@2031-05-14T10', handedOn?.owner ?? '', {
      next: 'more',
      paidLookups: 0,
    });

    // Act
    const whileLeased = await store.watchLists.claimCheck('T1', 'C1', id, 2);
    clock.advanceSeconds(16 * 60);
    const redelivered = await store.watchLists.claimCheck('T1', 'C1', id, 2);
    const continuationNeverCame = await store.watchLists.claimCheck('T1', 'C1', 'rev-4@2031-05-14T10', null);

    // Assess
    expect(whileLeased).toBeNull();
    expect(redelivered).toEqual({ owner: anyOwner, slice: 2, paidLookups: 0 });
    expect(continuationNeverCame).toEqual({ owner: anyOwner, slice: 1, paidLookups: 0 });
  });

  it('list a team’s watches that are on, from that team’s part of the index only', async () => {
    // Prepare
    const { store } = await createTestStore();
    await store.watchLists.addAccounts('T1', 'C1', [acme], 'U1');
    await store.watchLists.addAccounts('T1', 'C2', [acme], 'U1');
    await store.watchLists.addAccounts('T2', 'C1', [acme], 'U1');
    await store.watchLists.setStatus('T1', 'C2', 'off');

    // Act
    const on = await store.watchLists.onForTeam('T1');

    // Assess
    expect(on.map((watch) => [watch.teamId, watch.channelId])).toEqual([['T1', 'C1']]);
  });

  it('keep where a name not found was searched, and clear it once the name is found', async () => {
    // Prepare
    const { store } = await createTestStore();
    await store.watchLists.addAccounts('T1', 'C1', [acme], 'U1');
    const nameSearch = { fullOn: '2031-05-14', eventIds: ['E1', 'E2'] };

    // Act
    await store.watchLists.saveLookup('T1', 'C1', acme.key, {
      resolution: 'not-found',
      exhibitorIds: [],
      told: [],
      nameSearch,
    });
    const notFound = await store.watchLists.account('T1', 'C1', acme.key);
    await store.watchLists.saveLookup('T1', 'C1', acme.key, {
      resolution: 'resolved',
      exhibitorIds: ['4100'],
      told: [],
    });
    const found = await store.watchLists.account('T1', 'C1', acme.key);

    // Assess
    expect(notFound?.nameSearch).toEqual(nameSearch);
    expect(found).not.toHaveProperty('nameSearch');
  });

  it('move the next check a day on, unless the watch changed during the check', async () => {
    const { store, clock } = await createTestStore('2031-05-14T10:00:00Z');
    await store.watchLists.addAccounts('T1', 'C1', [acme], 'U1');
    const read = await store.watchLists.settings('T1', 'C1');
    if (!read) throw new Error('no settings');
    const tomorrow = new Date('2031-05-15T10:00:00Z');

    const done = await store.watchLists.checked(read, { checkedAt: clock.now(), nextCheckAt: tomorrow });
    expect(done).toMatchObject({
      lastCheckAt: '2031-05-14T10:00:00.000Z',
      nextCheckAt: tomorrow.toISOString(),
    });
    expect(await store.watchLists.dueIn('T1', { now: clock.now(), limit: 10 })).toEqual([]);

    clock.advanceSeconds(60);
    const changedMeanwhile = await store.watchLists.settings('T1', 'C1');
    await store.watchLists.addAccounts('T1', 'C1', [initech], 'U1');
    await store.watchLists.checked(changedMeanwhile ?? read, {
      checkedAt: clock.now(),
      nextCheckAt: tomorrow,
    });
    expect(await store.watchLists.dueIn('T1', { now: clock.now(), limit: 10 })).toHaveLength(1);
  });

  it('stop being due while the watch is off, and are due at once when it is on again', async () => {
    const { store, clock } = await createTestStore();
    await store.watchLists.addAccounts('T1', 'C1', [acme], 'U1');

    await store.watchLists.setStatus('T1', 'C1', 'off');
    await store.watchLists.addAccounts('T1', 'C1', [initech], 'U1');
    expect(await store.watchLists.due({ now: clock.now(), limit: 10 })).toEqual([]);

    clock.advanceSeconds(60);
    await store.watchLists.setStatus('T1', 'C1', 'on');
    expect(await store.watchLists.due({ now: clock.now(), limit: 10 })).toMatchObject([{ channelId: 'C1' }]);
  });
});

describe('a watch’s monthly budget', () => {
  it('lets paid look-ups spend only up to the budget, and gives back what an empty search did not spend', async () => {
    const { store } = await createTestStore();
    await store.watchLists.setBudget('T1', 'C1', 100, 'U1');
    const spend = { month: '2031-05', credits: 50, budget: 100 };

    const taken = [
      await store.watchLists.reserveSpend('T1', 'C1', spend),
      await store.watchLists.reserveSpend('T1', 'C1', spend),
      await store.watchLists.reserveSpend('T1', 'C1', spend),
    ];
    await store.watchLists.releaseSpend('T1', 'C1', { month: '2031-05', credits: 50 });

    expect(taken).toEqual([true, true, false]);
    expect(await store.watchLists.settings('T1', 'C1')).toMatchObject({
      spentMonth: '2031-05',
      spentCredits: 50,
    });
    expect(await store.watchLists.reserveSpend('T1', 'C1', { ...spend, month: '2031-06' })).toBe(true);
    expect(await store.watchLists.settings('T1', 'C1')).toMatchObject({
      spentMonth: '2031-06',
      spentCredits: 50,
    });
  });

  it('spends nothing at budget 0, nor on a budget changed since it was read', async () => {
    const { store } = await createTestStore();
    await store.watchLists.addAccounts('T1', 'C1', [acme], 'U1');

    expect(
      await store.watchLists.reserveSpend('T1', 'C1', { month: '2031-05', credits: 50, budget: 0 }),
    ).toBe(false);
    await store.watchLists.setBudget('T1', 'C1', 100, 'U1');
    await store.watchLists.setBudget('T1', 'C1', 0, 'U1');
    expect(
      await store.watchLists.reserveSpend('T1', 'C1', { month: '2031-05', credits: 50, budget: 100 }),
    ).toBe(false);
    expect(await store.watchLists.settings('T1', 'C1')).toMatchObject({ spentCredits: 0 });
  });
});

describe('a workspace’s paid look-up of an account in a month', () => {
  const claimOf = (
    confirmationId: string,
    over: { teamId?: string; channelId?: string; month?: string } = {},
  ) => ({
    teamId: 'T1',
    channelId: 'C1',
    key: acme.key,
    month: '2031-05',
    confirmationId,
    ...over,
  });

  it('is taken by one claim of all the workspace’s channels at once, and outlives the account and the month', async () => {
    const { store, clock } = await createTestStore('2031-05-31T23:59:00Z');
    await store.watchLists.addAccounts('T1', 'C1', [acme], 'U1');

    const held = await Promise.all(
      ['C1', 'C2', 'C3', 'C1', 'C2'].map((channelId, index) =>
        store.watchLists.claimPaidLookup(claimOf(`conf-${index}`, { channelId })),
      ),
    );
    await store.watchLists.removeAccount('T1', 'C1', acme.key);
    clock.advanceSeconds(3600);

    const winners = held.filter((guard, index) => guard.confirmationId === `conf-${index}`);
    expect(winners).toHaveLength(1);
    expect(new Set(held.map((guard) => guard.confirmationId)).size).toBe(1);
    const kept = await store.watchLists.paidLookup('T1', acme.key, '2031-05');
    expect(kept).toMatchObject({
      teamId: 'T1',
      key: acme.key,
      month: '2031-05',
      confirmationId: winners[0]?.confirmationId,
    });
    expect(kept?.expiresAt).toBeGreaterThanOrEqual(Date.parse('2031-05-31T23:59:00Z') / 1000 + 400 * 86_400);
    expect(
      (await store.watchLists.claimPaidLookup(claimOf('later', { month: '2031-05' }))).confirmationId,
    ).not.toBe('later');
    expect(
      (await store.watchLists.claimPaidLookup(claimOf('june', { month: '2031-06' }))).confirmationId,
    ).toBe('june');
  });

  it('is apart per workspace: another team looks the same name up that month on its own claim', async () => {
    const { store } = await createTestStore();
    await store.watchLists.claimPaidLookup(claimOf('team-1'));

    const other = await store.watchLists.claimPaidLookup(claimOf('team-2', { teamId: 'T2' }));
    await store.watchLists.paidLookupFound(claimOf('team-2', { teamId: 'T2' }), [
      { id: 'X1', companyName: 'Acme', domain: null, website: null, country: null },
    ]);

    expect(other.confirmationId).toBe('team-2');
    expect(await store.watchLists.paidLookup('T1', acme.key, '2031-05')).not.toHaveProperty('found');
    expect(await store.watchLists.paidLookup('T2', acme.key, '2031-05')).toMatchObject({
      found: [{ id: 'X1' }],
    });
  });

  it('keeps a find from its own look-up only, and is given back only by it, only when it found nothing', async () => {
    const { store } = await createTestStore();
    const acmeRecord = { id: 'X1', companyName: 'Acme', domain: null, website: null, country: null };
    await store.watchLists.claimPaidLookup(claimOf('mine'));

    await store.watchLists.paidLookupFound(claimOf('not-mine'), [acmeRecord]);
    await store.watchLists.releasePaidLookup(claimOf('not-mine'));
    const afterOthers = await store.watchLists.paidLookup('T1', acme.key, '2031-05');
    await store.watchLists.releasePaidLookup(claimOf('mine'));
    const released = await store.watchLists.paidLookup('T1', acme.key, '2031-05');
    const again = await store.watchLists.claimPaidLookup(claimOf('again'));
    await store.watchLists.paidLookupFound(claimOf('again'), [acmeRecord]);
    await store.watchLists.releasePaidLookup(claimOf('again'));

    expect(afterOthers).toMatchObject({ confirmationId: 'mine' });
    expect(afterOthers).not.toHaveProperty('found');
    expect(released).toBeNull();
    expect(again.confirmationId).toBe('again');
    expect(await store.watchLists.paidLookup('T1', acme.key, '2031-05')).toMatchObject({
      confirmationId: 'again',
      found: [acmeRecord],
    });
  });
});
