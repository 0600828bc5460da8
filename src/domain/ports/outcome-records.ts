import * as z from 'zod';
import { Id, IsoTime, LocalDate, RECORD_TYPE } from './record-types.ts';

// What a show brought, logged by the channel (re-exported by records.ts, with the other records).

/** What an entry records: a meeting booked or held, a graded lead, an opportunity or a deal won. */
export const OUTCOME_KINDS = ['meeting-booked', 'meeting-held', 'lead', 'opportunity', 'won'] as const;
export type OutcomeKind = (typeof OUTCOME_KINDS)[number];

/** A lead's grade, best first. */
export const LEAD_GRADES = ['A', 'B', 'C'] as const;
export type LeadGrade = (typeof LEAD_GRADES)[number];

/** What an entry says, and an edit may change (what it said before is kept in its history). */
export const OutcomeFieldsSchema = z.object({
  kind: z.enum(OUTCOME_KINDS),
  grade: z.enum(LEAD_GRADES).exactOptional(),
  hundredths: z.number().int().nonnegative().exactOptional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .exactOptional(),
  account: z.string().min(1),
  company: z.object({ exhibitorId: Id, name: z.string().min(1) }).exactOptional(),
  note: z.string().exactOptional(),
});
export type OutcomeFields = z.infer<typeof OutcomeFieldsSchema>;

/** One change of an entry, kept for good: who logged, edited or deleted it, when, and what an edit replaced. */
export const OutcomeChangeSchema = z.object({
  action: z.enum(['logged', 'edited', 'deleted']),
  by: Id,
  at: IsoTime,
  was: OutcomeFieldsSchema.exactOptional(),
});
export type OutcomeChange = z.infer<typeof OutcomeChangeSchema>;

/**
 * One thing a show brought, as its logger typed it: the show under its one public id (with its dates
 * as the service told them, for the window a return counts in), the account as typed and, when the
 * channel watches it and the watch has resolved it, the exhibitor record it is. Money in hundredths of
 * the plan's currency (none when the plan has none). An edited entry keeps what it said before in its
 * history; a deleted one is kept, marked with who and when.
 */
export const OutcomeEntrySchema = z.object({
  type: z.literal(RECORD_TYPE.outcome),
  id: Id,
  teamId: Id,
  channelId: Id,
  eventId: Id,
  showName: z.string().nullable(),
  showDateStart: LocalDate.nullable(),
  showDateEnd: LocalDate.nullable(),
  // The kind, grade, amount (hundredths, currency), account, the watch's resolved company (matched on
  // the account's name, case aside), note: what an edit may change.
  ...OutcomeFieldsSchema.shape,
  loggedBy: Id,
  loggedAt: IsoTime,
  /** The card in the channel (its `ts`), brought up to date when the entry is deleted. */
  cardTs: z.string().min(1).exactOptional(),
  deletedBy: Id.exactOptional(),
  deletedAt: IsoTime.exactOptional(),
  history: z.array(OutcomeChangeSchema),
});
export type OutcomeEntry = z.infer<typeof OutcomeEntrySchema>;
