import { describe, expect, it } from 'vitest';
import {
  composeDigest,
  type DigestRunDeps,
  MAX_LATENESS_MS,
  runDueDigests,
} from '../../../src/domain/digest.ts';
import { MAX_FIT_CALLS } from '../../../src/domain/digest-events.ts';
import { SlackDeliveryError } from '../../../src/domain/slack-delivery.ts';
import type { CreditBalance, EventItem, EventPage, EventRank, FitScore } from '../../../src/eis/index.ts';
import { createMemoryLogger } from '../../../src/platform/log.ts';
import type {
  DigestSubscription,
  FinishedUnlockTask,
  FitScoreCacheEntry,
  LedgerEntry,
} from '../../../src/domain/ports/index.ts';

const NOW = new Date('2027-03-01T08:00:30Z');

const event = (n: number): EventItem => ({
  id: String(n),
  eventId: `E${n}`,
  name: `Event ${n}`,
  dateStart: '2027-04-01',
});

const balanceOf = (totalBalance: number): CreditBalance => ({
  totalAmount: 0,
  totalBalance,
  subscriptionAmount: 0,
  subscriptionBalance: 0,
  addonAmount: 0,
  addonBalance: 0,
  addonExpireAt: null,
  giftAmount: 0,
  giftBalance: 0,
  resetAt: null,
});

function subscription(channelId: string, overrides: Partial<DigestSubscription> = {}): DigestSubscription {
  return {
    type: 'digest-subscription',
    teamId: 'T1',
    channelId,
    time: '08:00',
    timeZone: 'UTC',
    filters: {},
    createdBy: 'U1',
    createdAt: NOW.toISOString(),
    updatedAt: NOW.toISOString(),
    status: 'active',
    nextRunAt: '2027-03-01T08:00:00.000Z',
    ...overrides,
  };
}

function setup(
  events: EventItem[],
  options: {
    balance?: number;
    subscriptions?: DigestSubscription[];
    ledger?: LedgerEntry[];
    /** The service's rank call fails (the digest falls back to fit scores). */
    rankFails?: boolean;
  } = {},
) {
  const fitCalls: string[] = [];
  const rankCalls: string[][] = [];
  const cache = new Map<string, FitScoreCacheEntry>();
  const claims = new Set<string>();
  const posted: string[] = [];
  const disabled: string[] = [];
  const finished: FinishedUnlockTask[] = [];
  const page: EventPage = {
    items: events,
    total: events.length,
    page: 1,
    pageSize: 20,
    totalPages: 1,
    hasMore: false,
  };
  const deps: DigestRunDeps = {
    eis: {
      credits: { balance: () => Promise.resolve(balanceOf(options.balance ?? 10_000)) },
      events: {
        list: () => Promise.resolve(page),
        rank: ({ eventIds }: { eventIds: string[] }): Promise<EventRank> => {
          rankCalls.push(eventIds);
          if (options.rankFails) return Promise.reject(new Error('rank unavailable'));
          // Ranks every candidate but the first, by the number in its id modulo 7 (best first).
          const items = eventIds
            .slice(1)
            .map((id) => ({ id, score: (Number(id.slice(1)) % 7) / 7 }))
            .sort((a, b) => b.score - a.score)
            .map(({ id, score }, i) => ({
              event_id: id,
              name: null,
              rank: i + 1,
              match_score: score,
              reasons: [],
            }));
          return Promise.resolve({ items });
        },
        fitScore: (eventId: string): Promise<FitScore> => {
          fitCalls.push(eventId);
          const score = Number(eventId.slice(1)) % 10;
          return Promise.resolve({
            event: event(0),
            score,
            recommendation: 'consider',
            breakdown: { profile_match: 0, matched_exhibitor_density: 0, event_scale: 0 },
          });
        },
      },
    },
    ledger: { listSince: () => Promise.resolve(options.ledger ?? []) },
    unlockTasks: { listFinishedSince: () => Promise.resolve(finished) },
    fitScores: {
      get: (eventId, day) => Promise.resolve(cache.get(`${eventId}/${day}`) ?? null),
      put: (eventId, day, value) => {
        const entry: FitScoreCacheEntry = {
          type: 'fit-score',
          eventId,
          day,
          value: { score: 0, recommendation: null, ...(typeof value === 'object' ? value : {}) },
          cachedAt: NOW.toISOString(),
          expiresAt: 1,
        };
        cache.set(`${eventId}/${day}`, entry);
        return Promise.resolve(entry);
      },
    },
    subscriptions: {
      due: () => Promise.resolve(options.subscriptions ?? []),
      advance: () => Promise.resolve(null),
      disable: (_team, channelId) => {
        disabled.push(channelId);
        return Promise.resolve(true);
      },
      claimDay: (team, channel, day) => {
        const key = `${team}/${channel}/${day}`;
        if (claims.has(key)) return Promise.resolve(false);
        claims.add(key);
        return Promise.resolve(true);
      },
    },
    post: (channelId) => {
      if (channelId === 'CGONE') {
        return Promise.reject(new SlackDeliveryError('channel_not_found', { retryable: false }));
      }
      posted.push(channelId);
      return Promise.resolve();
    },
    logger: createMemoryLogger(),
    now: () => NOW,
    sleep: async () => {},
  };
  return { deps, fitCalls, rankCalls, posted, disabled, finished };
}

