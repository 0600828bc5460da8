import { PERSONNEL_ID_PATTERN, PersonnelIdSchema } from '../../../domain/ids.ts';
import { EVENT_COLUMNS } from './export-views.ts';
import { personEventList } from './event-views.ts';
import { defineList } from './definition.ts';
import { type ReadWords, readFilterWords } from '../../kit/filter-reading.ts';
import { shown } from '../../kit/command-arguments.ts';

/** The person's events' `key:value` filters (none yet: every word after the id is extra). */
const FILTERS = {};
export type PersonEventsFilterWords = Partial<Record<keyof typeof FILTERS, string>>;
export type PersonEventsCommand = {
  name: 'person-events';
  personnelId: string;
  filters?: PersonEventsFilterWords;
};

/** `/events person-events <id>`: the events one person is linked to (the service's own page size). */
export const PERSON_EVENTS = defineList({
  audience: 'anyone',
  shape: { personnelId: PersonnelIdSchema },
  filters: FILTERS,
  read: (query, page, _pageSize, eis) => eis.personnel.events(query.personnelId, page),
  names: async (query, eis) => {
    const person = await eis.personnel.profile(query.personnelId).catch(() => null);
    return { personnelId: person?.fullName };
  },
  card: ({ page, query, names, today }) => personEventList({ page, query, names, today }),
  export: {
    noun: 'events',
    title: (q) => `Events of person ${q.personnelId}`,
    filename: (q) => `person-events-${q.personnelId}.csv`,
    columns: EVENT_COLUMNS,
    pageSize: 100,
  },
  command: {
    usage: 'person-events <personnel_id>',
    example: 'person-events 100001',
    summary: 'Events a person is linked to',
    parse(words, filters) {
      const [id, ...rest] = words;
      if (!id) return { ok: false, problem: 'The personnel id is missing.' };
      if (!PERSONNEL_ID_PATTERN.test(id))
        return { ok: false, problem: `${shown(id)} is not a personnel id; ids are digits, like \`100001\`.` };
      // Without filters, every word after the id is extra (a `key:value` one too).
      const read: ReadWords =
        Object.keys(filters).length > 0
          ? readFilterWords(rest, filters)
          : { leading: rest.join(' '), values: {} };
      if (read.problem) return { ok: false, problem: read.problem };
      if (read.leading)
        return {
          ok: false,
          problem: `\`person-events\` takes one personnel id; ${shown(read.leading)} is extra.`,
        };
      const { values } = read;
      const command: PersonEventsCommand = {
        name: 'person-events',
        personnelId: id,
        ...(Object.keys(values).length > 0 ? { filters: values } : {}),
      };
      return { ok: true, command };
    },
    query: ({ personnelId, filters }) => ({ personnelId, ...filters }),
  },
});
