import { EventIdSchema } from '../../../domain/ids.ts';
import { RECOMMENDED_COLUMNS } from './export-views.ts';
import { recommendedExhibitorList } from './exhibitor-views.ts';
import { defineList, text } from './definition.ts';
import { eventName } from './event-name.ts';
import { labelsOf, numberOf, readEventListWords, wholeNumberWord } from '../../kit/filter-reading.ts';

/** `/events recommend <event_id>`: the event's exhibitors recommended for the caller's profile. */

const FILTERS = {
  country: {},
  category: {},
  industry: {},
  /** Exact company names. */
  name: {},
  'employees-min': { check: wholeNumberWord },
  'employees-max': { check: wholeNumberWord },
};
/** `keywords` are the words before the filters (over company name and description). */
export type RecommendFilterWords = Partial<Record<keyof typeof FILTERS | 'keywords', string>>;
export type RecommendCommand = { name: 'recommend'; eventId: string; filters: RecommendFilterWords };

export const RECOMMEND = defineList({
  audience: 'anyone',
  shape: { eventId: EventIdSchema, keywords: text },
  filters: FILTERS,
  read: (query, page, pageSize, eis) =>
    eis.recommendations.exhibitors({
      eventId: query.eventId,
      page,
      pageSize,
      searchQuery: query.keywords,
      location: query.country,
      category: labelsOf(query.category),
      industry: labelsOf(query.industry),
      exhibitorName: labelsOf(query.name),
      employeesMin: numberOf(query['employees-min']),
      employeesMax: numberOf(query['employees-max']),
    }),
  names: eventName,
  card: ({ page, query, names }) => recommendedExhibitorList({ page, query, names }),
  export: {
    noun: 'exhibitors',
    title: (q) => `Recommended exhibitors of event ${q.eventId}`,
    filename: (q) => `recommended-${q.eventId}.csv`,
    columns: RECOMMENDED_COLUMNS,
    pageSize: 100,
  },
  command: {
    usage:
      'recommend <event_id> [keywords] [country:X] [category:X] [industry:X] [name:X] [employees-min:N] [employees-max:N]',
    example: 'recommend 26855 industry:Software employees-min:50',
    summary: 'Recommended exhibitors',
    details:
      'Keywords (company name or description) first, then filters: `country:`, `category:`, `industry:` and ' +
      '`name:` (exact company names; labels comma-separated), `employees-min:`, `employees-max:`.',
    parse(words, filterWords) {
      const read = readEventListWords(words, filterWords);
      if (!read.ok) return read;
      const { eventId, leading, values } = read;
      const filters: RecommendFilterWords = leading ? { ...values, keywords: leading } : values;
      const command: RecommendCommand = { name: 'recommend', eventId, filters };
      return { ok: true, command };
    },
    query: ({ eventId, filters }) => ({ eventId, ...filters }),
  },
});
