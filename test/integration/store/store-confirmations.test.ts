import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { confirm } from '../../../src/domain/confirmations.ts';
import { createStore } from '../../../src/store/index.ts';
import { ConflictError } from '../../../src/platform/errors.ts';
import { keys } from '../../../src/store/keys.ts';
import { createTestStore } from '../../support/store-support.ts';

const unlockEmails = {
  teamId: 'T1',
  channelId: 'C1',
  requestedBy: 'U1',
  action: { kind: 'unlock-email', eventId: 'ev-1', personnelIds: ['p1', 'p2'] },
  price: { credits: 2, upTo: true },
};

describe('confirmations', () => {
  it('are created pending, with the action stored as given and a deadline 15 minutes out', async () => {
    const { store, clock } = await createTestStore();

    const created = await store.confirmations.create({ ...unlockEmails, id: 'conf-1' });

    const read = await store.confirmations.get('conf-1');
    expect(read).toEqual(created);
    expect(read?.status).toBe('pending');
    expect(read?.action).toEqual(unlockEmails.action);
    expect(read?.deadline).toBe(new Date(clock.now().getTime() + 900_000).toISOString());
  });

  it('keep the record a week past the deadline through TTL, in epoch seconds', async () => {
    const { store, client, tableName, clock } = await createTestStore();

    await store.confirmations.create({ ...unlockEmails, id: 'conf-ttl', expiresInSeconds: 60 });

    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.confirmation('conf-ttl') }),
    );
    const nowSeconds = Math.floor(clock.now().getTime() / 1000);
    expect(Item?.expiresAt).toBe(nowSeconds + 60 + 7 * 24 * 3600);
    expect(Item?.expiresAt).toBeGreaterThan(Math.floor(Date.now() / 1000));
  });

  it('are claimed by exactly one of 20 concurrent confirmers; the others are told it is already handled', async () => {
    const { store } = await createTestStore();
    const { id } = await store.confirmations.create(unlockEmails);

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => store.confirmations.claim(id, { by: `U${index}` })),
    );

    const winners = results.filter((result) => result.kind === 'claimed');
    const losers = results.filter((result) => result.kind === 'lost');
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(19);
    for (const loser of losers) expect(loser.kind === 'lost' && loser.confirmation.status).toBe('running');
    const stored = await store.confirmations.get(id);
    expect(stored?.status).toBe('running');
    expect(winners[0]?.kind === 'claimed' && winners[0].confirmation.confirmedBy).toBe(stored?.confirmedBy);
  });

  it('cannot be claimed after the deadline, and the lost claim changes nothing', async () => {
    const { store, clock } = await createTestStore();
    const { id } = await store.confirmations.create({ ...unlockEmails, expiresInSeconds: 60 });
    const before = await store.confirmations.get(id);
    clock.advanceSeconds(60);

    const result = await store.confirmations.claim(id, { by: 'U1' });

    expect(result).toEqual({ kind: 'lost', confirmation: before });
    expect(await store.confirmations.get(id)).toEqual(before);
  });

  it('expire only past the deadline and only while pending: one of an expiry and a claim wins', async () => {
    const { store, clock } = await createTestStore();
    const { id } = await store.confirmations.create({ ...unlockEmails, expiresInSeconds: 60 });
    expect(await store.confirmations.expire(id)).toBeNull();
    const claimed = await store.confirmations.create({ ...unlockEmails, expiresInSeconds: 60 });
    await store.confirmations.claim(claimed.id, { by: 'U1' });
    clock.advanceSeconds(60);

    expect(await store.confirmations.expire(id)).toMatchObject({ status: 'expired' });
    expect(await store.confirmations.expire(id)).toBeNull();
    expect(await store.confirmations.expire(claimed.id)).toBeNull();
    expect((await store.confirmations.get(claimed.id))?.status).toBe('running');
  });

  it('cannot be claimed once cancelled', async () => {
    const { store } = await createTestStore();
    const { id } = await store.confirmations.create(unlockEmails);

    const cancelled = await store.confirmations.cancel(id, { by: 'U1' });
    const claim = await store.confirmations.claim(id, { by: 'U1' });

    expect(cancelled.kind).toBe('cancelled');
    expect(claim).toMatchObject({ kind: 'lost', confirmation: { status: 'cancelled' } });
  });

  it('cannot be cancelled once claimed', async () => {
    const { store } = await createTestStore();
    const { id } = await store.confirmations.create(unlockEmails);
    await store.confirmations.claim(id, { by: 'U1' });

    const cancelled = await store.confirmations.cancel(id, { by: 'U1' });

    expect(cancelled).toMatchObject({ kind: 'already-handled', status: 'running' });
  });

  it('of a removed workspace are withdrawn while pending, leaving the reconciler nothing; a claimed one stays', async () => {
    const { store } = await createTestStore();
    const pending = await store.confirmations.create({ ...unlockEmails, teamId: 'TGONE' });
    const claimed = await store.confirmations.create({ ...unlockEmails, teamId: 'TGONE' });
    await store.confirmations.claim(claimed.id, { by: 'U1' });

    const results = await Promise.all([
      store.confirmations.withdraw(pending.id),
      store.confirmations.withdraw(claimed.id),
    ]);

    expect(results).toEqual([true, false]);
    expect(await store.confirmations.get(pending.id)).toMatchObject({ status: 'cancelled' });
    expect((await store.confirmations.dueForTeam('TGONE')).map((c) => c.id)).toEqual([claimed.id]);
    expect(await store.confirmations.claim(pending.id, { by: 'U1' })).toMatchObject({ kind: 'lost' });
  });

  it('that do not exist are reported as not found', async () => {
    const { store } = await createTestStore();

    expect(await store.confirmations.claim('nope', { by: 'U1' })).toEqual({ kind: 'not-found' });
    expect(await store.confirmations.cancel('nope', { by: 'U1' })).toEqual({ kind: 'not-found' });
    expect(await store.confirmations.get('nope')).toBeNull();
    await expect(store.confirmations.attachMessage('nope', '1.2')).rejects.toBeInstanceOf(ConflictError);
  });

  it("leave the reconciler's list once their final card is shown, and not before", async () => {
    const { store, clock } = await createTestStore();
    const pending = await store.confirmations.create({ ...unlockEmails, expiresInSeconds: 60 });
    const cancelled = await store.confirmations.create(unlockEmails);
    await store.confirmations.cancel(cancelled.id, { by: 'U1' });
    clock.advanceSeconds(61);
    const due = async () => (await store.confirmations.due({ now: clock.now(), limit: 10 })).map((c) => c.id);
    expect(new Set(await due())).toEqual(new Set([pending.id, cancelled.id]));

    await store.confirmations.cardShown(cancelled.id, 'pending');
    expect(await due()).toContain(cancelled.id);
    await store.confirmations.cardShown(cancelled.id, 'cancelled');

    expect(await due()).toEqual([pending.id]);
  });

  it('remember the card they are shown on', async () => {
    const { store } = await createTestStore();
    const { id } = await store.confirmations.create(unlockEmails);

    await store.confirmations.attachMessage(id, '1700000000.000100');

    expect((await store.confirmations.get(id))?.messageTs).toBe('1700000000.000100');
  });

  it('refuse a second confirmation with the same id', async () => {
    const { store } = await createTestStore();
    await store.confirmations.create({ ...unlockEmails, id: 'dup' });

    await expect(store.confirmations.create({ ...unlockEmails, id: 'dup' })).rejects.toBeInstanceOf(
      ConflictError,
    );
  });
});

describe('a Confirm decided by two instances whose clocks are 2 ms apart', () => {
  it('never tells one user "expired" while the other click charges', async () => {
    const { client, tableName, clock } = await createTestStore();
    const store = createStore({ client, tableName, now: clock.now });
    const deadline = clock.now().getTime() + 60_000;
    // One instance still sees the confirmation open, the other already sees it expired.
    const behind = createStore({ client, tableName, now: () => new Date(deadline - 1) });
    const ahead = createStore({ client, tableName, now: () => new Date(deadline + 1) });
    const policyIn = () => Promise.resolve({ approvers: [] });
    const actor = { userId: 'U1', teamId: unlockEmails.teamId, membership: 'member' } as const;

    const outcomes = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const { id } = await store.confirmations.create({ ...unlockEmails, expiresInSeconds: 60 });
        const decisions = await Promise.all([
          confirm(id, actor, { confirmations: behind.confirmations, policyIn }),
          confirm(id, actor, { confirmations: ahead.confirmations, policyIn }),
        ]);
        return decisions
          .map((decision) => decision.kind)
          .sort()
          .join('+');
      }),
    );

    for (const outcome of outcomes)
      expect(['already-handled+claimed', 'already-handled+expired']).toContain(outcome);
  });
});
