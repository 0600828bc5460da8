import * as z from 'zod';
import { EpochSeconds, Id, IsoTime, LocalDate } from '../domain/ports/records.ts';
import { ITEM_TYPE } from './keys.ts';

/**
 * The shape of every item the store reads back: the domain's records (defined with its ports) and
 * the store's own bookkeeping items. Keys (`pk`, `sk`) and index attributes (`dueKind`, `dueAt`) are
 * table plumbing and are stripped by parsing; `expiresAt` (TTL, epoch seconds) stays.
 */

/** A workspace's credits spent per service account and UTC day (the daily cap). */
export const DailySpendSchema = z.object({
  type: z.literal(ITEM_TYPE.dailySpend),
  accountId: Id,
  day: LocalDate,
  credits: z.number(),
  expiresAt: EpochSeconds,
});
export type DailySpend = z.infer<typeof DailySpendSchema>;

/** Points from a confirmation to its ledger entry, so the entry is written once. */
export const LedgerGuardSchema = z.object({
  type: z.literal(ITEM_TYPE.ledgerGuard),
  confirmationId: Id,
  teamId: Id,
  entrySk: z.string().min(1),
  expiresAt: EpochSeconds,
});

/** A channel's digest for one local day, taken by the one run that posts it. */
export const DigestDayClaimSchema = z.object({
  type: z.literal(ITEM_TYPE.digestDayClaim),
  teamId: Id,
  channelId: Id,
  localDate: LocalDate,
  claimedAt: IsoTime,
  expiresAt: EpochSeconds,
});
export type DigestDayClaim = z.infer<typeof DigestDayClaimSchema>;

/** A delivery (command, job) seen once: a second delivery with the same key does nothing. */
export const DeliverySchema = z.object({
  type: z.literal(ITEM_TYPE.delivery),
  key: Id,
  owner: Id,
  at: IsoTime,
  expiresAt: EpochSeconds,
});

/**
 * One check of a channel's watch, run a slice at a time: the slice last started, by whom, and whether
 * it is running, handed on to the next slice, or the check is done. A claim written before checks ran
 * in slices has no state: done.
 */
export const WatchCheckClaimSchema = z.object({
  type: z.literal(ITEM_TYPE.watchCheckClaim),
  teamId: Id,
  channelId: Id,
  checkId: Id,
  owner: Id,
  claimedAt: IsoTime,
  expiresAt: EpochSeconds,
  slice: z.number().int().nonnegative().default(0),
  state: z.enum(['running', 'handed-on', 'done']).default('done'),
  /** Paid look-ups the check's slices ran (a check runs at most `PAID_LOOKUPS_PER_CHECK`). */
  paidLookups: z.number().int().nonnegative().default(0),
  /** Until then no one else takes the check over (its slice may still run, its continuation still come). */
  leaseUntil: IsoTime.optional(),
});
export type WatchCheckClaim = z.infer<typeof WatchCheckClaimSchema>;

/** A channel warned that its plan's spend passed the warning share of a quarter's budget (once per budget). */
export const PlanBudgetWarningSchema = z.object({
  type: z.literal(ITEM_TYPE.planBudgetWarning),
  teamId: Id,
  channelId: Id,
  quarter: z.string().min(1),
  budgetSetAt: IsoTime,
  warnedAt: IsoTime,
  expiresAt: EpochSeconds,
});
