import { describe, expect, it } from 'vitest';
import type { WatchLookups } from '../../../src/domain/ports/index.ts';
import {
  createLookupMemos,
  SHARED_LOOKUP_MS,
  sharedLookups,
} from '../../../src/domain/watch/shared-lookups.ts';

/** Look-ups that count their calls by name and answer the event id back. */
function countedLookups() {
  const calls: string[] = [];
  const answer =
    <T>(name: string, value: T) =>
    (...args: unknown[]) => {
      calls.push(`${name}:${args.join(',')}`);
      return Promise.resolve(value);
    };
  const lookups: WatchLookups = {
    exhibitorShows: answer('exhibitorShows', []),
    upcomingShows: answer('upcomingShows', []),
    showExhibitorMatches: answer('showExhibitorMatches', []),
    showExhibitors: answer('showExhibitors', { exhibitors: [], complete: true, unseen: 0 }),
    exhibitorsByDomain: answer('exhibitorsByDomain', []),
    peopleAt: answer('peopleAt', []),
    fitScore: answer('fitScore', { score: 7, recommendation: null }),
  };
  return { lookups, calls };
}

describe('look-ups shared by the scheduled checks of a service account', () => {
  it('reads a show’s exhibitors once for every check of the account, and again for another account', async () => {
    // Prepare
    const { lookups, calls } = countedLookups();
    const memos = createLookupMemos(() => new Date('2026-12-01T09:00:00Z'));

    // Act
    for (const account of ['acct-a', 'acct-a', 'acct-b'])
      await sharedLookups(lookups, memos.forAccount(account)).showExhibitors?.('ev-1');

    // Assess
    expect(calls).toEqual(['showExhibitors:ev-1', 'showExhibitors:ev-1']);
  });

  it('never shares an exhibitor’s shows: each check reads them fresh', async () => {
    const { lookups, calls } = countedLookups();
    const memos = createLookupMemos(() => new Date('2026-12-01T09:00:00Z'));

    await sharedLookups(lookups, memos.forAccount('acct-a')).exhibitorShows('ex-1');
    await sharedLookups(lookups, memos.forAccount('acct-a')).exhibitorShows('ex-1');

    expect(calls).toEqual(['exhibitorShows:ex-1', 'exhibitorShows:ex-1']);
  });

  it('asks again after a failure, and once the period is over', async () => {
    // Prepare
    const { lookups, calls } = countedLookups();
    let now = Date.parse('2026-12-01T09:00:00Z');
    const memos = createLookupMemos(() => new Date(now));
    const failing: WatchLookups = {
      ...lookups,
      upcomingShows: (...args) =>
        calls.length === 0
          ? (calls.push('failed'), Promise.reject(new Error('down')))
          : lookups.upcomingShows(...args),
    };
    const shared = () => sharedLookups(failing, memos.forAccount('acct-a'));

    // Act
    await expect(shared().upcomingShows('2026-12-01', 20)).rejects.toThrow('down');
    await shared().upcomingShows('2026-12-01', 20);
    await shared().upcomingShows('2026-12-01', 20);
    now += SHARED_LOOKUP_MS;
    await shared().upcomingShows('2026-12-01', 20);

    // Assess
    expect(calls).toEqual(['failed', 'upcomingShows:2026-12-01,20', 'upcomingShows:2026-12-01,20']);
  });
});
