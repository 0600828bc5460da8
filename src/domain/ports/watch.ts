import type { ToldShow, WatchAccount, WatchAccountKind, WatchResolution, WatchSettings } from './records.ts';

/** The limits of a channel's watch list, read by the input rules and the store alike. */
export const WATCH_LIMITS = {
  /** Accounts one channel may watch (and lines one import may paste). */
  accountsPerChannel: 1000,
  /** Characters of one name or domain (the longest legal company names are far shorter). */
  entryLength: 200,
  /** Rows of one alert; the rest are counted ("N more"). */
  alertRows: 10,
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
  account: (teamId: string, channelId: string, key: string) => Promise<WatchAccount | null>;
  accounts: (
    teamId: string,
    channelId: string,
    page?: { limit: number; cursor?: string | null },
  ) => Promise<WatchAccountPage>;
  /** Stores a look-up's outcome; false when the account was removed meanwhile (nothing written). */
  saveLookup: (
    teamId: string,
    channelId: string,
    key: string,
    outcome: WatchLookupOutcome,
  ) => Promise<boolean>;
  setMuted: (teamId: string, channelId: string, key: string, muted: boolean) => Promise<boolean>;
  setBudget: (teamId: string, channelId: string, credits: number, setBy: string) => Promise<WatchSettings>;
  setStatus: (teamId: string, channelId: string, status: 'on' | 'off') => Promise<WatchSettings | null>;
  /** A check done: when, and when next (kept at once when the watch changed during the check). */
  checked: (
    settings: Pick<WatchSettings, 'teamId' | 'channelId' | 'revision'>,
    run: { checkedAt: Date; nextCheckAt: Date },
  ) => Promise<WatchSettings | null>;
  /** True for exactly one caller per check id (a re-delivered check posts nothing). */
  claimCheck: (teamId: string, channelId: string, checkId: string) => Promise<boolean>;
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
