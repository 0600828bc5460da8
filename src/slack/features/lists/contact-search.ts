import * as z from 'zod';
import { CONTACT_COLUMNS } from './export-views.ts';
import { contactsCard } from './contacts-views.ts';
import { defineList, text } from './definition.ts';

/** `/events contacts`: people at a company, narrowed by title and name (a free search). */
export const CONTACT_SEARCH = defineList({
  audience: 'anyone',
  shape: { companyName: z.string().min(1).max(200), role: text, personName: text },
  filters: {},
  read: (query, page, pageSize, eis) => eis.contacts.search({ ...query, page, pageSize }),
  card: ({ page, query }) => contactsCard({ page, query }),
  export: {
    noun: 'contacts',
    title: (q) => `Contacts at ${q.companyName}`,
    filename: () => 'contacts-search.csv',
    // The free search, as the card shows it: an email or phone only where it is already unlocked.
    // A contact may have no name on file: its row has an empty one.
    columns: {
      header: CONTACT_COLUMNS.header,
      row: (person) => CONTACT_COLUMNS.row({ ...person, fullName: person.fullName ?? '' }),
    },
    pageSize: 100,
  },
});
