import { describe, expect, it } from 'vitest';
import type { ToldShow, WatchAccount } from '../../../src/domain/ports/records.ts';
import { compareAppearances } from '../../../src/domain/watch/appearances.ts';
import { pageOf, rankWatchedShows } from '../../../src/domain/watch/where.ts';

const TODAY = '2026-11-28';

const show = (eventId: string, dateStart: string | null, country: string | null = 'Germany'): ToldShow => ({
  eventId,
  name: `Show ${eventId}`,
  dateStart,
  dateEnd: dateStart,
  city: 'Berlin',
  country,
});

const account = (label: string, kind: WatchAccount['kind'], told: ToldShow[]) => ({ label, kind, told });

describe('rankWatchedShows', () => {
  it('puts the show with most watched accounts first, counting targets and competitors apart', () => {
    // Prepare
    const big = show('1', '2027-05-10');
    const small = show('2', '2027-01-10');
    const accounts = [
      account('Acme', 'target', [big, small]),
      account('Globex', 'target', [big]),
      account('Initech', 'competitor', [big]),
      account('Umbrella', 'competitor', []),
    ];

    // Act
    const ranked = rankWatchedShows(accounts, TODAY);

    // Assess
    expect(ranked.map((r) => r.show.eventId)).toEqual(['1', '2']);
    expect(ranked[0]).toMatchObject({ targets: ['Acme', 'Globex'], competitors: ['Initech'] });
    expect(ranked[1]).toMatchObject({ targets: ['Acme'], competitors: [] });
  });

  it('ranks equal counts by more targets, then the sooner show', () => {
    const a = show('a', '2027-03-01');
    const b = show('b', '2027-02-01');
    const c = show('c', '2027-01-01');
    const ranked = rankWatchedShows(
      [account('Acme', 'target', [a, b]), account('Globex', 'competitor', [c])],
      TODAY,
    );
    expect(ranked.map((r) => r.show.eventId)).toEqual(['b', 'a', 'c']);
  });

  it('leaves out shows that started, and counts an account once per show', () => {
    const past = show('p', '2026-11-01');
    const ahead = show('x', '2027-01-01');
    const ranked = rankWatchedShows([account('Acme', 'target', [past, ahead, ahead])], TODAY);
    expect(ranked.map((r) => r.show.eventId)).toEqual(['x']);
    expect(ranked[0]?.targets).toEqual(['Acme']);
  });

  it('keeps a region’s shows by their country; a show without a country is in none', () => {
    const berlin = show('de', '2027-01-01', 'Germany');
    const vegas = show('us', '2027-01-01', 'United States');
    const unknown = show('?', '2027-01-01', null);
    const accounts = [account('Acme', 'target', [berlin, vegas, unknown])];
    expect(rankWatchedShows(accounts, TODAY, { region: 'Europe' }).map((r) => r.show.eventId)).toEqual([
      'de',
    ]);
    expect(rankWatchedShows(accounts, TODAY, { region: 'North America' }).map((r) => r.show.eventId)).toEqual(
      ['us'],
    );
  });

  it('keeps the shows starting in the days given, and leaves out undated ones then', () => {
    const q1 = show('q1', '2027-02-15');
    const q2 = show('q2', '2027-05-15');
    const undated = show('u', null);
    const accounts = [account('Acme', 'target', [q1, q2, undated])];
    expect(
      rankWatchedShows(accounts, TODAY, { from: '2027-04-01', to: '2027-06-30' }).map((r) => r.show.eventId),
    ).toEqual(['q2']);
    expect(rankWatchedShows(accounts, TODAY).map((r) => r.show.eventId)).toEqual(['q1', 'q2', 'u']);
  });
});

describe('pageOf', () => {
  it('cuts pages and gives the last page for a page past the end', () => {
    const items = Array.from({ length: 12 }, (_, i) => i);
    expect(pageOf(items, 2, 5)).toEqual({ items: [5, 6, 7, 8, 9], page: 2, pages: 3, total: 12 });
    expect(pageOf(items, 9, 5)).toMatchObject({ items: [10, 11], page: 3 });
    expect(pageOf([], 1, 5)).toEqual({ items: [], page: 1, pages: 1, total: 0 });
  });
});

describe('a show told before its country was kept', () => {
  it('is stored again with its country at the next check, with nothing to say', () => {
    // Prepare
    const { country: _country, ...toldBefore } = show('1', '2027-01-01', 'Germany');

    // Act
    const comparison = compareAppearances([show('1', '2027-01-01', 'Germany')], [toldBefore], TODAY);

    // Assess
    expect(comparison).toMatchObject({ appeared: [], changed: [], dropped: [], toldChanged: true });
    expect(comparison.told[0]?.country).toBe('Germany');
  });
});
