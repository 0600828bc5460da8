import { describe, expect, it } from 'vitest';
import type { ToldShow } from '../../../src/domain/ports/index.ts';
import {
  type AccountCheck,
  announcedIn,
  compareAppearances,
  planWatchPosts,
  type SeenShow,
} from '../../../src/domain/watch/index.ts';

const TODAY = '2031-05-14';

const show = (eventId: string, dateStart: string | null, overrides: Partial<SeenShow> = {}): SeenShow => ({
  eventId,
  name: `Show ${eventId}`,
  dateStart,
  dateEnd: dateStart,
  city: 'Berlin',
  ...overrides,
});

describe('comparing an account’s shows with what the channel was told', () => {
  it('takes the shows of a just added account as told, without an alert', () => {
    const result = compareAppearances([show('e2', '2031-07-01'), show('e1', '2031-06-01')], undefined, TODAY);

    expect(result.appeared).toEqual([]);
    expect(result.told.map((told) => told.eventId)).toEqual(['e1', 'e2']);
    expect(result.toldChanged).toBe(true);
  });

  it('finds a new appearance and adds it to what was told', () => {
    const told: ToldShow[] = [{ ...show('e1', '2031-06-01'), threadTs: '111.1' }];

    const result = compareAppearances([show('e1', '2031-06-01'), show('e2', '2031-09-10')], told, TODAY);

    expect(result.appeared).toEqual([show('e2', '2031-09-10')]);
    expect(result.changed).toEqual([]);
    expect(result.dropped).toEqual([]);
    expect(result.told).toEqual([...told, show('e2', '2031-09-10')]);
  });

  it('says nothing and writes nothing when nothing changed', () => {
    const told: ToldShow[] = [{ ...show('e1', '2031-06-01'), threadTs: '111.1' }];

    const result = compareAppearances([show('e1', '2031-06-01')], told, TODAY);

    expect(result).toEqual({ appeared: [], changed: [], dropped: [], told, toldChanged: false });
    expect(planWatchPosts([{ account: acme, comparison: result }])).toEqual({ alert: null, notices: [] });
  });

  it('says a postponed show once, in the thread that announced it', () => {
    const told: ToldShow[] = [{ ...show('e1', '2031-06-01'), threadTs: '111.1' }];
    const moved = show('e1', '2031-10-01');

    const first = compareAppearances([moved], told, TODAY);
    const second = compareAppearances([moved], first.told, TODAY);

    expect(first.changed).toEqual([{ before: told[0], now: moved, datesChanged: true, cityChanged: false }]);
    expect(first.told).toEqual([{ ...moved, threadTs: '111.1' }]);
    expect(second.changed).toEqual([]);
    expect(second.toldChanged).toBe(false);
    const posts = planWatchPosts([{ account: acme, comparison: first }]);
    expect(posts.alert).toBeNull();
    expect(posts.notices).toEqual([
      { threadTs: '111.1', changed: [{ account: acme, change: first.changed[0] }], dropped: [] },
    ]);
  });

  it('says a dropped show once, and forgets a show that has started without a word', () => {
    const told: ToldShow[] = [
      { ...show('past', '2031-05-10'), threadTs: '100.1' },
      { ...show('gone', '2031-06-01'), threadTs: '111.1' },
      show('kept', '2031-07-01'),
    ];

    const first = compareAppearances([show('kept', '2031-07-01')], told, TODAY);
    const second = compareAppearances([show('kept', '2031-07-01')], first.told, TODAY);

    expect(first.dropped).toEqual([told[1]]);
    expect(first.told).toEqual([show('kept', '2031-07-01')]);
    expect(second.dropped).toEqual([]);
  });

  it('reads shows that started before today as past, not as appearances', () => {
    const result = compareAppearances([show('old', '2031-05-13'), show('today', TODAY)], [], TODAY);

    expect(result.appeared.map((seen) => seen.eventId)).toEqual(['today']);
  });

  it('marks the shows an alert announced with its message, for their later changes', () => {
    const told = [show('e1', '2031-06-01'), show('e2', '2031-07-01')];

    expect(announcedIn(told, ['e2'], '222.2')).toEqual([told[0], { ...told[1], threadTs: '222.2' }]);
  });
});

const acme = { key: 'name:acme', label: 'Acme', kind: 'target', muted: false } as const;
const initech = { key: 'name:initech', label: 'Initech', kind: 'competitor', muted: false } as const;

const appearing = (account: AccountCheck['account'], shows: SeenShow[]): AccountCheck => ({
  account,
  comparison: compareAppearances(shows, [], TODAY),
});

describe('one alert per channel per check', () => {
  it('groups every account’s new shows, sorted by date', () => {
    const posts = planWatchPosts([
      appearing(acme, [show('a2', '2031-09-01'), show('a1', '2031-06-01')]),
      appearing(initech, [show('i1', '2031-07-01')]),
    ]);

    expect(posts.alert?.rows.map((row) => [row.account.label, row.show.eventId])).toEqual([
      ['Acme', 'a1'],
      ['Initech', 'i1'],
      ['Acme', 'a2'],
    ]);
    expect(posts.alert?.more).toBe(0);
  });

  it('shows at most 10 rows and counts the rest', () => {
    const shows = Array.from({ length: 13 }, (_, index) =>
      show(`e${index}`, `2031-06-${String(index + 10)}`),
    );

    const posts = planWatchPosts([appearing(acme, shows)]);

    expect(posts.alert?.rows).toHaveLength(10);
    expect(posts.alert?.rows[0]?.show.eventId).toBe('e0');
    expect(posts.alert?.more).toBe(3);
    expect(posts.alert?.all).toHaveLength(13);
  });

  it('leaves a muted account out', () => {
    const posts = planWatchPosts([appearing({ ...acme, muted: true }, [show('a1', '2031-06-01')])]);

    expect(posts.alert).toBeNull();
  });
});
