import * as z from 'zod';
import { EventIdSchema, PersonnelIdSchema } from '../../domain/ids.ts';

/** The most people one `emails` / `phones` unlocks. */
export const CONTACTS_AT_ONCE = 100;

/** The people of a contact unlock, and the event of their list. */
const ContactUnlockShape = {
  personnelIds: z.array(PersonnelIdSchema).min(1).max(CONTACTS_AT_ONCE),
  fromEventId: EventIdSchema.optional(),
};

/**
 * What the jobs carry from a button or a form to the worker, with their bounds: the job schema
 * (`jobs.ts`) parses them on arrival, and the rooms that write and read them import them from here.
 */

/**
 * What Share in channel carries for an answer to a command: the command a private answer came from,
 * run again in the channel when shared (`share.ts`).
 */
export const CommandValueSchema = z.object({ text: z.string().min(1).max(5000) });

/** A paid search's words, at most as the parser takes them. */
const SearchedName = z.string().trim().min(1).max(200);
const SearchPage = z.number().int().min(1).max(9999).optional();

/**
 * A charge asked for again: Start again on an expired or cancelled card, a paid search's Previous /
 * Next (the search for that page). The action as its command asks for it, without what its card read
 * (the show, the people's names); the charges room turns it into that command (`CHARGE_BUTTONS`).
 */
export const AskAgainValueSchema = z.object({
  askAgain: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('event-unlock'), eventId: EventIdSchema }),
    z.object({ kind: z.literal('visitors-unlock'), eventId: EventIdSchema }),
    z.object({ kind: z.literal('full-access-unlock'), eventId: EventIdSchema }),
    z.object({ kind: z.literal('email-unlock'), ...ContactUnlockShape }),
    z.object({ kind: z.literal('phone-unlock'), ...ContactUnlockShape }),
    z.object({ kind: z.literal('people-by-name'), fullName: SearchedName, page: SearchPage }),
    z.object({ kind: z.literal('exhibitor-events'), companyName: SearchedName, page: SearchPage }),
    z.object({ kind: z.literal('exhibitor-search'), companyName: SearchedName, page: SearchPage }),
  ]),
});
export type AskAgainValue = z.infer<typeof AskAgainValueSchema>;
export type AskAgain = AskAgainValue['askAgain'];

/**
 * Every list, by the name its buttons carry; each is defined in `features/lists/`, which holds the query its
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

/** Previous / Next, Filter…, Export CSV and Show all; also half of what Share carries (`share.ts`). */
export const ListPageValueSchema = z.object({
  list: ListKindSchema,
  query: z.record(z.string(), z.unknown()),
  page: z.number().int().min(1),
});
export type ListPageValue = z.infer<typeof ListPageValueSchema>;

/** Draft outreach / LinkedIn activity under an unlock's results; `names` label the thread replies. */
export const FollowUpValueSchema = z.object({
  personnelIds: z.array(PersonnelIdSchema).min(1).max(100),
  names: z.record(z.string(), z.string().max(200)).optional(),
  /** The unlock's thread (the clicked reply's parent), where every answer goes. */
  threadTs: z.string().max(50).optional(),
  /** The event whose people list the unlock started from: the drafts are written for it. */
  eventId: EventIdSchema.optional(),
});
export type FollowUpValue = z.infer<typeof FollowUpValueSchema>;

/**
 * The longest command text taken (a longer one is refused whole, never cut): room for `watch add`'s
 * accounts at their longest (100 of 200 characters, each with `competitor:` and a comma).
 */
export const COMMAND_TEXT_MAX = 25_000;

/** How many shows one compare card holds: two to compare at all, five to stay readable on a phone. */
export const MIN_SHOWS = 2;
export const MAX_SHOWS = 5;

/** Slack's plain-text input holds at most 3,000 characters; ten boxes hold about 1,000 names. */
export const IMPORT_BOX_CHARS = 3000;
export const IMPORT_BOXES = 10;
/** The most an import's text may be: every box full, joined by newlines. */
export const IMPORT_MAX_CHARS = IMPORT_BOXES * (IMPORT_BOX_CHARS + 1);
