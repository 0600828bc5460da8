import * as z from 'zod';
import { PersonnelIdSchema } from '../../../domain/ids.ts';
import { CONTACT_COLUMNS } from './export-views.ts';
import { contactList } from './people-views.ts';
import { defineList } from './definition.ts';

/** A large set of contacts named on a card, by name, a page at a time ("Show all"). */
export const CONTACTS = defineList({
  // Unlocked contacts are the workspace's paid data: members only.
  audience: 'members',
  shape: { personnelIds: z.array(PersonnelIdSchema).min(1).max(100) },
  filters: {},
  // One free profile read per person on the page: the ids alone would say nothing to a reader, and a
  // profile holds only what is unlocked for the account.
  async read({ personnelIds }, page, pageSize, eis) {
    const ids = personnelIds.slice((page - 1) * pageSize, page * pageSize);
    const items = await Promise.all(
      ids.map((id) =>
        eis.personnel
          .profile(id)
          .catch(() => ({ id, fullName: 'Name unavailable', contactUnlockStatus: 'unknown' })),
      ),
    );
    const total = personnelIds.length;
    const totalPages = Math.ceil(total / pageSize);
    return { items, page, pageSize, total, totalPages, hasMore: page < totalPages };
  },
  card: ({ page, query }) => contactList({ page, query }),
  export: {
    noun: 'contacts',
    title: () => 'Contacts',
    filename: () => 'contacts.csv',
    columns: CONTACT_COLUMNS,
    pageSize: 25,
  },
});
