import { PersonnelIdSchema } from '../../../domain/ids.ts';
import { EVENT_COLUMNS } from './export-views.ts';
import { personEventList } from './event-views.ts';
import { defineList } from './definition.ts';

/** `/events person-events <id>`: the events one person is linked to (the service's own page size). */
export const PERSON_EVENTS = defineList({
  shape: { personnelId: PersonnelIdSchema },
  filters: {},
  read: (query, page, _pageSize, eis) => eis.personnel.events(query.personnelId, page),
  names: async (query, eis) => {
    const person = await eis.personnel.profile(query.personnelId).catch(() => null);
    return { personnelId: person?.fullName };
  },
  card: ({ page, query, names }) => personEventList({ page, query, names }),
  export: {
    noun: 'events',
    title: (q) => `Events of person ${q.personnelId}`,
    filename: (q) => `person-events-${q.personnelId}.csv`,
    columns: EVENT_COLUMNS,
    pageSize: 100,
  },
});
