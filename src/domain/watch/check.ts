import { AppError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/log.ts';
import type { WatchAccount, WatchSettings } from '../ports/records.ts';
import { WATCH_SLICE, type WatchSliceClaim } from '../ports/watch.ts';
import { compareAppearances } from './appearances.ts';
import { nextWatchCheck } from './budget.ts';
import type { WatchCheckDeps, WatchCheckRequest } from './check-deps.ts';
import { type Looked, postSlice, type SliceProgress } from './check-posts.ts';
import {
  countingLookups,
  LOOKUP_CONCURRENCY,
  lookUpAccount,
  lookupCost,
  lookupOutcome,
  type LookupRun,
  lookupRun,
  nameSearchChanged,
  type PlannedScans,
  scanForNames,
  toldBefore,
} from './lookup.ts';
import { sharedLookups } from './shared-lookups.ts';
import { type PaidLookupRun, paidLookupRun, withPaidLookup } from './paid-lookup.ts';
import { inPool } from '../pool.ts';
import { utcDate } from '../../time/local-time.ts';

export { PEOPLE_PER_ROW } from './check-posts.ts';
export type { WatchCheckDeps, WatchCheckRequest } from './check-deps.ts';

export interface WatchCheckSummary {
  /** Accounts the channel watches (0 when it watches nothing or is off). */
  accounts: number;
  /** Accounts this slice looked at. */
  looked: number;
  /** Accounts this check has not looked at yet (left to its next slice, or to the hourly run). */
  remaining: number;
  /** Calls made to the service (all free: a check never makes a paid one). */
  serviceCalls: number;
  postedAlert: boolean;
  appeared: number;
  changed: number;
  dropped: number;
  /** Accounts whose look-up failed: left as they were, tried again at the next check. */
  failed: number;
  /** This slice was claimed before (or the check is done, or another slice holds it): nothing was done. */
  alreadyChecked: boolean;
  /** The next slice of this check, to run after every other due channel's first. */
  next?: WatchCheckRequest;
}

export const emptyWatchCheck = (): WatchCheckSummary => ({
  accounts: 0,
  looked: 0,
  remaining: 0,
  serviceCalls: 0,
  postedAlert: false,
  appeared: 0,
  changed: 0,
  dropped: 0,
  failed: 0,
  alreadyChecked: false,
});

/**
 * This slice's accounts, cheapest first (resolved ones, then domains, then names to search), as many
 * as fit in `calls` (by default `WATCH_SLICE.calls`) by their planned cost (at least one, however
 * costly); `scans`, the upcoming shows as read before planning.
 */
export function sliceOf(
  pending: readonly WatchAccount[],
  today: string,
  scans?: PlannedScans,
  calls: number = WATCH_SLICE.calls,
): WatchAccount[] {
  const byCost = pending
    .map((account) => ({ account, cost: lookupCost(account, today, scans) }))
    .sort((a, b) => a.cost - b.cost);
  const taken: WatchAccount[] = [];
  let planned = 0;
  for (const { account, cost } of byCost) {
    if (taken.length > 0 && planned + cost > calls) break;
    taken.push(account);
    planned += cost;
  }
  return taken;
}

interface Failed {
  account: WatchAccount;
  error: unknown;
}

/** The service asked the key to slow down (a 429, or its concurrency envelope), and waiting it out did not help. */
const isRateLimited = (error: unknown) => error instanceof AppError && error.code === 'EIS_RATE_LIMITED';

/**
 * Looks the slice's accounts up (free, then paid within the budget), each stored by `save` as soon
 * as it is looked up; a failed look-up leaves its account out, counted. Once the service has said to
 * slow down, no further account is started: those not started are left to the next slice.
 */
async function lookUpAll(
  run: LookupRun,
  paid: PaidLookupRun | null,
  accounts: readonly WatchAccount[],
  logger: Logger,
  save: (item: Looked) => Promise<void>,
) {
  const looked: Looked[] = [];
  const failures: Failed[] = [];
  const slowDown = () => !failures.some(({ error }) => isRateLimited(error));
  await inPool(
    accounts,
    LOOKUP_CONCURRENCY,
    async (account) => {
      let item: Looked;
      try {
        const lookup = await withPaidLookup(paid, run, account, await lookUpAccount(run, account));
        const comparison = compareAppearances(lookup.shows, toldBefore(account, lookup), run.today);
        item = { account, lookup, told: comparison.told, comparison };
      } catch (error) {
        failures.push({ account, error });
        logger.warn('a watched account could not be looked up', { accountKey: account.key, error });
        return;
      }
      await save(item);
      looked.push(item);
    },
    slowDown,
  );
  return { looked, failures };
}

/**
 * Every look-up of the slice failed, at least one for a passing reason (the service down, say): the
 * slice learned nothing, so it fails and is retried rather than moving on. Failures that will not
 * pass (an exhibitor record gone) are recorded as done, so they do not retry every hour.
 */
function failedWhole(accounts: number, failures: readonly Failed[]): AppError | null {
  if (accounts === 0 || failures.length < accounts) return null;
  if (!failures.some(({ error }) => error instanceof AppError && error.retryable)) return null;
  return new AppError('WATCH_CHECK_FAILED', `every one of ${accounts} watched accounts failed to look up`, {
    cause: failures[0]?.error,
    retryable: true,
  });
}

const lookupChanged = ({ account, lookup, comparison }: Looked) =>
  comparison.toldChanged ||
  (lookup.companyName !== undefined && lookup.companyName !== account.companyName) ||
  account.resolution !== lookup.resolution ||
  account.exhibitorIds.join() !== lookup.exhibitorIds.join() ||
  nameSearchChanged(account.nameSearch, lookup.nameSearch);

/**
 * Stores an account's look-up with this check's id, what its channel will have been told included
 * (before it is posted: said at most once); a look-up that changed nothing only marks it checked.
 */
async function saveLooked(deps: WatchCheckDeps, request: WatchCheckRequest, item: Looked) {
  const { teamId, channelId, checkId } = request;
  if (!lookupChanged(item)) return deps.watchLists.markChecked(teamId, channelId, item.account.key, checkId);
  await deps.watchLists.saveLookup(teamId, channelId, item.account.key, {
    ...lookupOutcome(item.lookup, item.told),
    checkedIn: checkId,
  });
}

/**
 * One slice of a channel's watch check. The slice is claimed (a re-delivered one does nothing); it
 * looks up the accounts this check has not looked up yet, cheapest first, as many as its call budget
 * plans for (`WATCH_SLICE.calls`), on free calls (a paid one only within the channel's budget),
 * storing each account as soon as it is looked up, what the channel will have been told included;
 * then it posts one alert of the new appearances it found and the changes and drops in the threads
 * that announced them (see check-posts.ts). Storing first means a slice that dies before posting
 * loses that alert rather than a later slice repeating it, and loses only its own work: the next
 * slice skips every account stored. When accounts remain, the summary names the next slice; when
 * none do, the channel is rescheduled (at once again if its watch changed meanwhile). A slice that
 * fails before posting anything gives its claim back, so its retry runs it.
 */
export async function checkWatchedChannel(
  deps: WatchCheckDeps,
  request: WatchCheckRequest,
): Promise<WatchCheckSummary> {
  const { teamId, channelId, checkId } = request;
  const claim = await deps.watchLists.claimCheck(teamId, channelId, checkId, request.slice ?? null);
  if (claim === null) return { ...emptyWatchCheck(), alreadyChecked: true };
  const progress: SliceProgress = { posted: false, paidLookups: 0 };
  try {
    const summary = await runSlice(deps, request, claim, progress);
    await deps.watchLists.endSlice(teamId, channelId, checkId, claim.owner, {
      next: summary.next ? 'more' : 'done',
      paidLookups: progress.paidLookups,
    });
    const { looked, remaining, serviceCalls, postedAlert } = summary;
    deps.logger.info('watch check slice', {
      teamId,
      channelId,
      slice: claim.slice,
      looked,
      remaining,
      serviceCalls,
      postedAlert,
    });
    return summary;
  } catch (error) {
    if (!progress.posted) await releaseClaim(deps, request, claim.owner);
    throw error;
  }
}

async function releaseClaim(deps: WatchCheckDeps, request: WatchCheckRequest, owner: string) {
  const { teamId, channelId, checkId } = request;
  try {
    await deps.watchLists.releaseCheck(teamId, channelId, checkId, owner);
  } catch (error) {
    // The slice's own failure is the one to report; this one only delays its retry.
    deps.logger.warn('a failed watch check could not give back its claim', { teamId, channelId, error });
  }
}

/**
 * The channel's paid look-ups for this slice: what is left of the check's `PAID_LOOKUPS_PER_CHECK`
 * after its earlier slices (a check is paced as before it ran in slices, not 5 a slice).
 */
async function paidRunOf(deps: WatchCheckDeps, settings: WatchSettings, claim: WatchSliceClaim) {
  const paid = await paidLookupRun(deps.paidLookup, settings);
  if (paid) paid.left = Math.max(0, paid.left - claim.paidLookups);
  return paid;
}

async function runSlice(
  deps: WatchCheckDeps,
  request: WatchCheckRequest,
  claim: WatchSliceClaim,
  progress: SliceProgress,
): Promise<WatchCheckSummary> {
  const { teamId, channelId, checkId } = request;
  const settings = await deps.watchLists.settings(teamId, channelId);
  if (settings?.status !== 'on') return emptyWatchCheck();
  const checkedAt = deps.now();
  const accounts = await deps.watchLists.allAccounts(teamId, channelId);
  const pending = accounts.filter((account) => account.checkedIn !== checkId);
  const counting = countingLookups(deps.lookups);
  const run = lookupRun(sharedLookups(counting.lookups, deps.sharedLookups), utcDate(checkedAt));
  // The shows' exhibitors are read before planning (their calls count in the slice's budget).
  const scans = await scanForNames(run, pending);
  const taken = sliceOf(pending, run.today, scans, WATCH_SLICE.calls - counting.calls());
  const paid = await paidRunOf(deps, settings, claim);
  const paidLeft = paid?.left ?? 0;
  const { looked, failures } = await lookUpAll(run, paid, taken, deps.logger, (item) =>
    saveLooked(deps, request, item),
  );
  progress.paidLookups = paidLeft - (paid?.left ?? 0);
  // Every account started failed (those not started after a rate limit are not counted).
  const failedSlice = failedWhole(looked.length + failures.length, failures);
  if (failedSlice) throw failedSlice;
  // Tried again at the next check, not at every slice of this one; one the service turned away
  // (rate limited) is left to this check's next slice, as are those not started after it.
  const done = failures.filter(({ error }) => !isRateLimited(error));
  for (const { account } of done) await deps.watchLists.markChecked(teamId, channelId, account.key, checkId);
  const postedAlert = await postSlice(deps, request, looked, run.lookups, progress);
  const remaining = pending.length - looked.length - done.length;
  const continues = remaining > 0 && !request.restHourly;
  if (!continues)
    await deps.watchLists.checked(settings, {
      checkedAt,
      nextCheckAt: remaining > 0 ? checkedAt : nextWatchCheck(checkedAt),
    });
  const shown = looked.filter((item) => !item.account.muted).map((item) => item.comparison);
  return {
    ...emptyWatchCheck(),
    accounts: accounts.length,
    looked: looked.length + done.length,
    remaining,
    serviceCalls: counting.calls(),
    postedAlert,
    appeared: shown.reduce((sum, c) => sum + c.appeared.length, 0),
    changed: shown.reduce((sum, c) => sum + c.changed.length, 0),
    dropped: shown.reduce((sum, c) => sum + c.dropped.length, 0),
    failed: failures.length,
    ...(continues ? { next: { teamId, channelId, checkId, slice: claim.slice + 1 } } : {}),
  };
}
