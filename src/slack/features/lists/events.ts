import * as z from 'zod';
import { EVENT_COLUMNS } from './export-views.ts';
import { eventList } from './event-views.ts';
import { defineList, text } from './definition.ts';
import {
  type EventSearchFilters,
  labelsOf,
  readSearchFilters,
  SEARCH_KEYS,
} from '../../kit/filter-reading.ts';
import { searchEvents } from '../../../domain/event-search.ts';
import { readRegion } from '../../../domain/regions.ts';

const FILTER_WORDS =
  'Search words first: a show matches any of them, shows matching more words first (up to 5 words). ' +
  'Then filters `keywords:`, `country:` or `region:` (Europe, DACH, Nordics, North America, LATAM, APAC, ' +
  'Middle East), `city:`, `when:Q2-2027` or `when:2027-03`, or `from:YYYY-MM-DD` and `to:YYYY-MM-DD`, ' +
  '`type:` and `quality:` (labels, comma-separated: `type:Trade Show,Conference`), `visitors:yes` or `no`; ' +
  'a value runs to the next filter, so `country:United States` and `region:North America` need no quotes.';

export type SearchCommand = { name: 'search'; filters: EventSearchFilters };

/**
 * `/events search`: the events list. Its words are the search's (shared with the digest, read in
 * `readSearchFilters` in filter-reading.ts) and its Filter… is the search modal, so it has no `key:value` filters here.
 * Several words and a region are served by `searchEvents` (src/domain/event-search.ts), best matches first.
 */
export const EVENTS = defineList({
  audience: 'anyone',
  shape: {
    keywords: text,
    country: text,
    /** A region of src/domain/regions.ts (`North America`). */
    region: text,
    city: text,
    from: text,
    to: text,
    /** Comma-separated labels, and `yes` / `no` (the search's `type:`, `quality:`, `visitors:`). */
    type: text,
    quality: text,
    visitors: z.enum(['yes', 'no']).optional(),
  },
  filters: {},
  read: (query, page, pageSize, eis, today) =>
    searchEvents(
      (request) => eis.events.list(request),
      {
        keywords: query.keywords,
        region: query.region === undefined ? undefined : readRegion(query.region),
        country: query.country,
        city: query.city,
        dateStartFrom: query.from,
        dateStartTo: query.to,
        eventType: labelsOf(query.type),
        quality: labelsOf(query.quality),
        hasVisitors: query.visitors === undefined ? undefined : query.visitors === 'yes' ? 1 : 0,
      },
      page,
      pageSize,
      today,
    ),
  card: ({ page, query, today }) => eventList({ page, query, today }),
  export: {
    noun: 'events',
    title: (q) => (q.keywords ? `Events: ${q.keywords}` : 'Events'),
    filename: () => 'events.csv',
    columns: EVENT_COLUMNS,
    pageSize: 100,
  },
  command: {
    usage:
      'search <keywords> [country:X] [region:Europe] [city:X] [when:Q2-2027] [from:YYYY-MM-DD] [to:YYYY-MM-DD] [type:X] [quality:X] [visitors:yes|no]',
    example: 'search fintech payments region:Europe',
    summary: 'Find trade shows',
    details: FILTER_WORDS,
    parse(words) {
      const { filters, problem } = readSearchFilters(words, SEARCH_KEYS);
      if (problem) return { ok: false, problem };
      if (Object.keys(filters).length === 0)
        return { ok: false, problem: 'Give some search words or a filter.' };
      const command: SearchCommand = { name: 'search', filters };
      return { ok: true, command };
    },
    query: ({ filters }) => ({ ...filters }),
  },
});
