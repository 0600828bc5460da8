import * as z from 'zod';
import { EventIdSchema, PersonnelIdSchema } from '../domain/ids.ts';

/**
 * What each button carries in its `value`, in one place: the views write these shapes, the listeners
 * and the worker parse them back (a button may come from a message rendered by an older release).
 */

const text = z.string().max(500).optional();

/** The query each list is made from; Previous / Next and Share carry it back, so it is parsed again. */
export const LIST_QUERIES = {
  events: z.object({
    keywords: text,
    country: text,
    city: text,
    from: text,
    to: text,
    /** Comma-separated labels, and `yes` / `no` (the search's `type:`, `quality:`, `visitors:`). */
    type: text,
    quality: text,
    visitors: z.enum(['yes', 'no']).optional(),
  }),
  /** `category` and `industry` comma-separated (the Filter… modal). */
  exhibitors: z.object({
    eventId: EventIdSchema,
    keyword: text,
    country: text,
    category: text,
    industry: text,
  }),
  people: z.object({ eventId: EventIdSchema, query: text, department: text, level: text }),
  recommend: z.object({ eventId: EventIdSchema }),
  files: z.object({}),
  similar: z.object({ companyUrl: text, targetAudience: text }),
  'person-events': z.object({ personnelId: PersonnelIdSchema }),
  /** A large set of contacts, by name, 10 a page ("Show all"). */
  contacts: z.object({ personnelIds: z.array(PersonnelIdSchema).min(1).max(100) }),
};
export type ListKind = keyof typeof LIST_QUERIES;
export const ListKindSchema = z.enum(Object.keys(LIST_QUERIES) as [ListKind, ...ListKind[]]);

/** A list's query as the views embed it; each list's own schema reads it back. */
export type ListQuery = Record<string, unknown>;

export const ListPageValueSchema = z.object({
  list: ListKindSchema,
  query: z.record(z.string(), z.unknown()),
  page: z.number().int().min(1),
});
export type ListPageValue = z.infer<typeof ListPageValueSchema>;

export const EventValueSchema = z.object({ eventId: EventIdSchema });

export const PeopleValueSchema = z.object({ personnelIds: z.array(PersonnelIdSchema).min(1).max(100) });

export const ConfirmationValueSchema = z.object({ confirmationId: z.string().min(1).max(200) });

/** The command a private answer came from, run again in the channel when shared. */
export const CommandValueSchema = z.object({ text: z.string().min(1).max(5000) });

export const ShareValueSchema = z.union([CommandValueSchema, ListPageValueSchema]);
export type ShareValue = z.infer<typeof ShareValueSchema>;
