import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/platform/errors.ts';
import { StoredItemInvalidError } from '../../../src/store/index.ts';
import { keys } from '../../../src/store/keys.ts';
import { createTestStore } from '../../support/store-support.ts';

const charge = { teamId: 'T1', channelId: 'C1', requestedBy: 'U1', action: 'unlock-email' };

describe('ledger', () => {
  it('lists one UTC day in time order, whatever order the entries were written in', async () => {
    const { store } = await createTestStore();
    await store.ledger.record({ ...charge, credits: 3, at: new Date('2031-05-14T18:00:00Z') });
    await store.ledger.record({ ...charge, credits: 1, at: new Date('2031-05-14T00:00:00Z') });
    await store.ledger.record({ ...charge, credits: 2, at: new Date('2031-05-14T23:59:59.999Z') });
    await store.ledger.record({ ...charge, credits: 50, at: new Date('2031-05-13T23:59:59.999Z') });
    await store.ledger.record({ ...charge, credits: 70, at: new Date('2031-05-15T00:00:00Z') });
    await store.ledger.record({ ...charge, teamId: 'T2', credits: 90, at: new Date('2031-05-14T12:00:00Z') });

    const entries = await store.ledger.listForDay('T1', '2031-05-14');
    const total = await store.ledger.totalForDay('T1', '2031-05-14');

    expect(entries.map((entry) => entry.credits)).toEqual([1, 3, 2]);
    expect(total).toBe(6);
    expect(await store.ledger.totalForDay('T1', '2031-05-16')).toBe(0);
  });

  it('lists a period of UTC days, first and last day included, and says when it holds more than asked', async () => {
    const { store } = await createTestStore();
    await store.ledger.record({ ...charge, credits: 1, at: new Date('2031-02-28T23:59:59.999Z') });
    await store.ledger.record({ ...charge, credits: 2, at: new Date('2031-03-01T00:00:00Z') });
    await store.ledger.record({ ...charge, credits: 3, at: new Date('2031-03-15T12:00:00Z') });
    await store.ledger.record({ ...charge, credits: 4, at: new Date('2031-03-31T23:59:59.999Z') });
    await store.ledger.record({ ...charge, credits: 5, at: new Date('2031-04-01T00:00:00Z') });
    await store.ledger.record({ ...charge, teamId: 'T2', credits: 9, at: new Date('2031-03-15T12:00:00Z') });
    const march = { from: '2031-03-01', to: '2031-03-31' };

    const all = await store.ledger.listForPeriod('T1', march);
    const firstTwo = await store.ledger.listForPeriod('T1', march, 2);
    const exactlyThree = await store.ledger.listForPeriod('T1', march, 3);

    expect(all.entries.map((entry) => entry.credits)).toEqual([2, 3, 4]);
    expect(all.capped).toBe(false);
    expect(firstTwo.entries.map((entry) => entry.credits)).toEqual([2, 3]);
    expect(firstTwo.capped).toBe(true);
    expect(exactlyThree.capped).toBe(false);
    await expect(
      store.ledger.listForPeriod('T1', { from: '2031-3-1', to: '2031-03-31' }),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it('lists the entries since an instant, for the digest window', async () => {
    const { store } = await createTestStore();
    await store.ledger.record({ ...charge, credits: 1, at: new Date('2031-05-13T09:59:59Z') });
    await store.ledger.record({ ...charge, credits: 2, at: new Date('2031-05-13T10:00:00Z') });
    await store.ledger.record({ ...charge, credits: 4, at: new Date('2031-05-14T09:00:00Z') });

    const entries = await store.ledger.listSince('T1', new Date('2031-05-13T10:00:00Z'));

    expect(entries.map((entry) => entry.credits)).toEqual([2, 4]);
  });

  it('lists all it keeps of one channel, newest first, within the retention and a bound it reports', async () => {
    const { store, clock } = await createTestStore('2031-05-14T10:00:00.000Z');
    const at = (iso: string) => new Date(iso);
    await store.ledger.record({ ...charge, credits: 1, at: at('2030-04-01T00:00:00Z') }); // past the retention
    await store.ledger.record({ ...charge, credits: 2, at: at('2030-05-01T00:00:00Z') });
    await store.ledger.record({ ...charge, credits: 3, eventId: 'ev-1', at: at('2030-11-20T00:00:00Z') });
    await store.ledger.record({ ...charge, channelId: 'C2', credits: 5, at: at('2031-01-01T00:00:00Z') });
    await store.ledger.record({ ...charge, credits: 4, at: at('2031-05-14T09:00:00Z') });
    await store.ledger.record({ ...charge, teamId: 'T2', credits: 9, at: at('2031-05-14T09:00:00Z') });

    const kept = await store.ledger.listKept('T1', 'C1');
    const team = await store.ledger.listKept('T1');
    const firstTwoRead = await store.ledger.listKept('T1', 'C1', 2);

    expect(kept.entries.map((entry) => entry.credits)).toEqual([4, 3, 2]);
    expect(kept.capped).toBe(false);
    expect(team.entries.map((entry) => entry.credits)).toEqual([4, 5, 3, 2]);
    // Two entries read (one of them another channel's): the bound counts what is read, and says so.
    expect(firstTwoRead.entries.map((entry) => entry.credits)).toEqual([4]);
    expect(firstTwoRead.capped).toBe(true);
    clock.set('2031-12-01T00:00:00.000Z');
    expect((await store.ledger.listKept('T1', 'C1')).entries.map((entry) => entry.credits)).toEqual([4, 3]);
  });

  it('says the kept read was bounded only when more entries were left unread', async () => {
    const { store } = await createTestStore('2031-05-14T10:00:00.000Z');
    await store.ledger.record({ ...charge, credits: 1, at: new Date('2031-05-01T00:00:00Z') });
    await store.ledger.record({ ...charge, credits: 2, at: new Date('2031-05-02T00:00:00Z') });

    const exactly = await store.ledger.listKept('T1', 'C1', 2);
    await store.ledger.record({ ...charge, credits: 3, at: new Date('2031-05-03T00:00:00Z') });
    const more = await store.ledger.listKept('T1', 'C1', 2);

    expect(exactly).toMatchObject({ capped: false });
    expect(exactly.entries.map((entry) => entry.credits)).toEqual([2, 1]);
    expect(more).toMatchObject({ capped: true });
    expect(more.entries.map((entry) => entry.credits)).toEqual([3, 2]);
  });

  it('says a period was bounded only when it holds more entries than were read', async () => {
    const { store } = await createTestStore('2031-05-14T10:00:00.000Z');
    const may = { from: '2031-05-01', to: '2031-05-31' };
    await store.ledger.record({ ...charge, credits: 1, at: new Date('2031-05-01T00:00:00Z') });
    await store.ledger.record({ ...charge, credits: 2, at: new Date('2031-05-02T00:00:00Z') });

    const exactly = await store.ledger.listForPeriod('T1', may, 2);
    await store.ledger.record({ ...charge, credits: 3, at: new Date('2031-05-03T00:00:00Z') });
    const more = await store.ledger.listForPeriod('T1', may, 2);

    expect(exactly).toMatchObject({ capped: false });
    expect(more).toMatchObject({ capped: true });
    expect(more.entries.map((entry) => entry.credits)).toEqual([1, 2]);
  });

  it('keeps everything said about a charge, and a TTL about 400 days out', async () => {
    const { store, clock, client, tableName } = await createTestStore();

    const entry = await store.ledger.record({
      ...charge,
      credits: 2,
      eventId: 'ev-1',
      personnelIds: ['p1', 'p2'],
      traceId: 'trace-1',
      confirmationId: 'conf-1',
    });

    const [read] = await store.ledger.listForDay('T1', clock.now().toISOString().slice(0, 10));
    expect(read).toEqual(entry);
    expect(entry.at).toBe(clock.now().toISOString());
    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.ledgerEntry('T1', entry.at, entry.id) }),
    );
    expect(Item?.expiresAt).toBe(Math.floor(clock.now().getTime() / 1000) + 400 * 24 * 3600);
    expect(Item?.expiresAt).toBeGreaterThan(Math.floor(Date.now() / 1000));
  });

  it('records a confirmation once, however often the worker retries it', async () => {
    const { store, clock } = await createTestStore();
    const first = await store.ledger.record({ ...charge, credits: 2, confirmationId: 'conf-1' });
    clock.advanceSeconds(5);

    const again = await store.ledger.record({ ...charge, credits: 2, confirmationId: 'conf-1' });

    expect(again).toEqual(first);
    expect(await store.ledger.totalForDay('T1', '2031-05-14')).toBe(2);
  });

  it('refuses a day that is not YYYY-MM-DD', async () => {
    const { store } = await createTestStore();

    await expect(store.ledger.listForDay('T1', '14/05/2031')).rejects.toBeInstanceOf(ValidationError);
  });

  it('throws a clear error when a stored entry has a bad shape', async () => {
    const { store, client, tableName } = await createTestStore();
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.ledgerEntry('T1', '2031-05-14T08:00:00.000Z', 'bad'),
          type: 'ledger-entry',
          id: 'bad',
          teamId: 'T1',
          userId: 'U1',
          action: 'unlock-email',
          credits: 'two',
          at: '2031-05-14T08:00:00.000Z',
          expiresAt: 1_999_999_999,
        },
      }),
    );

    const listing = store.ledger.listForDay('T1', '2031-05-14');

    await expect(listing).rejects.toBeInstanceOf(StoredItemInvalidError);
    await expect(listing).rejects.toThrow(/ledger entry .*LEDGER#T1.* credits: /);
  });
});
