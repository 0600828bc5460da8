import * as z from 'zod';
import { EventIdSchema, PersonnelIdSchema } from '../domain/ids.ts';

/**
 * What each button carries in its `value`, in one place: the views write these shapes, the listeners
 * and the worker parse them back (a button may come from a message rendered by an older release).
 */

/**
 * Every list, by the name its buttons carry; each is defined in `src/slack/features/lists/`, which holds the
 * query its Previous / Next / Filter… / Export CSV buttons carry and reads it back.
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
