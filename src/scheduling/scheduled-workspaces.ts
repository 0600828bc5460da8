import { type DigestRunSummary, emptyDigestRun } from '../domain/digest.ts';
import { emptyReport, type ReconcileReport } from '../domain/reconcile.ts';
import { emptySummary, type PollSummary } from '../domain/unlock-polling.ts';
import { forgetWorkspace, isServedByAnInstall } from '../domain/forget-workspace.ts';
import type { Logger } from '../platform/log.ts';
import { emptyWatchCheck, type WatchCheckRequest, type WatchCheckSummary } from '../domain/watch/check.ts';
import {
  InstallationNotFoundError,
  type PauseReason,
  type ScheduledWorkspace,
  type Store,
} from '../store/index.ts';
import type { Unserved } from './unserved-workspace.ts';
import { WorkspaceNotConnectedError } from '../platform/errors.ts';

/**
 * At most this many due items of one workspace per turn. Each run goes round the workspaces with due
 * work, a turn each, while some have more and time is left: one workspace's backlog never delays
 * another's first item.
 */
export const WORKSPACE_TURN = 50;

export interface RunOptions {
  /** The Lambda's remaining time, when the runtime can say. */
  remainingMs?: () => number;
}

/** The scheduled jobs, as one workspace's runtime (or the single workspace's) runs them. */
export interface ScheduledJobs {
  /** Settles what crashes left behind: expired, never-started and unsettled confirmations, stale cards. */
  reconcileConfirmations: (run?: RunOptions) => Promise<ReconcileReport>;
  pollUnlockTasks: (run?: RunOptions) => Promise<PollSummary>;
  runDigests: (run?: RunOptions) => Promise<DigestRunSummary>;
  /** One channel's watch check, over its own workspace's token and key. */
  checkWatchedChannel: (request: WatchCheckRequest) => Promise<WatchCheckSummary>;
}

/** What a turn needs of a workspace's runtime: its store, which the turn narrows to its due items. */
interface WorkspaceRuntime {
  store: Store;
}

export interface FairJobsDeps<Runtime extends WorkspaceRuntime> {
  load: (teamId: string) => Promise<Runtime>;
  store: Store;
  logger: Logger;
  now: () => Date;
  jobsOf: (runtime: Runtime) => ScheduledJobs;
  /** Settles the stale charges of a workspace that has no key or no install (nothing to ask the service with). */
  unserved: (teamId: string, why: Unserved) => Promise<unknown>;
}

type DueQuery = { now: Date; limit: number };

/**
 * A distributed app's scheduled jobs: each runs per workspace, over that workspace's token and key,
 * seeing only its own due items, a turn at a time; the summaries are added up. A workspace that cannot
 * be served now is paused (its due work not read until its retry time) or, if the app is no longer
 * installed for it, forgotten.
 */
export function fairScheduledJobs<Runtime extends WorkspaceRuntime>(
  deps: FairJobsDeps<Runtime>,
): ScheduledJobs & { logger: Logger } {
  const { store } = deps;
  return {
    logger: deps.logger,
    reconcileConfirmations: (run: RunOptions = {}) =>
      inTurns(
        deps,
        (teamId, query) => store.confirmations.dueIn(teamId, query),
        (due) => ({ ...store, confirmations: { ...store.confirmations, due } }),
        (jobs) => jobs.reconcileConfirmations(run),
        emptyReport(),
      ),
    pollUnlockTasks: (run: RunOptions = {}) =>
      inTurns(
        deps,
        (teamId, query) => store.unlockTasks.dueIn(teamId, query),
        (due) => ({ ...store, unlockTasks: { ...store.unlockTasks, due } }),
        (jobs) => jobs.pollUnlockTasks(run),
        emptySummary(),
      ),
    runDigests: (run: RunOptions = {}) =>
      inTurns(
        deps,
        (teamId, query) => store.digestSubscriptions.dueIn(teamId, query),
        (due) => ({ ...store, digestSubscriptions: { ...store.digestSubscriptions, due } }),
        (jobs) => jobs.runDigests(run),
        emptyDigestRun(),
      ),
    // One channel, named by the queue message: its workspace's runtime (or nothing, if it cannot be served).
    checkWatchedChannel: async (request: WatchCheckRequest) => {
      // A watch registers its workspace's scheduled work; one that has none (forgotten) is not served.
      const team = await store.scheduledWork.get(request.teamId);
      const runtime = team && (await servingOnce(deps)(team));
      return runtime ? deps.jobsOf(runtime).checkWatchedChannel(request) : emptyWatchCheck();
    },
  };
}

