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

// ---- account watch ----

/** A watched account is a target (a prospect, a customer) or a competitor. */
export const WatchAccountKindSchema = z.enum(['target', 'competitor']);
export type WatchAccountKind = z.infer<typeof WatchAccountKindSchema>;

/**
 * A show the channel was told an account exhibits at, as it was told (dates, city): a later check
 * compares with it. `threadTs`: the message that told it, whose thread hears if it changes.
 */
export const ToldShowSchema = z.object({
  eventId: Id,
  name: z.string().nullable(),
  dateStart: LocalDate.nullable(),
  dateEnd: LocalDate.nullable(),
  city: z.string().nullable(),
  /** The show's country (where a region puts it); absent on shows told before it was kept. */
  country: z.string().nullable().exactOptional(),
  threadTs: z.string().min(1).exactOptional(),
});
export type ToldShow = z.infer<typeof ToldShowSchema>;

/**
 * How far an account is matched to the service's exhibitor records: `pending` (not looked up yet),
 * `resolved` (one exhibitor, or the one a user chose), `ambiguous` (several; a user chooses),
 * `not-found` (no exhibitor record matches yet).
 */
export const WatchResolutionSchema = z.enum(['pending', 'resolved', 'ambiguous', 'not-found']);
export type WatchResolution = z.infer<typeof WatchResolutionSchema>;

/** One candidate of an ambiguous account, as the channel is shown it to choose from. */
export const WatchCandidateSchema = z.object({
  id: Id,
  companyName: z.string().min(1),
  domain: z.string().nullable(),
  website: z.string().nullable(),
  country: z.string().nullable(),
});
export type WatchCandidate = z.infer<typeof WatchCandidateSchema>;

/** One account a channel watches, with what the channel was last told about it. */
export const WatchAccountSchema = z.object({
  type: z.literal(RECORD_TYPE.watchAccount),
  teamId: Id,
  channelId: Id,
  /** The normalised name or domain (`name:acme robotics`, `domain:globex.com`): one account per key. */
  key: Id,
  /** As the user wrote it (the first spelling, when several merged). */
  label: z.string().min(1),
  kind: WatchAccountKindSchema,
  resolution: WatchResolutionSchema,
  /** The exhibitor records this account is (one when resolved; the candidates when ambiguous). */
  exhibitorIds: z.array(Id),
  /**
   * The first candidates of an ambiguous account, shown to choose from (the rest: by domain); for one
   * not found, the near matches its name search saw (`Initech Retail` for `Initech`), offered the same way.
   */
  candidates: z.array(WatchCandidateSchema).exactOptional(),
  /** The service's company name of the exhibitor a resolved account is (shown instead of the label). */
  companyName: z.string().min(1).exactOptional(),
  /** The user who chose this account's exhibitor among its candidates: no check re-opens it. */
  chosenBy: Id.exactOptional(),
  chosenAt: IsoTime.exactOptional(),
  muted: z.boolean(),
  addedBy: Id,
  addedAt: IsoTime,
  /** Absent until the first look-up: that one records the shows as told, without an alert. */
  told: z.array(ToldShowSchema).exactOptional(),
  toldAt: IsoTime.exactOptional(),
  /** The check (its id) that last looked this account up: that check's later slices skip it. */
  checkedIn: Id.exactOptional(),
  /** A name not found yet: where it has been searched (see `NAME_SEARCH_REPEAT_DAYS` in lookup.ts). */
  nameSearch: z
    .object({
      /** The day every upcoming show's exhibitor list was last searched for it. */
      fullOn: LocalDate,
      /** The upcoming shows searched since then (only others are searched until the week is up). */
      eventIds: z.array(Id),
    })
    .exactOptional(),
});
export type WatchAccount = z.infer<typeof WatchAccountSchema>;
export type WatchNameSearch = NonNullable<WatchAccount['nameSearch']>;

/** A channel's watch: whether it runs, its monthly budget for paid look-ups, and when it is checked. */
export const WatchSettingsSchema = z.object({
  type: z.literal(RECORD_TYPE.watchSettings),
  teamId: Id,
  channelId: Id,
  status: z.enum(['on', 'off']),
  /** Credits per month the scheduled paid name look-ups may spend; 0: free look-ups only. */
  budgetCredits: z.number().int().nonnegative(),
  budgetSetBy: Id.exactOptional(),
  /** The UTC month (`YYYY-MM`) `spentCredits` counts, and what paid look-ups spent in it. */
  spentMonth: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'expected YYYY-MM')
    .exactOptional(),
  spentCredits: z.number().int().nonnegative(),
  /** Raised by every change to the accounts or settings: a check started before it does not reschedule. */
  revision: z.number().int().nonnegative(),
  createdAt: IsoTime,
  updatedAt: IsoTime,
  lastCheckAt: IsoTime.exactOptional(),
  /** When the channel is next checked (in the due indexes while on). */
  nextCheckAt: IsoTime,
});
export type WatchSettings = z.infer<typeof WatchSettingsSchema>;

/**
 * A workspace's one paid name look-up of an account in a UTC month (`YYYY-MM`), whichever of its
 * channels ran it: written before the charge, so no remove and re-add, second channel, retry or crash
 * runs a second one that month. What it found is kept for the workspace's other channels.
 */
export const WatchPaidLookupSchema = z.object({
  type: z.literal(RECORD_TYPE.watchPaidLookup),
  teamId: Id,
  /** The account's key (`name:acme robotics`), as every channel of the workspace normalises it. */
  key: Id,
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'expected YYYY-MM'),
  /** The channel whose check ran it (and whose budget paid). */
  channelId: Id,
  /** The look-up's charge record: the claim's token, and the only writer of `found`. */
  confirmationId: Id,
  claimedAt: IsoTime,
  /** The exhibitor records it found that are the account (several: to choose from); absent until then, or when none. */
  found: z.array(WatchCandidateSchema).exactOptional(),
  expiresAt: EpochSeconds,
});
export type WatchPaidLookup = z.infer<typeof WatchPaidLookupSchema>;

export * from './plan-records.ts';
