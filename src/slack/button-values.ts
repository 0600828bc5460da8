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
    /** Exhibitors with people of these (comma-separated) job titles, levels, departments. */
    title: text,
    level: text,
    department: text,
  }),
  /** `exhibitor` an exhibitor id; `source` comma-separated exhibitor, social, visitors. */
  people: z.object({
    eventId: EventIdSchema,
    query: text,
    department: text,
    level: text,
    exhibitor: text,
    source: text,
  }),
  /** The `recommend` filter words (`src/slack/list-filter-words.ts`), labels comma-separated. */
  recommend: z.object({
    eventId: EventIdSchema,
    keywords: text,
    country: text,
    category: text,
    industry: text,
    name: text,
    'employees-min': text,
    'employees-max': text,
  }),
  /** Recommended events for a company or an audience, with the `shows-for` filter words. */
  'shows-for': z.object({
    companyUrl: text,
    targetAudience: text,
    country: text,
    city: text,
    region: text,
    category: text,
    from: text,
    to: text,
    industry: text,
    'target-industry': text,
    level: text,
    title: text,
    'attendees-min': text,
    'attendees-max': text,
  }),
  similar: z.object({ companyUrl: text, targetAudience: text }),
  'person-events': z.object({ personnelId: PersonnelIdSchema }),
  /** `/events contacts`: people at a company, narrowed by title and name (a free search). */
  'contact-search': z.object({ companyName: z.string().min(1).max(200), role: text, personName: text }),
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

/** An exhibitor id, numeric as `/events account` takes it. */
export const ExhibitorValueSchema = z.object({ exhibitorId: z.string().regex(/^\d{1,20}$/) });

export const PeopleValueSchema = z.object({
  personnelIds: z.array(PersonnelIdSchema).min(1).max(100),
  /** The event whose people list the button is on: the unlock sends it as `event_id`. */
  eventId: EventIdSchema.optional(),
});

/** Draft outreach / LinkedIn activity under an unlock's results; `names` label the thread replies. */
export const FollowUpValueSchema = z.object({
  personnelIds: z.array(PersonnelIdSchema).min(1).max(100),
  names: z.record(z.string(), z.string().max(200)).optional(),
  /** The unlock's thread (the clicked reply's parent), where every answer goes. */
  threadTs: z.string().max(50).optional(),
});
export type FollowUpValue = z.infer<typeof FollowUpValueSchema>;

export const ConfirmationValueSchema = z.object({ confirmationId: z.string().min(1).max(200) });

/** The command a private answer came from, run again in the channel when shared. */
export const CommandValueSchema = z.object({ text: z.string().min(1).max(5000) });

export const ShareValueSchema = z.union([CommandValueSchema, ListPageValueSchema]);
export type ShareValue = z.infer<typeof ShareValueSchema>;
