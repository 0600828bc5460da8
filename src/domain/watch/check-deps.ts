import type { Logger } from '../../platform/log.ts';
import type { WatchListRepository, WatchLookups, WatchPoster } from '../ports/watch.ts';
import type { PaidLookupDeps } from './paid-lookup.ts';
import type { LookupMemo } from './shared-lookups.ts';

/** What a watch check works with, and what names one: shared by check.ts and check-posts.ts. */

export interface WatchCheckDeps {
  watchLists: Pick<
    WatchListRepository,
    | 'settings'
    | 'allAccounts'
    | 'saveLookup'
    | 'markChecked'
    | 'checked'
    | 'claimCheck'
    | 'releaseCheck'
    | 'endSlice'
  >;
  lookups: WatchLookups;
  poster: WatchPoster;
  logger: Logger;
  now: () => Date;
  /** Scheduled checks only: the look-ups' answers shared by the checks of the service account. */
  sharedLookups?: LookupMemo;
  /** Scheduled checks only: paid name look-ups within the channel's budget (absent: free only). */
  paidLookup?: PaidLookupDeps;
}

export interface WatchCheckRequest {
  teamId: string;
  channelId: string;
  /** Identifies this check: its accounts looked up once, each slice run once. */
  checkId: string;
  /** A continuation's slice number (absent: the hourly run's or a command's, whichever is next). */
  slice?: number;
  /**
   * The last slice a command's check (`/events watch check`, after a change) runs: the accounts it
   * does not reach are left to the hourly run (the channel is made due at once), not to a next slice.
   */
  restHourly?: true;
}