/** One run of a job over every workspace with due work, a turn of at most `WORKSPACE_TURN` items each. */
async function inTurns<Runtime extends WorkspaceRuntime, Item, S extends Record<keyof S, number | boolean>>(
  deps: FairJobsDeps<Runtime>,
  dueIn: (teamId: string, query: DueQuery) => Promise<Item[]>,
  storeWith: (due: () => Promise<Item[]>) => Store,
  job: (jobs: ScheduledJobs) => Promise<S>,
  empty: S,
): Promise<S> {
  const now = deps.now();
  const serve = servingOnce(deps);
  let summary = empty;
  let turn = rotated((await deps.store.scheduledWork.list()).filter((team) => !pausedAt(team, now)));
  while (turn.length > 0 && !outOfTime(summary)) {
    const more: ScheduledWorkspace[] = [];
    for (const team of turn) {
      const page = await dueIn(team.teamId, { now, limit: WORKSPACE_TURN });
      if (page.length === 0) continue;
      const runtime = await serve(team);
      if (!runtime) continue;
      // The job reads its due items once: this turn's page, then nothing.
      let handed = false;
      const due = () => Promise.resolve(handed ? [] : ((handed = true), page));
      summary = addUp(summary, await job(deps.jobsOf({ ...runtime, store: storeWith(due) })));
      if (outOfTime(summary)) break;
      if (page.length === WORKSPACE_TURN) more.push(team);
    }
    turn = more;
  }
  return summary;
}

export const pausedAt = (team: ScheduledWorkspace, now: Date) =>
  team.paused !== undefined && Date.parse(team.paused.retryAt) > now.getTime();

/** The workspaces starting at a random one, so no workspace is always served last. */
export function rotated<T>(items: T[]): T[] {
  const start = Math.floor(Math.random() * items.length);
  return [...items.slice(start), ...items.slice(0, start)];
}

/** Each workspace's runtime for one run, loaded (or found unservable, and dealt with) once. */
export function servingOnce<Runtime extends WorkspaceRuntime>(
  deps: Pick<FairJobsDeps<Runtime>, 'load' | 'store' | 'logger' | 'unserved'>,
) {
  const served = new Map<string, Promise<Runtime | undefined>>();
  const serve = async (team: ScheduledWorkspace) => {
    try {
      const runtime = await deps.load(team.teamId);
      if (team.paused) {
        await deps.store.scheduledWork.resume(team.teamId);
        deps.logger.info('resumed the scheduled work of a workspace', { teamId: team.teamId });
      }
      return runtime;
    } catch (error) {
      await cannotServeNow(deps, team, error);
      return undefined;
    }
  };
  return (team: ScheduledWorkspace) => {
    const once = served.get(team.teamId) ?? serve(team);
    served.set(team.teamId, once);
    return once;
  };
}

/**
 * The one place where a workspace that cannot be served now is dealt with: forgotten when no install
 * serves it any more (an org-wide uninstall names no team), paused when it has no key or its install
 * cannot give a token, skipped until the next run on any other failure (one to forget it included).
 */
async function cannotServeNow(
  { store, logger, unserved }: Pick<FairJobsDeps<WorkspaceRuntime>, 'store' | 'logger' | 'unserved'>,
  team: ScheduledWorkspace,
  error: unknown,
): Promise<void> {
  const { teamId } = team;
  const skip = (cause: unknown) => {
    logger.warn('skipped a workspace that cannot be served', { teamId, error: cause });
  };
  try {
    const reason = await pauseReasonOf(store, teamId, error);
    if (reason === 'forget') {
      await forgetWorkspace(store, teamId, logger);
      await unserved(teamId, 'uninstalled');
      return;
    }
    if (!reason) return skip(error);
    const paused = await store.scheduledWork.pause(teamId, reason, team.paused);
    logger.warn('paused the scheduled work of a workspace that cannot be served', { teamId, ...paused });
    // No key to ask the service with: its charges past their deadline are settled as outcome unknown.
    await unserved(teamId, 'key-removed');
  } catch (failure) {
    skip(failure);
  }
}

/** Why a workspace's work must wait (or that it is to be forgotten); none for a passing failure. */
async function pauseReasonOf(
  store: Store,
  teamId: string,
  error: unknown,
): Promise<PauseReason | 'forget' | undefined> {
  if (error instanceof WorkspaceNotConnectedError) return 'no-service-key';
  if (error instanceof InstallationNotFoundError)
    return (await isServedByAnInstall(store, teamId)) ? 'no-slack-token' : 'forget';
  return undefined;
}

/** Whether a job ran out of the Lambda's time (the jobs that can say so have `outOfTime`). */
const outOfTime = (summary: object) =>
  Object.entries(summary).some(([key, flag]) => key === 'outOfTime' && flag);

/** Two runs' summaries as one: counts added, flags (such as running out of time) kept if either is set. */
function addUp<S extends Record<keyof S, number | boolean>>(a: S, b: S): S {
  const sum = { ...a };
  for (const key of Object.keys(b) as (keyof S)[]) {
    const [x, y] = [a[key], b[key]];
    sum[key] = (
      typeof x === 'number' && typeof y === 'number' ? x + y : Boolean(x) || Boolean(y)
    ) as S[keyof S];
  }
  return sum;
}
