import type {
  ToldShow,
  WatchAccount,
  WatchAccountKind,
  WatchCandidate,
  WatchNameSearch,
  WatchPaidLookup,
  WatchResolution,
  WatchSettings,
} from './records.ts';

/** The limits of a channel's watch list, read by the input rules and the store alike. */
export const WATCH_LIMITS = {
  /** Accounts one channel may watch (and lines one import may paste). */
  accountsPerChannel: 1000,
  /** Accounts one `add` takes at once; more are refused whole, with the import form named instead. */
  accountsPerAdd: 100,
  /** Characters of one name or domain (the longest legal company names are far shorter). */
  entryLength: 200,
  /** Rows of one alert; the rest are counted ("N more"). */
  alertRows: 10,
  /** Candidates of an ambiguous account kept and shown to choose from; the rest are added by domain. */
  candidatesShown: 5,
} as const;

/**
 * How a watch check is cut into slices of bounded work (see check.ts): the check's look-ups plan at
 * most `calls` service calls per slice (about 25 s at 1.2 s a call, 4 at once), and a slice's claim
 * is held `leaseMs`: longer than the watch functions' timeouts (5 and 10 minutes), so a claim past its
 * lease belongs to a slice that died, and the next run or delivery takes the check over.
 */
export const WATCH_SLICE = {
  calls: 80,
  leaseMs: 15 * 60_000,
} as const;

/** An account as read from the user's words, before it is stored. */
export interface WatchAccountInput {
  key: string;
  label: string;
  kind: WatchAccountKind;
}

/** What adding accounts did: the new ones, and those already watched (their kind as now given). */
export type AddAccountsResult =
  | { ok: true; added: WatchAccount[]; alreadyWatched: WatchAccount[] }
  | { ok: false; reason: 'too-many'; watched: number; adding: number };

/** What a look-up found for an account: its resolution and exhibitor ids, and the shows now told. */
export interface WatchLookupOutcome {
  resolution: WatchResolution;
  exhibitorIds: string[];
  told: ToldShow[];
  /** An ambiguous account's candidates, or a not-found one's near matches, to keep (absent: those kept stay). */
  candidates?: WatchCandidate[];
  /** A resolved account's company name, as the service's record has it (absent: the stored one stays). */
  companyName?: string;
  /** A name still not found: where it was searched (absent: the stored one is cleared). */
  nameSearch?: WatchNameSearch;
  /** The check that looked the account up (its later slices skip it). */
  checkedIn?: string;
}

/** A slice of a check, claimed: the owner token, the slice's number (0 the first), and the paid look-ups the check's earlier slices ran. */
export interface WatchSliceClaim {
  owner: string;
  slice: number;
  paidLookups: number;
}

/** A user's choice among an ambiguous account's candidates (or a not-found one's near matches), with the chosen one's shows as told. */
export interface WatchChoice {
  exhibitorId: string;
  /** The chosen record's company name, when the account kept it. */
  companyName?: string;
  chosenBy: string;
  told: ToldShow[];
}

/** A channel's check taking its workspace's one paid look-up of an account in a month. */
export interface PaidLookupClaim {
  teamId: string;
  channelId: string;
  key: string;
  month: string;
  /** The look-up's charge record, fresh for each claim: the claim's token. */
  confirmationId: string;
}

/** A page of a channel's accounts, in key order; `cursor` reads the next one. */
export interface WatchAccountPage {
  accounts: WatchAccount[];
  cursor: string | null;
}