const target = { teamId: 'T1', channelId: 'C1', timeZone: 'UTC', filters: {} };

describe('composeDigest', () => {
  it('ranks every candidate with one rank call, in the service’s order, and asks for no fit score', async () => {
    // Prepare
    const { deps, fitCalls, rankCalls } = setup(Array.from({ length: 20 }, (_, i) => event(i + 1)));

    // Act
    const digest = await composeDigest(target, deps);

    // Assess
    expect(rankCalls).toEqual([Array.from({ length: 20 }, (_, i) => `E${i + 1}`)]);
    expect(fitCalls).toEqual([]);
    const shown = digest.events ?? [];
    expect(shown).toHaveLength(10);
    const scores = shown.map((e) => e.fit?.score ?? -1);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // Match scores are fractions; the digest shows them out of 10
    expect(shown[0]?.fit?.score).toBeCloseTo(60 / 7);
    // A candidate the service left unranked comes after the ranked ones, unscored
    expect(shown.map((e) => e.event.eventId)).not.toContain('E1');
  });

  it('leaves a candidate the service did not rank after the ranked ones, unscored', async () => {
    // Prepare: only two candidates, and the service ranks only the second
    const { deps } = setup([event(1), event(3)]);

    // Act
    const digest = await composeDigest(target, deps);

    // Assess
    expect(digest.events?.map((e) => [e.event.eventId, e.fit === null])).toEqual([
      ['E3', false],
      ['E1', true],
    ]);
  });

  it('falls back to a bounded number of fit scores when ranking fails, reusing today’s cached ones', async () => {
    // Prepare
    const { deps, fitCalls, rankCalls } = setup(
      Array.from({ length: 20 }, (_, i) => event(i + 1)),
      { rankFails: true },
    );

    // Act
    const first = await composeDigest(target, deps);
    const second = await composeDigest(target, deps);

    // Assess
    expect(rankCalls).toHaveLength(2);
    expect(fitCalls).toHaveLength(2 * MAX_FIT_CALLS);
    const scores = (first.events ?? []).map((e) => e.fit?.score ?? -1);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // The second digest asked only about events the first could not score
    expect(new Set(fitCalls).size).toBe(2 * MAX_FIT_CALLS);
    expect(second.events?.every((e) => e.fit !== null)).toBe(true);
  });

  it('warns when the balance would not cover an event unlock', async () => {
    // Act
    const low = await composeDigest(target, setup([], { balance: 1999 }).deps);
    const enough = await composeDigest(target, setup([], { balance: 2000 }).deps);

    // Assess
    expect(low.lowBalance).toBe(true);
    expect(enough.lowBalance).toBe(false);
  });

  it('lists only this channel’s finished unlocks', async () => {
    // Prepare
    const { deps, finished } = setup([]);
    const base = {
      type: 'unlock-task-finished' as const,
      kind: 'email' as const,
      teamId: 'T1',
      threadTs: '1.2',
      requestedBy: 'U1',
      personnelIds: ['1'],
      finishedAt: NOW.toISOString(),
      outcome: { status: 'completed', unlocked: 1, notUnlocked: 0, skipped: 0 },
      expiresAt: 1,
    };
    finished.push({ ...base, taskId: '1', channelId: 'C1' }, { ...base, taskId: '2', channelId: 'C2' });

    // Act
    const digest = await composeDigest(target, deps);

    // Assess
    expect(digest.unlocks.map((u) => u.taskId)).toEqual(['1']);
    expect(digest.unlocks[0]?.outcome?.unlocked).toBe(1);
  });
});

const HOUR = 60 * 60_000;

function charge(action: string, hoursAgo: number, overrides: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    type: 'ledger-entry',
    id: `${action}-${hoursAgo}`,
    teamId: 'T1',
    channelId: 'C1',
    requestedBy: 'U1',
    confirmedBy: 'U1',
    action,
    credits: 2000,
    at: new Date(NOW.getTime() - hoursAgo * HOUR).toISOString(),
    expiresAt: 1,
    ...overrides,
  };
}

