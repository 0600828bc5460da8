import * as z from 'zod';
import { EVENT_COLUMNS } from './export-views.ts';
import { eventList } from './event-views.ts';
import { defineList, text } from './definition.ts';
import { labelsOf } from './filter-words.ts';
import { searchEvents } from '../../../domain/event-search.ts';
import { readRegion } from '../../../domain/regions.ts';

/**
 * `/events search`: the events list. Its words are the search's (shared with the digest, read in
 * `readSearchFilters` in filter-words.ts) and its Filter… is the search modal, so it has no `key:value` filters here.
 * Several words and a region are served by `searchEvents` (src/domain/event-search.ts), best matches first.
 */
export const EVENTS = defineList({
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
  read: (query, page, pageSize, eis) =>
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
    ),
  card: ({ page, query }) => eventList({ page, query }),
  export: {
    noun: 'events',
    title: (q) => (q.keywords ? `Events: ${q.keywords}` : 'Events'),
    filename: () => 'events.csv',
    columns: EVENT_COLUMNS,
    pageSize: 100,
  },
});
