import { describe, expect, it } from 'vitest';
import {
  composeDigest,
  type DigestRunDeps,
  MAX_FIT_CALLS,
  MAX_LATENESS_MS,
  runDueDigests,
} from '../../../src/domain/digest.ts';
import { SlackDeliveryError } from '../../../src/domain/slack-delivery.ts';
import type { CreditBalance, EventItem, EventPage, FitScore } from '../../../src/eis/index.ts';
import { createMemoryLogger } from '../../../src/log.ts';
import type { DigestSubscription, FinishedUnlockTask, FitScoreCacheEntry } from '../../../src/store/index.ts';

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
  options: { balance?: number; subscriptions?: DigestSubscription[] } = {},
) {
  const fitCalls: string[] = [];
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
      credits: { balance: async () => balanceOf(options.balance ?? 10_000) },
      events: {
        list: async () => page,
        fitScore: async (eventId: string): Promise<FitScore> => {
          fitCalls.push(eventId);
          const score = Number(eventId.slice(1)) % 10;
          return {
            event: event(0),
            score,
            recommendation: 'consider',
            breakdown: { profile_match: 0, matched_exhibitor_density: 0, event_scale: 0 },
          };
        },
        detail: async () => {
          throw new Error('not used');
        },
        rank: async () => {
          throw new Error('not used');
        },
        unlock: async () => {
          throw new Error('never charge in a digest');
        },
        unlockVisitors: async () => {
          throw new Error('never charge in a digest');
        },
        unlockFullAccess: async () => {
          throw new Error('never charge in a digest');
        },
      },
    },
    ledger: { listSince: async () => [] },
    unlockTasks: { listFinishedSince: async () => finished },
    fitScores: {
      get: async (eventId, day) => cache.get(`${eventId}/${day}`) ?? null,
      put: async (eventId, day, value) => {
        const entry: FitScoreCacheEntry = {
          type: 'fit-score',
          eventId,
          day,
          value: { score: 0, recommendation: null, ...(typeof value === 'object' ? value : {}) },
          cachedAt: NOW.toISOString(),
          expiresAt: 1,
        };
        cache.set(`${eventId}/${day}`, entry);
        return entry;
      },
    },
    subscriptions: {
      due: async () => options.subscriptions ?? [],
      advance: async () => null,
      disable: async (_team, channelId) => {
        disabled.push(channelId);
        return true;
      },
      claimDay: async (team, channel, day) => {
        const key = `${team}/${channel}/${day}`;
        if (claims.has(key)) return false;
        claims.add(key);
        return true;
      },
    },
    post: async (channelId) => {
      if (channelId === 'CGONE') throw new SlackDeliveryError('channel_not_found', { retryable: false });
      posted.push(channelId);
    },
    logger: createMemoryLogger(),
    now: () => NOW,
    sleep: async () => {},
  };
  return { deps, fitCalls, posted, disabled, finished };
}

const target = { teamId: 'T1', channelId: 'C1', timeZone: 'UTC', filters: {} };

describe('composeDigest', () => {
  it('scores a bounded number of events, best first, and reuses today’s cached scores', async () => {
    // Prepare
    const { deps, fitCalls } = setup(Array.from({ length: 20 }, (_, i) => event(i + 1)));

    // Act
    const first = await composeDigest(target, deps);
    const second = await composeDigest(target, deps);

    // Assess
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
});