describe('composeDigest and the ledger', () => {
  it('marks events this workspace unlocked, whenever it was, and only charged unlocks count', async () => {
    // Prepare
    const ledger = [
      charge('event-unlock', 24 * 200, { eventId: 'E1', status: 'charged' }),
      charge('full-access-unlock', 2, { eventId: 'E2' }),
      charge('event-unlock', 1, { eventId: 'E3', status: 'refused', credits: 0 }),
      charge('event-unlock', 1, { eventId: 'E4', status: 'pending' }),
      charge('email-unlock', 1, { personnelIds: ['9'] }),
    ];
    const { deps } = setup([1, 2, 3, 4, 5].map(event), { ledger });

    // Act
    const digest = await composeDigest(target, deps);

    // Assess
    const unlocked = (digest.events ?? []).filter((e) => e.unlocked).map((e) => e.event.eventId);
    expect(unlocked.sort()).toEqual(['E1', 'E2']);
  });

  it('lists this channel’s event, visitors and full-access unlocks charged in the last 24 h, named', async () => {
    // Prepare
    const ledger = [
      charge('event-unlock', 30, { eventId: 'E1' }),
      charge('visitors-unlock', 3, { eventId: 'E2', credits: 3000, status: 'charged' }),
      charge('full-access-unlock', 2, { eventId: 'E99' }),
      charge('event-unlock', 1, { eventId: 'E3', channelId: 'C2' }),
      charge('event-unlock', 1, { eventId: 'E4', status: 'unknown' }),
      charge('email-unlock', 1, { credits: 45 }),
    ];
    const { deps } = setup([1, 2, 3, 4].map(event), { ledger });

    // Act
    const digest = await composeDigest(target, deps);

    // Assess
    expect(digest.eventUnlocks).toEqual([
      {
        action: 'visitors-unlock',
        eventId: 'E2',
        eventName: 'Event 2',
        credits: 3000,
        requestedBy: 'U1',
        confirmedBy: 'U1',
        at: ledger[1]?.at,
      },
      {
        action: 'full-access-unlock',
        eventId: 'E99',
        eventName: null,
        credits: 2000,
        requestedBy: 'U1',
        confirmedBy: 'U1',
        at: ledger[2]?.at,
      },
    ]);
    // Spending is the last 24 h only, whatever the channel
    expect(digest.spentLast24h).toBe(3000 + 2000 + 2000 + 2000 + 45);
  });

  it('says when the next digest comes when the channel has one', async () => {
    // Act
    const digest = await composeDigest(
      { ...target, timeZone: 'Europe/Berlin', schedule: { time: '08:30', timeZone: 'Europe/Berlin' } },
      setup([]).deps,
    );
    const oneOff = await composeDigest(target, setup([]).deps);

    // Assess: 08:00 UTC on 1 March is 09:00 in Berlin, so the next 08:30 is tomorrow's
    expect(digest.schedule).toEqual({
      time: '08:30',
      timeZone: 'Europe/Berlin',
      next: '2027-03-02T07:30:00.000Z',
    });
    expect(oneOff.schedule).toBeUndefined();
  });
});

describe('runDueDigests', () => {
  it('posts each due channel once a day, disables a gone one, and skips a digest hours late', async () => {
    // Prepare
    const late = new Date(NOW.getTime() - MAX_LATENESS_MS - 60_000).toISOString();
    const subscriptions = [
      subscription('C1'),
      subscription('CGONE'),
      subscription('C2'),
      subscription('C3', { nextRunAt: late }),
    ];
    const { deps, posted, disabled } = setup([event(1)], { subscriptions });

    // Act
    const first = await runDueDigests(deps);
    const second = await runDueDigests(deps);

    // Assess
    expect(posted).toEqual(['C1', 'C2']);
    expect(disabled).toEqual(['CGONE']);
    expect(first).toMatchObject({ posted: 2, disabled: 1, late: 1 });
    expect(second).toMatchObject({ posted: 0, alreadyPosted: 3 });
  });

  it('reaches every due channel in one run, page after page, when more are due than one page holds', async () => {
    // Prepare: the store answers at most `limit` subscriptions that are still due, as the index does.
    const subscriptions = Array.from({ length: 450 }, (_, n) => subscription(`C${n}`));
    const { deps, posted } = setup([event(1)], { subscriptions });
    const advanced = new Set<string>();
    deps.subscriptions.due = ({ limit }) =>
      Promise.resolve(subscriptions.filter((s) => !advanced.has(s.channelId)).slice(0, limit));
    deps.subscriptions.advance = (s) => {
      advanced.add(s.channelId);
      return Promise.resolve(null);
    };

    // Act
    const summary = await runDueDigests(deps);

    // Assess
    expect(new Set(posted).size).toBe(450);
    expect(summary).toMatchObject({ due: 450, posted: 450, outOfTime: false });
  });
});
