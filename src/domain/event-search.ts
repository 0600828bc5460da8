import type { EventItem, EventListQuery, EventPage } from '../eis/index.ts';
import { pageOf } from './paging.ts';
import { isPastShow } from './past-show.ts';
import { isInRegion, type Region } from './regions.ts';

/**
 * Search as a seller means it (issue 26): several words, a show matching any of them and shows matching
 * more words first, and a region of countries. The service's events list takes one `keyword` (matched
 * as one piece of text) and one `country`, so several words are one free events-list read per word,
 * and a region is a read without `country` keeping the region's countries; the rows are merged, ranked
 * and paged here. One word and no region stays a single read paged by the service. The search command,
 * the Search modal, Export CSV and the digest all read through `searchEvents`.
 */

/** Words one search reads (one events-list read, or more, per word). */
export const MAX_SEARCH_WORDS = 5;
/** Rows read per word (pages of `READ_PAGE_SIZE`): a bound on the calls one search page costs. */
export const MAX_ROWS_PER_WORD = 300;
const READ_PAGE_SIZE = 100;
/** Words that name no topic: dropped when other words are given, as `in` would match every show. */
const LINK_WORDS = new Set(['a', 'an', 'and', 'or', 'the', 'of', 'in', 'on', 'at', 'for', 'to', 'with', '&']);

/** `fintech, payments` / `Fintech payments fintech` → `['fintech', 'payments']`; link words dropped. */
export function searchWords(text: string | undefined): string[] {
  const all = (text ?? '')
    .replace(/"/g, ' ')
    .split(/[\s,;]+/)
    .filter(Boolean);
  const unique = all.filter(
    (word, index) => all.findIndex((other) => other.toLowerCase() === word.toLowerCase()) === index,
  );
  const topical = unique.filter((word) => !LINK_WORDS.has(word.toLowerCase()));
  return topical.length > 0 ? topical : unique;
}

/** A show found by a search of several words, with the words it matched (in the search's order). */
export type FoundEvent = EventItem & { matchedWords?: readonly string[] };

export interface EventSearchPage {
  items: FoundEvent[];
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
  hasMore: boolean;
  /** Some word matched more shows than were read (`MAX_ROWS_PER_WORD`): `total` is a floor. */
  capped?: boolean;
}

export type ListEvents = (query: EventListQuery) => Promise<EventPage>;
export type EventSearchQuery = Omit<EventListQuery, 'page' | 'pageSize' | 'keyword'> & {
  keywords?: string | undefined;
  region?: Region | undefined;
};

/** Every row one keyword matches, up to `MAX_ROWS_PER_WORD`, and whether that was all of them. */
async function readWord(list: ListEvents, query: EventListQuery, keyword: string | undefined) {
  const rows: EventItem[] = [];
  const maxPages = MAX_ROWS_PER_WORD / READ_PAGE_SIZE;
  for (let page = 1; page <= maxPages; page++) {
    const read = await list({ ...query, keyword, page, pageSize: READ_PAGE_SIZE });
    rows.push(...read.items);
    if (!read.hasMore) return { rows, complete: true };
  }
  return { rows, complete: false };
}

const byDate = (a: FoundEvent, b: FoundEvent) =>
  (a.dateStart ?? '9999').localeCompare(b.dateStart ?? '9999') || a.eventId.localeCompare(b.eventId);

/**
 * One page of the shows matching any of the words (more words first, then soonest), in the region.
 * Given `today` and no dates, shows still ahead (or running) come before ended ones, the latest ended
 * first: the rows are then read and ranked here, as for several words.
 */
export async function searchEvents(
  list: ListEvents,
  { keywords, region, ...filters }: EventSearchQuery,
  page: number,
  pageSize: number,
  today?: string,
): Promise<EventSearchPage> {
  const words = searchWords(keywords);
  const aheadFirst = today !== undefined && !filters.dateStartFrom && !filters.dateStartTo;
  if (words.length <= 1 && !region && !aheadFirst) {
    const read = await list({ ...filters, keyword: words[0], page, pageSize });
    return { ...read, items: read.items };
  }
  const reads = await Promise.all(
    (words.length > 0 ? words : [undefined]).map((word) => readWord(list, filters, word)),
  );
  const found = new Map<string, { event: EventItem; matched: string[] }>();
  reads.forEach(({ rows }, index) => {
    const word = words[index];
    for (const event of rows) {
      if (region && !isInRegion(event.country, region)) continue;
      const seen = found.get(event.eventId) ?? { event, matched: [] };
      if (word && !seen.matched.includes(word)) seen.matched.push(word);
      found.set(event.eventId, seen);
    }
  });
  const matchCount = (event: FoundEvent) => event.matchedWords?.length ?? 0;
  const ended = (event: FoundEvent) => (aheadFirst && isPastShow(event, today) ? 1 : 0);
  const ranked = [...found.values()]
    .map(({ event, matched }): FoundEvent => (words.length > 1 ? { ...event, matchedWords: matched } : event))
    .sort(
      (a, b) =>
        ended(a) - ended(b) ||
        matchCount(b) - matchCount(a) ||
        (ended(a) ? byDate(b, a) : byDate(a, b)),
    );
  return {
    ...pageOf(ranked, page, pageSize),
    ...(reads.some((read) => !read.complete) ? { capped: true } : {}),
  };
}
