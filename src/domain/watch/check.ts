import { AppError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/log.ts';
import type { ToldShow, WatchAccount } from '../ports/records.ts';
import type {
  WatchAlertMessage,
  WatchAlertRow,
  WatchFit,
  WatchListRepository,
  WatchLookups,
  WatchPoster,
} from '../ports/watch.ts';
import { type AccountCheck, planWatchPosts, type ThreadNotice, type WatchAlert } from './alert.ts';
import { announcedIn, compareAppearances } from './appearances.ts';
import { nextWatchCheck } from './budget.ts';
import {
  type AccountLookup,
  countingLookups,
  lookUpAccount,
  lookupOutcome,
  type LookupRun,
  lookupRun,
  nameSearchChanged,
  toldBefore,
} from './lookup.ts';
import { type PaidLookupDeps, type PaidLookupRun, paidLookupRun, withPaidLookup } from './paid-lookup.ts';
import { inPool } from '../pool.ts';
import { utcDate } from '../../time/local-time.ts';

/** People shown per alert row (names and titles from the free people list). */
export const PEOPLE_PER_ROW = 3;
/** Accounts looked up at once: room under the service's per-key concurrency for people using the bot. */
const LOOKUP_CONCURRENCY = 4;

export interface WatchCheckDeps {
  watchLists: Pick<
    WatchListRepository,
    'settings' | 'allAccounts' | 'saveLookup' | 'checked' | 'claimCheck' | 'releaseCheck'
  >;
  lookups: WatchLookups;
  poster: WatchPoster;
  logger: Logger;
  now: () => Date;
  /** Scheduled checks only: paid name look-ups within the channel's budget (absent: free only). */
  paidLookup?: PaidLookupDeps;
}

export interface WatchCheckRequest {
  teamId: string;
  channelId: string;
  /** Identifies this check: a re-delivered one (same id) posts nothing. */
  checkId: string;
}

export interface WatchCheckSummary {
  /** Accounts the channel watches (0 when it watches nothing or is off). */
  accounts: number;
  /** Calls made to the service (all free: a check never makes a paid one). */
  serviceCalls: number;
  postedAlert: boolean;
  appeared: number;
  changed: number;
  dropped: number;
  /** Accounts whose look-up failed: left as they were, tried again at the next check. */
  failed: number;
  /** This check id was claimed before: nothing was done. */
  alreadyChecked: boolean;
}

export const emptyWatchCheck = (): WatchCheckSummary => ({
  accounts: 0,
  serviceCalls: 0,
  postedAlert: false,
  appeared: 0,
  changed: 0,
  dropped: 0,
  failed: 0,
  alreadyChecked: false,
});

/** An account with what its look-up found now and what the channel will have been told. */
interface Looked {
  account: WatchAccount;
  lookup: AccountLookup;
  told: ToldShow[];
  comparison: AccountCheck['comparison'];
}

/** Looks every account up (free, then paid within the budget); a failed look-up leaves its account out, counted. */
async function lookUpAll(
  run: LookupRun,
  paid: PaidLookupRun | null,
  accounts: readonly WatchAccount[],
  logger: Logger,
) {
  const looked: Looked[] = [];
  const failures: unknown[] = [];
  await inPool(accounts, LOOKUP_CONCURRENCY, async (account) => {
    try {
      const lookup = await withPaidLookup(paid, run, account, await lookUpAccount(run, account));
      const comparison = compareAppearances(lookup.shows, toldBefore(account, lookup), run.today);
      looked.push({ account, lookup, told: comparison.told, comparison });
    } catch (error) {
      failures.push(error);
      logger.warn('a watched account could not be looked up', { accountKey: account.key, error });
    }
  });
  return { looked, failures };
}

/**
 * Every look-up failed, at least one for a passing reason (the service down, say): the check learned
 * nothing, so it fails and is retried rather than recorded as done for a day. Failures that will not
 * pass (an exhibitor record gone) are recorded as done, so they do not retry every hour.
 */
function failedWhole(accounts: number, failures: readonly unknown[]): AppError | null {
  if (accounts === 0 || failures.length < accounts) return null;
  if (!failures.some((error) => error instanceof AppError && error.retryable)) return null;
  return new AppError('WATCH_CHECK_FAILED', `every one of ${accounts} watched accounts failed to look up`, {
    cause: failures[0],
    retryable: true,
  });
}

const lookupChanged = ({ account, lookup, comparison }: Looked) =>
  comparison.toldChanged ||
  account.resolution !== lookup.resolution ||
  account.exhibitorIds.join() !== lookup.exhibitorIds.join() ||
  nameSearchChanged(account.nameSearch, lookup.nameSearch);

/** Stores what each account's channel will have been told (before it is posted: said at most once). */
async function saveTold(deps: WatchCheckDeps, request: WatchCheckRequest, looked: readonly Looked[]) {
  for (const item of looked.filter(lookupChanged)) {
    await deps.watchLists.saveLookup(
      request.teamId,
      request.channelId,
      item.account.key,
      lookupOutcome(item.lookup, item.told),
    );
  }
}

/** The team's fit for each show, one free call per show; a score that cannot be read is left out. */
async function fitsOf(deps: WatchCheckDeps, lookups: WatchLookups, eventIds: readonly string[]) {
  const fits = new Map<string, WatchFit>();
  await Promise.all(
    [...new Set(eventIds)].map(async (eventId) => {
      try {
        fits.set(eventId, await lookups.fitScore(eventId));
      } catch (error) {
        deps.logger.warn('the fit score of a watched show could not be read', { eventId, error });
      }
    }),
  );
  return fits;
}

/** The alert's rows with each shown row's people and fit (a failed look-up shows none). */
async function alertMessage(
  deps: WatchCheckDeps,
  lookups: WatchLookups,
  channelId: string,
  alert: WatchAlert,
  byKey: ReadonlyMap<string, Looked>,
): Promise<WatchAlertMessage> {
  const rowOf = ({ account, show }: WatchAlert['all'][number]): WatchAlertRow => {
    const looked = byKey.get(account.key);
    const exhibitorIds = looked?.lookup.exhibitorIds ?? [];
    return {
      account: { key: account.key, label: account.label, kind: account.kind, exhibitorIds },
      show,
      people: [],
    };
  };
  const withPeople = async (row: WatchAlertRow): Promise<WatchAlertRow> => {
    const exhibitorId = row.account.exhibitorIds[0];
    if (!exhibitorId) return row;
    try {
      return { ...row, people: await lookups.peopleAt(row.show.eventId, exhibitorId, PEOPLE_PER_ROW) };
    } catch (error) {
      deps.logger.warn('the people of a watched account at a show could not be read', { error });
      return row;
    }
  };
  const [withoutFit, fits] = await Promise.all([
    Promise.all(alert.rows.map(rowOf).map(withPeople)),
    fitsOf(
      deps,
      lookups,
      alert.rows.map((row) => row.show.eventId),
    ),
  ]);
  const rows = withoutFit.map((row) => {
    const fit = fits.get(row.show.eventId);
    return fit ? { ...row, fit } : row;
  });
  return { channelId, rows, more: alert.more, all: [...rows, ...alert.all.slice(rows.length).map(rowOf)] };
}

const alertAccountOf = (account: WatchAccount) => ({
  key: account.key,
  label: account.label,
  kind: account.kind,
  exhibitorIds: account.exhibitorIds,
});

/** Each change or drop, in the thread of the alert that announced its show (once: told already moved on). */
async function postNotices(
  deps: WatchCheckDeps,
  channelId: string,
  notices: ThreadNotice[],
  byKey: ReadonlyMap<string, Looked>,
) {
  const accountOf = (key: string) => {
    const looked = byKey.get(key);
    return looked ? alertAccountOf(looked.account) : undefined;
  };
  for (const notice of notices) {
    const changed = notice.changed.flatMap(({ account, change }) => {
      const found = accountOf(account.key);
      return found ? [{ account: found, before: change.before, now: change.now }] : [];
    });
    const dropped = notice.dropped.flatMap(({ account, show }) => {
      const found = accountOf(account.key);
      return found ? [{ account: found, show }] : [];
    });
    await deps.poster.postNotice({ channelId, threadTs: notice.threadTs, changed, dropped });
  }
}

/** Marks the alert's shows as announced in message `ts`, so their later changes go to its thread. */
async function rememberAlert(
  deps: WatchCheckDeps,
  request: WatchCheckRequest,
  alert: WatchAlert,
  byKey: ReadonlyMap<string, Looked>,
  ts: string,
) {
  const eventsByKey = new Map<string, string[]>();
  for (const { account, show } of alert.all)
    eventsByKey.set(account.key, [...(eventsByKey.get(account.key) ?? []), show.eventId]);
  for (const [key, eventIds] of eventsByKey) {
    const looked = byKey.get(key);
    if (!looked) continue;
    await deps.watchLists.saveLookup(request.teamId, request.channelId, key, {
      resolution: looked.lookup.resolution,
      exhibitorIds: looked.lookup.exhibitorIds,
      told: announcedIn(looked.told, eventIds, ts),
    });
  }
}

/** Whether the check has posted anything yet: after that, its claim is kept even if it fails. */
interface CheckProgress {
  posted: boolean;
}

/**
 * One check of a channel's watch: claims `checkId` (a re-delivered check does nothing), looks every
 * account up on free calls only, stores what the channel will have been told, then posts at most one
 * alert (new appearances) and the changes and drops in the threads that announced them. Storing
 * first means a check that dies before posting loses that alert rather than a later check repeating
 * it. Then the channel is rescheduled (at once again if its watch changed meanwhile). A check that
 * fails before posting anything gives its claim back, so the queue's retry of the same id runs it.
 */
export async function checkWatchedChannel(
  deps: WatchCheckDeps,
  request: WatchCheckRequest,
): Promise<WatchCheckSummary> {
  const { teamId, channelId, checkId } = request;
  const owner = await deps.watchLists.claimCheck(teamId, channelId, checkId);
  if (owner === null) return { ...emptyWatchCheck(), alreadyChecked: true };
  const progress: CheckProgress = { posted: false };
  try {
    return await runClaimedCheck(deps, request, progress);
  } catch (error) {
    if (!progress.posted) await releaseClaim(deps, request, owner);
    throw error;
  }
}

async function releaseClaim(deps: WatchCheckDeps, request: WatchCheckRequest, owner: string) {
  const { teamId, channelId, checkId } = request;
  try {
    await deps.watchLists.releaseCheck(teamId, channelId, checkId, owner);
  } catch (error) {
    // The check's own failure is the one to report; this one only delays its retry.
    deps.logger.warn('a failed watch check could not give back its claim', { teamId, channelId, error });
  }
}

async function runClaimedCheck(
  deps: WatchCheckDeps,
  request: WatchCheckRequest,
  progress: CheckProgress,
): Promise<WatchCheckSummary> {
  const { teamId, channelId } = request;
  const summary = emptyWatchCheck();
  const settings = await deps.watchLists.settings(teamId, channelId);
  if (settings?.status !== 'on') return summary;
  const checkedAt = deps.now();
  const accounts = await deps.watchLists.allAccounts(teamId, channelId);
  const counting = countingLookups(deps.lookups);
  const { looked, failures } = await lookUpAll(
    lookupRun(counting.lookups, utcDate(checkedAt)),
    await paidLookupRun(deps.paidLookup, settings),
    accounts,
    deps.logger,
  );
  const failedCheck = failedWhole(accounts.length, failures);
  if (failedCheck) throw failedCheck;
  const byKey = new Map(looked.map((item) => [item.account.key, item]));
  await saveTold(deps, request, looked);
  const posts = planWatchPosts(looked);
  if (posts.alert) {
    const message = await alertMessage(deps, counting.lookups, channelId, posts.alert, byKey);
    progress.posted = true;
    const { ts } = await deps.poster.postAlert(message);
    await rememberAlert(deps, request, posts.alert, byKey, ts);
  }
  if (posts.notices.length > 0) progress.posted = true;
  await postNotices(deps, channelId, posts.notices, byKey);
  await deps.watchLists.checked(settings, { checkedAt, nextCheckAt: nextWatchCheck(checkedAt) });
  const shown = looked.filter((item) => !item.account.muted).map((item) => item.comparison);
  return {
    ...summary,
    accounts: accounts.length,
    serviceCalls: counting.calls(),
    postedAlert: posts.alert !== null,
    appeared: shown.reduce((sum, c) => sum + c.appeared.length, 0),
    changed: shown.reduce((sum, c) => sum + c.changed.length, 0),
    dropped: shown.reduce((sum, c) => sum + c.dropped.length, 0),
    failed: failures.length,
  };
}
