import * as z from 'zod';
import { EpochSeconds, Id, IsoTime, LocalDate, RECORD_TYPE } from './record-types.ts';

/** A UTC month, `YYYY-MM`: the period a watch's budget counts and its paid look-ups are booked in. */
const UtcMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'expected YYYY-MM');

/** The account watch's records (the watched accounts, what each was told, its paid look-ups). */

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
  spentMonth: UtcMonth.exactOptional(),
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
  month: UtcMonth,
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
