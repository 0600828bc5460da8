import * as z from 'zod';
import { LOCAL_TIME_PATTERN } from '../../time/local-time.ts';
import { EpochSeconds, Id, IsoTime, LocalDate, RECORD_TYPE, UnlockKindSchema } from './record-types.ts';

/**
 * The records the domain works with, defined once: the store keeps them in this shape and parses
 * every one it reads back against it. Each carries its `type` (the table tells its items apart by
 * it) and its `expiresAt` (the table's TTL, epoch seconds).
 */

export {
  EpochSeconds,
  Id,
  IsoTime,
  LocalDate,
  RECORD_TYPE,
  UnlockKindSchema,
  type UnlockKind,
} from './record-types.ts';
export const JsonSchema = z.json();
export type Json = z.infer<typeof JsonSchema>;

// ---- confirmations ----

export const ConfirmationStatusSchema = z.enum([
  'pending',
  'running',
  'succeeded',
  'failed',
  'cancelled',
  'expired',
]);
export type ConfirmationStatus = z.infer<typeof ConfirmationStatusSchema>;

/** What the user is asked to confirm: stored as given; only `kind` is known to the store. */
export const ConfirmationActionSchema = z.looseObject({ kind: z.string().min(1) });
export type ConfirmationAction = z.infer<typeof ConfirmationActionSchema>;

export const PriceSchema = z.object({ credits: z.number().nonnegative(), upTo: z.boolean() });
export type Price = z.infer<typeof PriceSchema>;

/**
 * A charge no one clicked Confirm for, approved ahead: a scheduled watch look-up within the monthly
 * budget `setBy` (an admin or approver) set for the channel. Stored on its confirmation and ledger entry.
 */
export const PreApprovalSchema = z.object({
  kind: z.literal('watch-budget'),
  setBy: Id,
  channelId: Id,
});
export type PreApproval = z.infer<typeof PreApprovalSchema>;

export const ConfirmationSchema = z.object({
  type: z.literal(RECORD_TYPE.confirmation),
  id: Id,
  teamId: Id,
  channelId: Id,
  requestedBy: Id,
  action: ConfirmationActionSchema,
  price: PriceSchema,
  messageTs: z.string().optional(),
  status: ConfirmationStatusSchema,
  createdAt: IsoTime,
  /** Last instant the confirmation can be claimed. */
  deadline: IsoTime,
  /** TTL: the record outlives its deadline by a week, for support questions and the audit trail. */
  expiresAt: EpochSeconds,
  confirmedBy: Id.optional(),
  claimedAt: IsoTime.optional(),
  claimToken: z.string().optional(),
  /**
   * Set once, by the one worker run that calls the service (in the write-ahead transaction that also
   * writes the pending ledger entry and the cap reservation): a retried run sees it and stays away.
   */
  chargeStartedAt: IsoTime.optional(),
  /** Which run started the charge: a run whose answer was lost recognises its own write. */
  chargeAttempt: z.string().optional(),
  /** The service account whose daily cap holds the reservation, and its UTC day. */
  chargeAccount: z.string().optional(),
  chargeDay: LocalDate.optional(),
  /** Credits reserved under the cap when the charge started (the quoted price). */
  reserved: z.number().nonnegative().optional(),
  finishedAt: IsoTime.optional(),
  outcome: JsonSchema.optional(),
  /** When the reconciler last asked the service about this charge's unknown outcome. */
  askedAt: IsoTime.optional(),
  cancelledBy: Id.optional(),
  cancelledAt: IsoTime.optional(),
  preApproval: PreApprovalSchema.optional(),
});
export type Confirmation = z.infer<typeof ConfirmationSchema>;

// ---- ledger ----

const LedgerEntryFieldsSchema = z.object({
  type: z.literal(RECORD_TYPE.ledgerEntry),
  id: Id,
  teamId: Id,
  channelId: Id.optional(),
  /** Who asked for the charge: the spend is theirs. */
  requestedBy: Id,
  /** Who confirmed it (the requester, or an approver); for a pre-approved one, who set the budget. */
  confirmedBy: Id,
  action: z.string().min(1),
  credits: z.number(),
  eventId: Id.optional(),
  personnelIds: z.array(Id).optional(),
  traceId: z.string().optional(),
  confirmationId: Id.optional(),
  /** The service did not confirm the charge: `credits` is the quoted price that may have been spent. */
  outcomeUnknown: z.boolean().optional(),
  /** An unknown outcome the bot still asks the service about, until then; absent once it stopped. */
  askUntil: IsoTime.optional(),
  /** When the service later showed whether an unknown outcome was charged (`status` says which). */
  outcomeConfirmedAt: IsoTime.optional(),
  /**
   * A confirmed charge's entry is written `pending` before the service is called and settled after:
   * `charged`, `refused` (the service said no: 0 credits) or `unknown`. Absent on entries written whole.
   */
  status: z.enum(['pending', 'charged', 'refused', 'unknown']).optional(),
  /** Set when no one confirmed the charge: what approved it ahead. */
  preApproval: PreApprovalSchema.optional(),
  at: IsoTime,
  expiresAt: EpochSeconds,
});

/**
 * Entries written before both people were kept name one `userId` (who confirmed): they read as asked
 * and confirmed by that user.
 */
function withBothPeople(item: unknown): unknown {
  if (typeof item !== 'object' || item === null || 'requestedBy' in item) return item;
  const { userId, ...rest } = item as { userId?: unknown };
  return userId === undefined ? item : { ...rest, requestedBy: userId, confirmedBy: userId };
}

export const LedgerEntrySchema = z.preprocess(withBothPeople, LedgerEntryFieldsSchema);
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;

// ---- unlocks charged per service account ----

