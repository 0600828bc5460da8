import { describe, expect, it } from 'vitest';
import type { EventItem, EventListQuery, EventPage } from '../../../src/eis/index.ts';
import { MAX_ROWS_PER_WORD, searchEvents, searchWords } from '../../../src/domain/event-search.ts';

/** A fake events list: the shows whose name holds the keyword (as the service matches one keyword). */
function fakeList(events: EventItem[]) {
  const calls: EventListQuery[] = [];
  const list = (query: EventListQuery): Promise<EventPage> => {
    calls.push(query);
    const matches = events.filter(
      (e) =>
        (!query.keyword || (e.name ?? '').toLowerCase().includes(query.keyword.toLowerCase())) &&
        (!query.country || e.country === query.country),
    );
    const page = query.page ?? 1;
    const size = query.pageSize ?? 20;
    const items = matches.slice((page - 1) * size, page * size);
    const totalPages = Math.ceil(matches.length / size);
    return Promise.resolve({
      items,
      total: matches.length,
      page,
      pageSize: size,
      totalPages,
      hasMore: page < totalPages,
    });
  };
  return { list, calls };
}

const show = (eventId: string, name: string, country: string, dateStart: string): EventItem => ({
  id: eventId,
  eventId,
  name,
  country,
  dateStart,
});

const SHOWS = [
  show('1', 'Fintech Expo', 'Germany', '2027-01-10'),
  show('2', 'Payments Summit', 'Brazil', '2027-02-01'),
  show('3', 'Fintech and Payments World', 'France', '2027-05-01'),
  show('4', 'Logistics Show', 'Germany', '2027-01-05'),
  show('5', 'Payments Forum', 'United States', '2027-01-20'),
];

describe('search words', () => {
  it('splits on spaces and commas, once per word in any case, dropping link words', () => {
    expect(searchWords('fintech, payments')).toEqual(['fintech', 'payments']);
    expect(searchWords('Fintech payments fintech')).toEqual(['Fintech', 'payments']);
    expect(searchWords('shows in Berlin')).toEqual(['shows', 'Berlin']);
    expect(searchWords('"cloud infrastructure"')).toEqual(['cloud', 'infrastructure']);
    expect(searchWords('the')).toEqual(['the']);
    expect(searchWords(undefined)).toEqual([]);
  });
});

describe('searchEvents', () => {
  it('finds shows matching any word, those matching more words first, then the soonest', async () => {
    const { list, calls } = fakeList(SHOWS);

    const page = await searchEvents(list, { keywords: 'fintech payments' }, 1, 10);

    expect(page.items.map((e) => e.eventId)).toEqual(['3', '1', '5', '2']);
    expect(page.items[0]?.matchedWords).toEqual(['fintech', 'payments']);
    expect(page.items[1]?.matchedWords).toEqual(['fintech']);
    expect(page).toMatchObject({ total: 4, totalPages: 1, hasMore: false });
    expect(calls.map((call) => call.keyword)).toEqual(['fintech', 'payments']);
  });

  it('pages the merged shows itself', async () => {
    const { list } = fakeList(SHOWS);

    const second = await searchEvents(list, { keywords: 'fintech payments' }, 2, 3);

    expect(second.items.map((e) => e.eventId)).toEqual(['2']);
    expect(second).toMatchObject({ page: 2, total: 4, totalPages: 2, hasMore: false });
  });

  it('keeps a region’s countries, reading without a country', async () => {
    const { list, calls } = fakeList(SHOWS);

    const page = await searchEvents(list, { region: 'Europe' }, 1, 10);

    expect(page.items.map((e) => e.eventId)).toEqual(['4', '1', '3']);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.country).toBeUndefined();
  });

  it('leaves one word and no region to the service’s own paging: one read, as asked', async () => {
    const { list, calls } = fakeList(SHOWS);

    const page = await searchEvents(list, { keywords: 'payments', dateStartFrom: '2027-01-01' }, 2, 2);

    expect(calls).toEqual([{ keyword: 'payments', dateStartFrom: '2027-01-01', page: 2, pageSize: 2 }]);
    expect(page.items.map((e) => e.eventId)).toEqual(['5']);
  });

  it('reads at most MAX_ROWS_PER_WORD rows per word and says the total is a floor', async () => {
    const many = Array.from({ length: MAX_ROWS_PER_WORD + 50 }, (_, i) =>
      show(String(100 + i), `Expo ${i}`, 'Germany', '2027-03-01'),
    );
    const { list, calls } = fakeList(many);

    const page = await searchEvents(list, { keywords: 'expo fair' }, 1, 10);

    expect(calls.filter((call) => call.keyword === 'expo')).toHaveLength(MAX_ROWS_PER_WORD / 100);
    expect(page.total).toBe(MAX_ROWS_PER_WORD);
    expect(page.capped).toBe(true);
  });
});
