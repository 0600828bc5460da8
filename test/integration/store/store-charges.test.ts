import { afterEach, describe, expect, it } from 'vitest';
import { createStore } from '../../../src/store/index.ts';
import {
  createProxiedDocumentClient,
  type DynamoFaultProxy,
  loseNth,
  startDynamoFaultProxy,
} from '../../support/dynamo-fault-proxy.ts';
import { createTestStore, manualClock } from '../../support/store-support.ts';

const DAY = '2031-05-14';
const ACCOUNT = 'acct-test';
const unlock = (teamId = 'T1') => ({
  teamId,
  channelId: 'C1',
  requestedBy: 'U1',
  action: { kind: 'event-unlock', eventId: '26855' },
  price: { credits: 2000, upTo: false },
  messageTs: '1700000000.000100',
});
const begin = (attemptId: string, cap?: number) => ({
  attemptId,
  accountId: ACCOUNT,
  day: DAY,
  ...(cap !== undefined ? { cap } : {}),
  requestedBy: 'U1',
  confirmedBy: 'U1',
  ledger: { action: 'event-unlock', eventId: '26855' },
});

async function claimed(store: ReturnType<typeof createStore>, teamId = 'T1') {
  const confirmation = await store.confirmations.create(unlock(teamId));
  const claim = await store.confirmations.claim(confirmation.id, { by: 'U1' });
  if (claim.kind !== 'claimed') throw new Error('not claimed');
  return claim.confirmation;
}

describe('a charge, written ahead and settled', () => {
  it('starts once among concurrent runs, only after a claim, with a pending ledger entry and the price reserved', async () => {
    const { store } = await createTestStore();
    const unclaimed = await store.confirmations.create(unlock());
    expect(await store.charges.begin(unclaimed, begin('a0'))).toEqual({ kind: 'duplicate' });
    const confirmation = await claimed(store);

    const starts = await Promise.all(
      Array.from({ length: 5 }, (_, index) => store.charges.begin(confirmation, begin(`a${index}`))),
    );

    expect(starts.filter((start) => start.kind === 'started')).toHaveLength(1);
    expect(await store.charges.spent(ACCOUNT, DAY)).toBe(2000);
    expect(await store.ledger.listForDay('T1', DAY)).toMatchObject([
      { status: 'pending', credits: 2000, confirmationId: confirmation.id },
    ]);
  });

  it('lets concurrent charges pass the cap only while their quoted prices fit, saying what is left', async () => {
    const { store } = await createTestStore();
    const confirmations = await Promise.all(Array.from({ length: 6 }, () => claimed(store)));

    const starts = await Promise.all(
      confirmations.map((confirmation, index) => store.charges.begin(confirmation, begin(`a${index}`, 5000))),
    );

    expect(starts.filter((start) => start.kind === 'started')).toHaveLength(2);
    expect(starts.find((start) => start.kind === 'capped')).toEqual({ kind: 'capped', remaining: 1000 });
    expect(await store.charges.spent(ACCOUNT, DAY)).toBe(4000);
  });

  it('keeps the cap per service account, whichever workspace spends', async () => {
    const { store } = await createTestStore();
    const first = await claimed(store, 'T1');
    const second = await claimed(store, 'T2');

    expect((await store.charges.begin(first, begin('a1', 3000))).kind).toBe('started');
    expect(await store.charges.begin(second, begin('a2', 3000))).toEqual({ kind: 'capped', remaining: 1000 });
  });

  it('names the first confirmation settled as paying for an unlock, on its account, whichever workspace asks', async () => {
    const { store } = await createTestStore();
    const first = await claimed(store, 'T1');
    const second = await claimed(store, 'T2');
    await store.charges.begin(first, begin('a1'));
    await store.charges.begin(second, begin('a2'));
    const emails = { action: 'email-unlock', personnelIds: ['100003', '100004'] };
    const reordered = { ...emails, personnelIds: ['100004', '100003'] };
    const paid = (unlocked: typeof emails) => ({
      status: 'succeeded' as const,
      outcome: { creditsSpent: 30 },
      ledger: { status: 'charged' as const, credits: 30 },
      unlocked,
    });
    expect(await store.charges.unlockedBy(ACCOUNT, emails)).toBeNull();

    await store.charges.settle(first.id, paid(emails));
    await store.charges.settle(second.id, paid(reordered));

    expect(await store.charges.unlockedBy(ACCOUNT, reordered)).toBe(first.id);
    expect(await store.charges.unlockedBy('acct-other', emails)).toBeNull();
    expect(await store.charges.unlockedBy(ACCOUNT, { ...emails, personnelIds: ['100003'] })).toBeNull();
    expect(await store.ledger.listForDay('T2', DAY)).toMatchObject([{ status: 'charged', credits: 30 }]);
  });

  it('settles once: the real amount in the ledger, the cap corrected, the unlock task stored', async () => {
    const { store } = await createTestStore();
    const confirmation = await claimed(store);
    await store.charges.begin(confirmation, begin('a1'));
    const settlement = {
      status: 'succeeded' as const,
      outcome: { creditsSpent: 30, summary: ['Unlocking 2 emails…'] },
      ledger: { status: 'charged' as const, credits: 30, traceId: 'trace-1' },
      task: {
        taskId: 'task-1',
        kind: 'email' as const,
        teamId: 'T1',
        channelId: 'C1',
        threadTs: '1700000000.000100',
        requestedBy: 'U1',
        personnelIds: ['1', '2'],
        skipped: [],
        confirmationId: confirmation.id,
      },
    };

    const settled = await store.charges.settle(confirmation.id, settlement);
    const again = await store.charges.settle(confirmation.id, {
      ...settlement,
      ledger: { status: 'charged', credits: 999 },
    });

    expect(settled).toMatchObject({ status: 'succeeded', outcome: { creditsSpent: 30 } });
    expect(again).toEqual(settled);
    expect(await store.charges.spent(ACCOUNT, DAY)).toBe(30);
    expect(await store.ledger.listForDay('T1', DAY)).toMatchObject([
      { status: 'charged', credits: 30, traceId: 'trace-1' },
    ]);
    expect(await store.unlockTasks.get('task-1')).toMatchObject({ confirmationId: confirmation.id });
  });

  it('gives the reservation back when the service refused, and keeps it when the outcome is unknown', async () => {
    const { store } = await createTestStore();
    const refused = await claimed(store);
    const unknown = await claimed(store);
    await store.charges.begin(refused, begin('a1'));
    await store.charges.begin(unknown, begin('a2'));

    await store.charges.settle(refused.id, {
      status: 'failed',
      outcome: { message: 'no' },
      ledger: { status: 'refused', credits: 0 },
    });
    await store.charges.settle(unknown.id, {
      status: 'failed',
      outcome: { outcomeUnknown: true },
      ledger: { status: 'unknown', credits: 2000 },
    });

    expect(await store.charges.spent(ACCOUNT, DAY)).toBe(2000);
    const entries = await store.ledger.listForDay('T1', DAY);
    expect(entries.map((entry) => [entry.status, entry.credits]).sort()).toEqual([
      ['refused', 0],
      ['unknown', 2000],
    ]);
  });
});