/**
 * An unlock as the service charges it: once per service account, whichever workspace asks. Contacts
 * are sorted, so the same people asked in another order are the same unlock.
 */
export const UnlockSchema = z.object({
  action: z.string().min(1),
  eventId: Id.exactOptional(),
  personnelIds: z.array(Id).exactOptional(),
});
export type Unlock = z.infer<typeof UnlockSchema>;

/**
 * Which confirmation's charge paid for an unlock on a service account (the first settled as charged
 * wins). Kept a few days: the reconciler reads it within minutes of a worker dying.
 */
export const ChargedUnlockSchema = z.object({
  type: z.literal(RECORD_TYPE.chargedUnlock),
  accountId: Id,
  unlock: UnlockSchema,
  confirmationId: Id,
  teamId: Id,
  chargedAt: IsoTime,
  expiresAt: EpochSeconds,
});
export type ChargedUnlock = z.infer<typeof ChargedUnlockSchema>;

// ---- unlock tasks ----

export const SkippedPersonSchema = z.object({ personnelId: Id, reason: z.string() });
export type SkippedPerson = z.infer<typeof SkippedPersonSchema>;

/**
 * A follow-up in a contact unlock's thread, polled with the unlock tasks: AI outreach drafts (per
 * person, for the internal event id each was drafted for) or a LinkedIn activity analysis.
 */
export const FollowUpSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('outreach'), eventIds: z.record(z.string(), z.string()) }),
  z.object({ kind: z.literal('linkedin') }),
]);
export type FollowUp = z.infer<typeof FollowUpSchema>;

export const UnlockTaskSchema = z.object({
  type: z.literal(RECORD_TYPE.unlockTask),
  taskId: Id,
  kind: UnlockKindSchema,
  teamId: Id,
  channelId: Id,
  threadTs: Id,
  requestedBy: Id,
  personnelIds: z.array(Id),
  /** Display names by personnel id, where the bot could look them up when the unlock was asked for. */
  names: z.record(z.string(), z.string()).optional(),
  skipped: z.array(SkippedPersonSchema),
  confirmationId: Id.optional(),
  /**
   * The service account whose key submitted the task (set when a charge's settlement creates it): only
   * that key can read its progress, so a run with another key stops it instead of polling.
   */
  serviceAccount: Id.optional(),
  /** Set on a follow-up task (drafts, LinkedIn activity): `kind` is then the unlock it follows. */
  followUp: FollowUpSchema.optional(),
  createdAt: IsoTime,
  /** Polls made so far (set by the poller through `reschedule`). */
  attempts: z.number().int().nonnegative(),
  nextPollAt: IsoTime,
  /** What the card's waiting line last said (`waitingShownKey`): it is rewritten only when that changes. */
  waitingShown: z.string().optional(),
  /** A follow-up's people known to be over (ready or failed): its next poll reads only the others. */
  followUpSettled: z.array(Id).optional(),
  leaseOwner: z.string().optional(),
  leaseExpiresAt: IsoTime.optional(),
  resultPostedAt: IsoTime.optional(),
  postedBy: z.string().optional(),
  outcome: JsonSchema.optional(),
  /** Set when the task was ended without a result (its workspace removed the app). */
  stoppedAt: IsoTime.optional(),
  stoppedReason: z.string().optional(),
  slackFailures: z.number().int().nonnegative(),
  lastSlackFailure: z.object({ at: IsoTime, reason: z.string() }).optional(),
  expiresAt: EpochSeconds,
});
export type UnlockTask = z.infer<typeof UnlockTaskSchema>;

/** A copy of a task whose result was posted, kept per team for the daily digest. */
export const FinishedUnlockTaskSchema = UnlockTaskSchema.pick({
  taskId: true,
  kind: true,
  teamId: true,
  channelId: true,
  threadTs: true,
  requestedBy: true,
  personnelIds: true,
  confirmationId: true,
  expiresAt: true,
}).extend({
  type: z.literal(RECORD_TYPE.finishedUnlockTask),
  finishedAt: IsoTime,
  outcome: JsonSchema,
});
export type FinishedUnlockTask = z.infer<typeof FinishedUnlockTaskSchema>;

// ---- digests ----

export const DigestFiltersSchema = z.object({
  keywords: z.string().optional(),
  country: z.string().optional(),
  /** A region of src/domain/regions.ts (`North America`). */
  region: z.string().optional(),
  city: z.string().optional(),
  from: z.string().optional(),
  to: z.string().optional(),
});
export type DigestFilters = z.infer<typeof DigestFiltersSchema>;

export const DigestSubscriptionSchema = z.object({
  type: z.literal(RECORD_TYPE.digestSubscription),
  teamId: Id,
  channelId: Id,
  time: z.string().regex(LOCAL_TIME_PATTERN, 'expected HH:MM'),
  timeZone: z.string().min(1),
  filters: DigestFiltersSchema,
  createdBy: Id,
  createdAt: IsoTime,
  updatedAt: IsoTime,
  status: z.enum(['active', 'disabled']),
  nextRunAt: IsoTime,
  lastRunAt: IsoTime.optional(),
  disabledReason: z.string().optional(),
  disabledAt: IsoTime.optional(),
});
export type DigestSubscription = z.infer<typeof DigestSubscriptionSchema>;

/** An event's fit score, cached per day (any digest that day reads it instead of asking again). */
export const FitScoreCacheEntrySchema = z.object({
  type: z.literal(RECORD_TYPE.fitScore),
  eventId: Id,
  day: LocalDate,
  value: JsonSchema,
  cachedAt: IsoTime,
  expiresAt: EpochSeconds,
});
export type FitScoreCacheEntry = z.infer<typeof FitScoreCacheEntrySchema>;

export * from './watch-records.ts';
export * from './plan-records.ts';
export * from './outcome-records.ts';