/** A channel's watch list in the store (every call scoped by team and channel). */
export interface WatchListRepository {
  settings: (teamId: string, channelId: string) => Promise<WatchSettings | null>;
  addAccounts: (
    teamId: string,
    channelId: string,
    accounts: WatchAccountInput[],
    addedBy: string,
  ) => Promise<AddAccountsResult>;
  removeAccount: (teamId: string, channelId: string, key: string) => Promise<boolean>;
  /** Every account of the channel (a check reads them all; at most 1,000). */
  allAccounts: (teamId: string, channelId: string) => Promise<WatchAccount[]>;
  account: (teamId: string, channelId: string, key: string) => Promise<WatchAccount | null>;
  accounts: (
    teamId: string,
    channelId: string,
    page?: { limit: number; cursor?: string | null },
  ) => Promise<WatchAccountPage>;
  /**
   * Stores a look-up's outcome; false when the account was removed meanwhile, or a user chose its
   * exhibitor meanwhile and the outcome is not resolved (nothing written).
   */
  saveLookup: (
    teamId: string,
    channelId: string,
    key: string,
    outcome: WatchLookupOutcome,
  ) => Promise<boolean>;
  /**
   * Resolves an ambiguous account to one of its candidates, or a not-found one to a near match it
   * keeps; null unless it is still ambiguous with that candidate, or still not found.
   */
  chooseExhibitor: (
    teamId: string,
    channelId: string,
    key: string,
    choice: WatchChoice,
  ) => Promise<WatchAccount | null>;
  setMuted: (teamId: string, channelId: string, key: string, muted: boolean) => Promise<boolean>;
  /** The workspace's paid look-up of the account in `month` (`YYYY-MM`), by any channel; null when none yet. */
  paidLookup: (teamId: string, key: string, month: string) => Promise<WatchPaidLookup | null>;
  /** Takes the month's paid look-up of the account: the guard that holds (the caller's when its token is there). */
  claimPaidLookup: (claim: PaidLookupClaim) => Promise<WatchPaidLookup>;
  /** Keeps on the caller's guard the records its look-up found. */
  paidLookupFound: (claim: Omit<PaidLookupClaim, 'channelId'>, found: WatchCandidate[]) => Promise<void>;
  /** Gives the caller's guard back: its look-up never reached the service (the daily cap refused it, say). */
  releasePaidLookup: (claim: Omit<PaidLookupClaim, 'channelId'>) => Promise<void>;
  setBudget: (teamId: string, channelId: string, credits: number, setBy: string) => Promise<WatchSettings>;
  setStatus: (teamId: string, channelId: string, status: 'on' | 'off') => Promise<WatchSettings | null>;
  /** A check done: when, and when next (kept at once when the watch changed during the check). */
  checked: (
    settings: Pick<WatchSettings, 'teamId' | 'channelId' | 'revision'>,
    run: { checkedAt: Date; nextCheckAt: Date },
  ) => Promise<WatchSettings | null>;
  /**
   * A slice of check `checkId` for exactly one caller, null for every other (a re-delivered slice does
   * nothing). `slice`: a continuation's number, taken once the slice before it handed on (or when that
   * number's holder died); null: the hourly run's, taken when nothing holds the check (first, or its
   * holder died, or its continuation did not come within the lease) and numbered after the last.
   */
  claimCheck: (
    teamId: string,
    channelId: string,
    checkId: string,
    slice: number | null,
  ) => Promise<WatchSliceClaim | null>;
  /** Gives a slice back if `owner` still holds it, so a retry of it runs at once. */
  releaseCheck: (teamId: string, channelId: string, checkId: string, owner: string) => Promise<void>;
  /**
   * The slice is over, having run `paidLookups` paid look-ups: the next one may start (`more`), or the
   * check is done (no slice runs again).
   */
  endSlice: (
    teamId: string,
    channelId: string,
    checkId: string,
    owner: string,
    end: { next: 'more' | 'done'; paidLookups: number },
  ) => Promise<void>;
  /** The account was looked at in check `checkId` (its look-up failed, or found nothing to store). */
  markChecked: (teamId: string, channelId: string, key: string, checkId: string) => Promise<void>;
  /** Adds `credits` to the month's spend only while it stays within `budget`; false otherwise. */
  reserveSpend: (
    teamId: string,
    channelId: string,
    spend: { month: string; credits: number; budget: number },
  ) => Promise<boolean>;
  /** Gives back credits reserved this month that were not spent (an empty search). */
  releaseSpend: (
    teamId: string,
    channelId: string,
    spend: { month: string; credits: number },
  ) => Promise<void>;
  due: (query: { now: Date; limit: number }) => Promise<WatchSettings[]>;
  dueIn: (teamId: string, query: { now: Date; limit: number }) => Promise<WatchSettings[]>;
}

