import * as z from 'zod';
import { EventIdSchema, PersonnelIdSchema } from '../../../domain/ids.ts';

/**
 * What the lists' buttons carry in their `value`: the views write these shapes, the listeners and the
 * worker parse them back (a button may come from a message rendered by an older release).
 */

/**
 * Every list, by the name its buttons carry; each is defined in this folder, which holds the query its
 * Previous / Next / Filter… / Export CSV buttons carry and reads it back.
 */
export const LIST_KINDS = [
  'events',
  'exhibitors',
  'people',
  'recommend',
  'shows-for',
  'similar',
  'person-events',
  'contact-search',
  'contacts',
] as const;
export type ListKind = (typeof LIST_KINDS)[number];
export const ListKindSchema = z.enum(LIST_KINDS);

/** A list's query as the views embed it; each list's own schema reads it back. */
export type ListQuery = Record<string, unknown>;

/** Previous / Next, Filter…, Export CSV and Show all; also half of what Share carries (`views/share.ts`). */
export const ListPageValueSchema = z.object({
  list: ListKindSchema,
  query: z.record(z.string(), z.unknown()),
  page: z.number().int().min(1),
});
export type ListPageValue = z.infer<typeof ListPageValueSchema>;

/** Emails / Phones under a people list. */
export const PeopleValueSchema = z.object({
  personnelIds: z.array(PersonnelIdSchema).min(1).max(100),
  /** The event whose people list the button is on: the unlock sends it as `event_id`. */
  eventId: EventIdSchema.optional(),
});