describe('writes whose answer is lost and retried by the SDK', () => {
  let proxy: DynamoFaultProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  async function proxiedStore() {
    const table = await createTestStore();
    proxy = await startDynamoFaultProxy({ target: table.endpoint });
    const client = createProxiedDocumentClient(proxy);
    const clock = manualClock('2031-05-14T10:00:00.000Z');
    return { proxy, store: createStore({ client, tableName: table.tableName, now: clock.now }) };
  }

  it('reserve the cap once and still start the charge', async () => {
    const { proxy, store } = await proxiedStore();
    const confirmation = await claimed(store);
    proxy.setRule(loseNth(1, (request) => request.operation === 'TransactWriteItems'));

    const start = await store.charges.begin(confirmation, begin('a1', 3000));

    expect(proxy.stats().lost).toBe(1);
    expect(start.kind).toBe('started');
    expect(await store.charges.spent(ACCOUNT, DAY)).toBe(2000);
  });

  it('still claim a confirmation, and still count a command delivery as the first', async () => {
    const { proxy, store } = await proxiedStore();
    const confirmation = await store.confirmations.create(unlock());
    proxy.setRule(
      loseNth(1, (request) => request.operation === 'UpdateItem' || request.operation === 'PutItem'),
    );
    expect((await store.confirmations.claim(confirmation.id, { by: 'U1' })).kind).toBe('claimed');
    proxy.setRule(loseNth(1, (request) => request.operation === 'PutItem'));
    expect(await store.deliveries.first('command:1.trigger')).toBe(true);
    expect(await store.deliveries.first('command:1.trigger')).toBe(false);
    expect(proxy.stats().lost).toBe(2);
  });
});
