import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { nextDigestRun } from '../../../src/domain/digest.ts';
import { ValidationError } from '../../../src/platform/errors.ts';
import type { DigestSubscriptionInput } from '../../../src/store/index.ts';
import { keys } from '../../../src/store/keys.ts';
import { createTestStore } from '../../support/store-support.ts';

type Request = Omit<DigestSubscriptionInput, 'nextRunAt'>;

/** A subscription as the digest command stores it: first due when the domain says, after `at`. */
function subscription(at: Date, overrides: Partial<Request> = {}): DigestSubscriptionInput {
  const request: Request = {
    teamId: 'T1',
    channelId: 'C1',
    time: '09:00',
    timeZone: 'Europe/Berlin',
    filters: { keywords: 'packaging', country: 'DE' },
    createdBy: 'U1',
    ...overrides,
  };
  return { ...request, nextRunAt: nextDigestRun(request, at) };
}

/** The end of a run at `at`, as the digest run reports it. */
const ranAt = (subscription: Pick<Request, 'time' | 'timeZone'>, at: Date) => ({
  ranAt: at,
  nextRunAt: nextDigestRun(subscription, at),
});

describe('digest subscriptions', () => {
  it('are first due at the next 09:00 in their zone', async () => {
    const { store, clock } = await createTestStore('2031-05-14T10:00:00Z');

    const berlin = await store.digestSubscriptions.put(subscription(clock.now(), { channelId: 'C-berlin' }));

    // 10:00Z is 12:00 in Berlin (UTC+2): 09:00 has passed, so tomorrow.
    expect(berlin.nextRunAt).toBe('2031-05-15T07:00:00.000Z');
    expect(await store.digestSubscriptions.get('T1', 'C-berlin')).toEqual(berlin);
  });

  it('follow the local day where it differs from the UTC day', async () => {
    const { store, clock } = await createTestStore('2031-05-14T10:00:00Z');

    // 10:00Z on the 14th is 22:00 on the 14th in Auckland (UTC+12) and 03:00 on the 14th in Los Angeles (UTC-7).
    const auckland = await store.digestSubscriptions.put(
      subscription(clock.now(), { channelId: 'C-akl', time: '08:00', timeZone: 'Pacific/Auckland' }),
    );
    const losAngeles = await store.digestSubscriptions.put(
      subscription(clock.now(), { channelId: 'C-la', time: '20:00', timeZone: 'America/Los_Angeles' }),
    );

    expect(auckland.nextRunAt).toBe('2031-05-14T20:00:00.000Z'); // 08:00 on the 15th in Auckland
    expect(losAngeles.nextRunAt).toBe('2031-05-15T03:00:00.000Z'); // 20:00 on the 14th in Los Angeles
  });

  it('keep their local time when advanced across a change to summer time', async () => {
    // Los Angeles moves from UTC-8 to UTC-7 on Sunday 9 March 2031.
    const { store, clock } = await createTestStore('2031-03-07T20:00:00Z');
    const created = await store.digestSubscriptions.put(
      subscription(clock.now(), { time: '08:00', timeZone: 'America/Los_Angeles' }),
    );
    expect(created.nextRunAt).toBe('2031-03-08T16:00:00.000Z');

    clock.set('2031-03-08T16:00:30Z');
    const saturday = await store.digestSubscriptions.advance(created, ranAt(created, clock.now()));
    clock.set('2031-03-09T15:00:30Z');
    const sunday = await store.digestSubscriptions.advance(created, ranAt(created, clock.now()));

    expect(saturday?.nextRunAt).toBe('2031-03-09T15:00:00.000Z');
    expect(sunday?.nextRunAt).toBe('2031-03-10T15:00:00.000Z');
    expect(sunday?.lastRunAt).toBe('2031-03-09T15:00:30.000Z');
  });

  it('come out of the due index when due, earliest first, and no longer once disabled', async () => {
    const { store, clock } = await createTestStore('2031-05-14T10:00:00Z');
    await store.digestSubscriptions.put(
      subscription(clock.now(), { channelId: 'C-late', time: '13:00', timeZone: 'UTC' }),
    );
    await store.digestSubscriptions.put(
      subscription(clock.now(), { channelId: 'C-early', time: '11:00', timeZone: 'UTC' }),
    );
    await store.digestSubscriptions.put(
      subscription(clock.now(), { channelId: 'C-tomorrow', time: '09:00', timeZone: 'UTC' }),
    );
    const gone = await store.digestSubscriptions.put(
      subscription(clock.now(), { channelId: 'C-gone', time: '12:00', timeZone: 'UTC' }),
    );
    const at = new Date('2031-05-14T13:00:00Z');

    const disabled = await store.digestSubscriptions.disable('T1', 'C-gone', 'channel_not_found');
    const due = await store.digestSubscriptions.due({ now: at, limit: 10 });

    expect(disabled).toBe(true);
    expect(due.map((entry) => entry.channelId)).toEqual(['C-early', 'C-late']);
    expect(await store.digestSubscriptions.get('T1', 'C-gone')).toMatchObject({
      status: 'disabled',
      disabledReason: 'channel_not_found',
    });
    expect(await store.digestSubscriptions.advance(gone, ranAt(gone, at))).toBeNull();
  });

  it('are replaced by a second put, which re-enables a disabled one and keeps createdAt', async () => {
    const { store, clock } = await createTestStore('2031-05-14T10:00:00Z');
    const first = await store.digestSubscriptions.put(subscription(clock.now()));
    await store.digestSubscriptions.disable('T1', 'C1', 'kicked');
    clock.advanceSeconds(3600);

    const second = await store.digestSubscriptions.put(
      subscription(clock.now(), { time: '18:00', filters: { city: 'Berlin' } }),
    );

    expect(second).toMatchObject({ status: 'active', time: '18:00', filters: { city: 'Berlin' } });
    expect(second.createdAt).toBe(first.createdAt);
    expect(second.disabledReason).toBeUndefined();
    expect(await store.digestSubscriptions.due({ now: new Date(second.nextRunAt), limit: 10 })).toHaveLength(
      1,
    );
  });

  it('keep a concurrent change of time over a run computed from the old one', async () => {
    const { store, clock } = await createTestStore('2031-05-14T10:00:00Z');
    const before = await store.digestSubscriptions.put(subscription(clock.now()));
    const after = await store.digestSubscriptions.put(subscription(clock.now(), { time: '18:00' }));

    const advanced = await store.digestSubscriptions.advance(before, ranAt(before, clock.now()));

    expect(advanced).toMatchObject({ time: '18:00', nextRunAt: after.nextRunAt });
    expect(advanced?.lastRunAt).toBeUndefined();
  });

  it('can be deleted', async () => {
    const { store, clock } = await createTestStore();
    await store.digestSubscriptions.put(subscription(clock.now()));

    expect(await store.digestSubscriptions.delete('T1', 'C1')).toBe(true);
    expect(await store.digestSubscriptions.delete('T1', 'C1')).toBe(false);
    expect(await store.digestSubscriptions.get('T1', 'C1')).toBeNull();
  });

  it('cannot be scheduled in an unknown time zone or at a malformed time', () => {
    const at = new Date('2031-05-14T10:00:00Z');

    expect(() => subscription(at, { timeZone: 'Mars/Base' })).toThrow(ValidationError);
    expect(() => subscription(at, { time: '9am' })).toThrow(ValidationError);
  });

  it('let exactly one run claim a channel’s local day, with a TTL a few days out', async () => {
    const { store, clock, client, tableName } = await createTestStore();

    const claims = await Promise.all([
      store.digestSubscriptions.claimDay('T1', 'C1', '2031-05-14'),
      store.digestSubscriptions.claimDay('T1', 'C1', '2031-05-14'),
    ]);
    const again = await store.digestSubscriptions.claimDay('T1', 'C1', '2031-05-14');
    const nextDay = await store.digestSubscriptions.claimDay('T1', 'C1', '2031-05-15');
    const otherChannel = await store.digestSubscriptions.claimDay('T1', 'C2', '2031-05-14');

    expect(claims.filter(Boolean)).toHaveLength(1);
    expect([again, nextDay, otherChannel]).toEqual([false, true, true]);
    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.digestDayClaim('T1', 'C1', '2031-05-14') }),
    );
    expect(Item?.expiresAt).toBe(Math.floor(clock.now().getTime() / 1000) + 4 * 24 * 3600);
  });
});