// ---- what a check reads from the service and posts in Slack ----

/** An exhibitor record as a check reads it: enough to match an account and to fetch its shows. */
export interface WatchExhibitor {
  id: string;
  companyName: string;
  domain?: string | null;
  website?: string | null;
  country?: string | null;
}

/** A show as the service lists it (its public event id, dates, city). */
export type WatchShow = Omit<ToldShow, 'threadTs'>;

/** A show's exhibitors as scanned: `complete` when none is hidden or left unread; `unseen`, how many are. */
export interface WatchShowScan {
  exhibitors: WatchExhibitor[];
  complete: boolean;
  unseen: number;
}

/** One of an account's people at a show (from the free people list filtered by exhibitor). */
export interface WatchPerson {
  personnelId: string;
  name: string;
  title: string | null;
}

/**
 * The service's free look-ups a check is built on (none is priced). Each throws on a failure; the
 * check then leaves that account as it was and says so in its summary.
 */
export interface WatchLookups {
  /** Every show where the exhibitor shows exhibitor evidence, past ones included. */
  exhibitorShows: (exhibitorId: string) => Promise<WatchShow[]>;
  /** Shows starting on `fromDay` or later, soonest first, at most `limit`. */
  upcomingShows: (fromDay: string, limit: number) => Promise<WatchShow[]>;
  /** One show's exhibitors whose company matches `keyword` (the service also reads descriptions). */
  showExhibitorMatches: (eventId: string, keyword: string) => Promise<WatchExhibitor[]>;
  /**
   * One show's exhibitors as the key can see them (a locked show's first 50), and whether that is all
   * of them; absent, names are searched show by show by keyword only.
   */
  showExhibitors?: (eventId: string) => Promise<WatchShowScan>;
  /**
   * The exhibitor record's company name (its free profile), for an account resolved before its name
   * was kept; absent, such an account keeps the name it was added by until a search sees its record.
   */
  exhibitorName?: (exhibitorId: string) => Promise<string>;
  /** Exhibitor records the company-context search finds for a domain (related companies too). */
  exhibitorsByDomain: (domain: string) => Promise<WatchExhibitor[]>;
  /** The exhibitor's people at a show, at most `limit`. */
  peopleAt: (eventId: string, exhibitorId: string, limit: number) => Promise<WatchPerson[]>;
  /** The team's fit score for a show (its service key's profile); free. */
  fitScore: (eventId: string) => Promise<WatchFit>;
}

/** The team's fit for a show, out of 10, and the service's recommendation when it gives one. */
export interface WatchFit {
  score: number;
  recommendation: string | null;
}

/** An account as an alert names it. */
export type WatchAlertAccount = Pick<WatchAccount, 'key' | 'label' | 'kind' | 'exhibitorIds' | 'companyName'>;

/**
 * One row of an alert: an account at a show, its people there and the team's fit for the show (only
 * for the rows shown; no fit when the score could not be read).
 */
export interface WatchAlertRow {
  account: WatchAlertAccount;
  show: WatchShow;
  people: WatchPerson[];
  fit?: WatchFit;
}

/** A channel's one alert of a check. */
export interface WatchAlertMessage {
  channelId: string;
  rows: WatchAlertRow[];
  /** Rows beyond those shown ("and N more"). */
  more: number;
  /** Every row, for Show all (people only on the shown ones). */
  all: WatchAlertRow[];
}

/** Shows that moved or dropped an account, said once in the thread of the alert that announced them. */
export interface WatchNoticeMessage {
  channelId: string;
  /** The announcing alert; null: said in the channel. */
  threadTs: string | null;
  changed: { account: WatchAlertAccount; before: WatchShow; now: WatchShow }[];
  dropped: { account: WatchAlertAccount; show: WatchShow }[];
}

/** Where a check's words go. Errors are thrown; the check has then already stored what it told. */
export interface WatchPoster {
  /** Posts the alert in the channel; the message's `ts` (its thread hears later changes). */
  postAlert: (alert: WatchAlertMessage) => Promise<{ ts: string }>;
  postNotice: (notice: WatchNoticeMessage) => Promise<void>;
}
