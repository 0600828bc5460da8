import { describe, expect, it } from 'vitest';
import { createTestStore } from './store-support.ts';

describe('daily spend', () => {
  it('lets concurrent reservations pass only while they fit under the cap', async () => {
    const { store } = await createTestStore();

    const results = await Promise.all(
      Array.from({ length: 10 }, () => store.dailySpend.reserve('T1', '2031-05-14', 2000, 5000)),
    );

    expect(results.filter((result) => result.ok)).toHaveLength(2);
    expect(results.find((result) => !result.ok)).toEqual({ ok: false, remaining: 1000 });
    expect(await store.dailySpend.spent('T1', '2031-05-14')).toBe(4000);
  });

  it('gives back what a charge did not spend, and keeps days and workspaces apart', async () => {
    const { store } = await createTestStore();
    await store.dailySpend.reserve('T1', '2031-05-14', 50, 100);

    await store.dailySpend.adjust('T1', '2031-05-14', -50);

    expect(await store.dailySpend.spent('T1', '2031-05-14')).toBe(0);
    expect(await store.dailySpend.spent('T1', '2031-05-15')).toBe(0);
    expect(await store.dailySpend.spent('T2', '2031-05-14')).toBe(0);
  });

  it('refuses a single charge larger than the cap, saying what is left', async () => {
    const { store } = await createTestStore();

    expect(await store.dailySpend.reserve('T1', '2031-05-14', 6000, 5000)).toEqual({
      ok: false,
      remaining: 5000,
    });
  });
});

describe('confirmation charge start', () => {
  it('is granted once, and only to a claimed confirmation', async () => {
    const { store } = await createTestStore();
    const confirmation = await store.confirmations.create({
      teamId: 'T1',
      channelId: 'C1',
      requestedBy: 'U1',
      action: { kind: 'event-unlock', eventId: '26855' },
      price: { credits: 2000, upTo: false },
    });
    expect(await store.confirmations.beginCharge(confirmation.id)).toBe(false);
    await store.confirmations.claim(confirmation.id, { by: 'U1' });

    const starts = await Promise.all(
      Array.from({ length: 5 }, () => store.confirmations.beginCharge(confirmation.id)),
    );

    expect(starts.filter(Boolean)).toHaveLength(1);
  });
});

describe('abandoning a claimed confirmation', () => {
  it('closes it only while no worker has started the charge', async () => {
    const { store } = await createTestStore();
    const make = () =>
      store.confirmations.create({
        teamId: 'T1',
        channelId: 'C1',
        requestedBy: 'U1',
        action: { kind: 'event-unlock', eventId: '26855' },
        price: { credits: 2000, upTo: false },
      });
    const untouched = await make();
    const started = await make();
    for (const confirmation of [untouched, started])
      await store.confirmations.claim(confirmation.id, { by: 'U1' });
    await store.confirmations.beginCharge(started.id);

    expect(await store.confirmations.abandon(untouched.id, 'dispatch-failed')).toBe(true);
    expect(await store.confirmations.abandon(started.id, 'dispatch-failed')).toBe(false);
    expect((await store.confirmations.get(untouched.id))?.status).toBe('failed');
    expect((await store.confirmations.get(started.id))?.status).toBe('running');
  });
});
