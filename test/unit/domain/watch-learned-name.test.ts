import { describe, expect, it } from 'vitest';
import type { WatchLookups } from '../../../src/domain/ports/index.ts';
import { lookupCost, lookUpAccount, lookupRun } from '../../../src/domain/watch/lookup.ts';

/* A resolved account with no company name kept (resolved before names were kept) learns it once, free. */

const TODAY = '2026-12-01';
const legacy = { key: 'name:acme', resolution: 'resolved' as const, exhibitorIds: ['4100'] };

function lookupsNaming(name: Promise<string>) {
  const calls: string[] = [];
  const lookups: WatchLookups = {
    exhibitorShows: () => Promise.resolve([]),
    upcomingShows: () => Promise.resolve([]),
    showExhibitorMatches: () => Promise.resolve([]),
    exhibitorsByDomain: () => Promise.resolve([]),
    peopleAt: () => Promise.resolve([]),
    fitScore: () => Promise.resolve({ score: 7, recommendation: null }),
    exhibitorName: (id) => {
      calls.push(id);
      return name;
    },
  };
  return { lookups, calls };
}

describe('the company name of an account resolved before names were kept', () => {
  it('is read from the exhibitor’s profile, one call planned beside its shows', async () => {
    const { lookups, calls } = lookupsNaming(Promise.resolve('Acme Analytics'));

    const lookup = await lookUpAccount(lookupRun(lookups, TODAY), legacy);

    expect(lookup).toMatchObject({ resolution: 'resolved', companyName: 'Acme Analytics' });
    expect(calls).toEqual(['4100']);
    expect(lookupCost(legacy, TODAY)).toBe(
      lookupCost({ ...legacy, companyName: 'Acme Analytics' }, TODAY) + 1,
    );
  });

  it('is not read again once kept, nor when the check’s searches saw the record', async () => {
    const { lookups, calls } = lookupsNaming(Promise.resolve('Acme Analytics'));
    const run = lookupRun(lookups, TODAY);
    run.seen.set('4100', { id: '4100', companyName: 'Acme Analytics Seen' });

    const kept = await lookUpAccount(run, { ...legacy, companyName: 'Acme Analytics' });
    const seen = await lookUpAccount(run, legacy);

    expect(kept.companyName).toBeUndefined();
    expect(seen.companyName).toBe('Acme Analytics Seen');
    expect(calls).toEqual([]);
  });

  it('leaves the look-up whole when the profile cannot be read', async () => {
    const { lookups } = lookupsNaming(Promise.reject(new Error('service down')));

    const lookup = await lookUpAccount(lookupRun(lookups, TODAY), legacy);

    expect(lookup).toMatchObject({ resolution: 'resolved', exhibitorIds: ['4100'], shows: [] });
    expect(lookup.companyName).toBeUndefined();
  });
});
