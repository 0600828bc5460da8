import { EventIdSchema } from '../../../domain/ids.ts';
import { SOURCE_TYPES } from '../../../eis/source-types.ts';
import { PERSON_COLUMNS } from './export-views.ts';
import { peopleList } from './people-views.ts';
import { defineList, text } from './definition.ts';
import { eventName } from './event-name.ts';
import { choiceWord, exhibitorIdWord, labelsOf, readEventListWords } from '../../kit/filter-reading.ts';

/** `/events people <event_id>`: the people of an event, preview-gated until the event is unlocked. */

const SOURCE_CHOICES: Record<(typeof SOURCE_TYPES)[number], string> = {
  exhibitor: 'Exhibitor staff',
  social: 'Social signals',
  visitors: 'Visitors',
};
const SOURCE_ALIASES = { exhibitors: 'exhibitor', 'social signals': 'social', visitor: 'visitors' };

const FILTERS = {
  exhibitor: { label: 'Exhibitor id', placeholder: '4100', check: exhibitorIdWord },
  department: { label: 'Department', placeholder: 'sales' },
  level: { label: 'Level', placeholder: 'director' },
  /** Comma-separated exhibitor, social, visitors. */
  source: {
    label: 'Source',
    choices: SOURCE_CHOICES,
    check: choiceWord(SOURCE_TYPES, SOURCE_ALIASES, 'source'),
  },
};
export type PeopleFilterWords = Partial<Record<keyof typeof FILTERS, string>>;
export type PeopleCommand = { name: 'people'; eventId: string; query?: string; filters?: PeopleFilterWords };

/** `exhibitor,visitors` → the service's source types; none when empty. */
function sourceTypesOf(text: string | undefined): (typeof SOURCE_TYPES)[number][] | undefined {
  const types = SOURCE_TYPES.filter((type) => labelsOf(text)?.includes(type));
  return types.length > 0 ? types : undefined;
}

export const PEOPLE = defineList({
  audience: 'anyone',
  shape: { eventId: EventIdSchema, query: text },
  filters: FILTERS,
  read: (query, page, pageSize, eis) =>
    eis.personnel.list({
      eventId: query.eventId,
      searchQuery: query.query,
      department: query.department,
      level: query.level,
      exhibitorId: query.exhibitor,
      sourceType: sourceTypesOf(query.source),
      page,
      pageSize,
    }),
  names: eventName,
  card: ({ page, query, names }) => peopleList({ page, query, eventId: query.eventId, names }),
  export: {
    noun: 'people',
    title: (q) => `People of event ${q.eventId}${q.query ? ` matching “${q.query}”` : ''}`,
    filename: (q) => `people-${q.eventId}.csv`,
    columns: PERSON_COLUMNS,
    pageSize: 50,
  },
  filterModal: {
    title: 'Filter people',
    search: { field: 'query', label: 'Name or role', placeholder: 'marketing' },
  },
  command: {
    usage: 'people <event_id> [name or role] [exhibitor:ID] [department:X] [level:X] [source:X]',
    example: 'people 26855 marketing level:director',
    summary: 'Event personnel',
    details:
      'A name or role first, then filters: `exhibitor:` (an exhibitor id), `department:`, `level:`, and ' +
      '`source:` (`exhibitor`, `social` or `visitors`, comma-separated).',
    parse(words, filters) {
      const read = readEventListWords(words, filters);
      if (!read.ok) return read;
      const { eventId, leading, values } = read;
      const command: PeopleCommand = {
        name: 'people',
        eventId,
        ...(leading ? { query: leading } : {}),
        ...(Object.keys(values).length > 0 ? { filters: values } : {}),
      };
      return { ok: true, command };
    },
    query: ({ eventId, query, filters }) => ({ eventId, query, ...filters }),
  },
});
