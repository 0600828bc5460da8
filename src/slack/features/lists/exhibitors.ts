import { EventIdSchema } from '../../../domain/ids.ts';
import { EXHIBITOR_COLUMNS } from './export-views.ts';
import { exhibitorList } from './exhibitor-views.ts';
import { defineList, text } from './definition.ts';
import { eventName } from './event-name.ts';
import { labelsOf, readEventListWords } from '../../kit/filter-reading.ts';

/** `/events exhibitors <event_id>`: the company filters and the personnel filters the service offers. */

const FILTERS = {
  country: { label: 'Country', placeholder: 'Germany' },
  category: { label: 'Categories (comma-separated)', placeholder: 'Software, Hardware' },
  industry: { label: 'Industries (comma-separated)', placeholder: 'Fintech' },
  /** Exhibitors with people of these (comma-separated) job titles, levels, departments. */
  title: { label: 'With people whose job title is (comma-separated)', placeholder: 'CTO, VP Sales' },
  level: { label: 'With people at level (comma-separated)', placeholder: 'vp, c_suite' },
  department: { label: 'With people in department (comma-separated)', placeholder: 'marketing, sales' },
};
export type ExhibitorFilterWords = Partial<Record<keyof typeof FILTERS, string>>;
export type ExhibitorsCommand = {
  name: 'exhibitors';
  eventId: string;
  keyword?: string;
  filters?: ExhibitorFilterWords;
};

export const EXHIBITORS = defineList({
  audience: 'anyone',
  shape: { eventId: EventIdSchema, keyword: text },
  filters: FILTERS,
  read: (query, page, pageSize, eis) =>
    eis.exhibitors.list({
      eventId: query.eventId,
      keyword: query.keyword,
      country: query.country,
      category: labelsOf(query.category),
      industry: labelsOf(query.industry),
      jobTitle: labelsOf(query.title),
      managementLevel: labelsOf(query.level),
      department: labelsOf(query.department),
      page,
      pageSize,
    }),
  names: eventName,
  card: ({ page, query, names }) => exhibitorList({ page, query, eventId: query.eventId, names }),
  export: {
    noun: 'exhibitors',
    title: (q) => `Exhibitors of event ${q.eventId}${q.keyword ? ` matching “${q.keyword}”` : ''}`,
    filename: (q) => `exhibitors-${q.eventId}.csv`,
    columns: EXHIBITOR_COLUMNS,
    pageSize: 100,
  },
  filterModal: {
    title: 'Filter exhibitors',
    search: { field: 'keyword', label: 'Keyword', placeholder: 'payments' },
  },
  command: {
    usage:
      'exhibitors <event_id> [keyword] [country:X] [category:X] [industry:X] [title:X] [level:X] [department:X]',
    example: 'exhibitors 26855 payments country:Germany',
    summary: 'Exhibitors of an event',
    details:
      'Keywords first, then filters: `country:`, `category:` and `industry:` (comma-separated labels), and ' +
      'exhibitors with people of a `title:`, `level:` or `department:`.',
    parse(words, filters) {
      const read = readEventListWords(words, filters);
      if (!read.ok) return read;
      const { eventId, leading, values } = read;
      const command: ExhibitorsCommand = {
        name: 'exhibitors',
        eventId,
        ...(leading ? { keyword: leading } : {}),
        ...(Object.keys(values).length > 0 ? { filters: values } : {}),
      };
      return { ok: true, command };
    },
    query: ({ eventId, keyword, filters }) => ({ eventId, keyword, ...filters }),
  },
});
