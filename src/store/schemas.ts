import { z } from 'zod';
import { LOCAL_DATE_PATTERN, LOCAL_TIME_PATTERN } from '../domain/local-time.ts';
import { ITEM_TYPE } from './keys.ts';

/**
 * The shape of every item the store reads back. Keys (`pk`, `sk`) and index attributes (`dueKind`,
 * `dueAt`) are table plumbing and are stripped by parsing; `expiresAt` (TTL, epoch seconds) stays.
 */

const Id = z.string().min(1);
const IsoTime = z.iso.datetime();
const LocalDate = z.string().regex(LOCAL_DATE_PATTERN, 'expected YYYY-MM-DD');
const EpochSeconds = z.number().int().positive();
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

export const ConfirmationSchema = z.object({
  type: z.literal(ITEM_TYPE.confirmation),
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
  cancelledBy: Id.optional(),
  cancelledAt: IsoTime.optional(),
});
export type Confirmation = z.infer<typeof ConfirmationSchema>;

// ---- daily spend (the workspace's cap) ----

export const DailySpendSchema = z.object({
  type: z.literal(ITEM_TYPE.dailySpend),
  accountId: Id,
  day: LocalDate,
  credits: z.number(),
  expiresAt: EpochSeconds,
});
export type DailySpend = z.infer<typeof DailySpendSchema>;

// ---- ledger ----

export const LedgerEntrySchema = z.object({
  type: z.literal(ITEM_TYPE.ledgerEntry),
  id: Id,
  teamId: Id,
  channelId: Id.optional(),
  userId: Id,
  action: z.string().min(1),
  credits: z.number(),
  eventId: Id.optional(),
  personnelIds: z.array(Id).optional(),
  traceId: z.string().optional(),
  confirmationId: Id.optional(),
  /** The service did not confirm the charge: `credits` is the quoted price that may have been spent. */
  outcomeUnknown: z.boolean().optional(),
  /**
   * A confirmed charge's entry is written `pending` before the service is called and settled after:
   * `charged`, `refused` (the service said no: 0 credits) or `unknown`. Absent on entries written whole.
   */
  status: z.enum(['pending', 'charged', 'refused', 'unknown']).optional(),
  at: IsoTime,
  expiresAt: EpochSeconds,
});
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;

export const LedgerGuardSchema = z.object({
  type: z.literal(ITEM_TYPE.ledgerGuard),
  confirmationId: Id,
  teamId: Id,
  entrySk: z.string().min(1),
  expiresAt: EpochSeconds,
});

// ---- unlock tasks ----

export const UnlockKindSchema = z.enum(['email', 'phone']);
export type UnlockKind = z.infer<typeof UnlockKindSchema>;

export const SkippedPersonSchema = z.object({ personnelId: Id, reason: z.string() });
export type SkippedPerson = z.infer<typeof SkippedPersonSchema>;

export const UnlockTaskSchema = z.object({
  type: z.literal(ITEM_TYPE.unlockTask),
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
  createdAt: IsoTime,
  /** Polls made so far (set by the poller through `reschedule`). */
  attempts: z.number().int().nonnegative(),
  nextPollAt: IsoTime,
  leaseOwner: z.string().optional(),
  leaseExpiresAt: IsoTime.optional(),
  resultPostedAt: IsoTime.optional(),
  postedBy: z.string().optional(),
  outcome: JsonSchema.optional(),
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
  type: z.literal(ITEM_TYPE.finishedUnlockTask),
  finishedAt: IsoTime,
  outcome: JsonSchema,
});
export type FinishedUnlockTask = z.infer<typeof FinishedUnlockTaskSchema>;

// ---- digests ----

export const DigestFiltersSchema = z.object({
  keywords: z.string().optional(),
  country: z.string().optional(),
  city: z.string().optional(),
  from: z.string().optional(),
  to: z.string().optional(),
});
export type DigestFilters = z.infer<typeof DigestFiltersSchema>;

export const DigestSubscriptionSchema = z.object({
  type: z.literal(ITEM_TYPE.digestSubscription),
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

export const DigestDayClaimSchema = z.object({
  type: z.literal(ITEM_TYPE.digestDayClaim),
  teamId: Id,
  channelId: Id,
  localDate: LocalDate,
  claimedAt: IsoTime,
  expiresAt: EpochSeconds,
});
export type DigestDayClaim = z.infer<typeof DigestDayClaimSchema>;

// ---- caches and idempotency ----

/** A delivery (command, job) seen once: a second delivery with the same key does nothing. */
export const DeliverySchema = z.object({
  type: z.literal(ITEM_TYPE.delivery),
  key: Id,
  owner: Id,
  at: IsoTime,
  expiresAt: EpochSeconds,
});

export const FitScoreCacheEntrySchema = z.object({
  type: z.literal(ITEM_TYPE.fitScore),
  eventId: Id,
  day: LocalDate,
  value: JsonSchema,
  cachedAt: IsoTime,
  expiresAt: EpochSeconds,
});
export type FitScoreCacheEntry = z.infer<typeof FitScoreCacheEntrySchema>;
