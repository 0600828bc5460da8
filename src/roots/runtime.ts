import { KMSClient } from '@aws-sdk/client-kms';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { createKeyCipher } from '../platform/config/kms-key-cipher.ts';
import { serviceAccountId } from '../platform/config/secrets.ts';
import { type Env, readEnv } from '../platform/config/env.ts';
import { runDueDigests } from '../domain/digest.ts';
import { RECONCILE_SHARE_MS, type ReconcileReport, reconcileConfirmations } from '../domain/reconcile.ts';
import { realSleep, type Sleep } from '../domain/slack-delivery.ts';
import { pollUnlockTasks, type UnlockPollingDeps } from '../domain/unlock-polling.ts';
import { type PollRunSummary, pollTasksForAMinute } from '../domain/poll-run.ts';
import { unlockTaskProgress } from '../domain/unlock-progress.ts';
import { followUpProgress } from '../domain/follow-up.ts';
import { createEisClient, type EisClient, pollSharesForKey } from '../eis/index.ts';
import type { Metrics } from '../domain/ports/index.ts';
import { createLogger, type Logger } from '../platform/log.ts';
import { createMetrics } from '../platform/metrics.ts';
import { cardUpdater, confirmationCardShower } from '../slack/features/charges/index.ts';
import { digestPoster } from '../slack/features/digests/index.ts';
import { watchCheckDeps } from '../slack/features/watch/index.ts';
import { checkWatchedChannel, type WatchCheckRequest } from '../domain/watch/check.ts';
import { createLookupMemos, type LookupMemos } from '../domain/watch/shared-lookups.ts';
import { followUpThread } from '../slack/features/follow-up/index.ts';
import { unlockThread } from '../slack/features/unlock-results/index.ts';
import { scheduledWebClient, slackCall } from '../slack/scheduled.ts';
import { planBudgetCheck } from '../slack/features/plan/index.ts';
import { withBookingCharges } from '../domain/charge-booked.ts';
import {
  fairScheduledJobs,
  type RunOptions,
  type ScheduledJobs,
  servingOnce,
} from '../scheduling/scheduled-workspaces.ts';
import { createStore, type ScheduledWorkspace, type Store } from '../store/index.ts';
import { createDocumentClient } from '../store/table.ts';
import type { Tracing } from '../platform/tracing.ts';
import { reconcileUnservedWorkspace, type Unserved } from '../scheduling/unserved-workspace.ts';
import { createWorkspaceAccess, type WorkspaceAccess } from './workspace-access.ts';

/**
 * What the worker and the scheduled jobs share for one workspace, built once per cold start (and again
 * only when the workspace's token, key or rules change). The worker is built over it in
 * `worker-runtime.ts`, the Slack function apart in `slack-runtime.ts`: each bundle holds only what its
 * handler runs.
 */
export interface Runtime {
  env: Env;
  logger: Logger;
  /** The workspace's bot token, service key and spending rules. */
  access: WorkspaceAccess;
  store: Store;
  eis: EisClient;
  metrics: Metrics;
  now: () => Date;
}

export interface RuntimeOptions {
  logger?: Logger;
  /** The business clock (deadlines, due times, local dates); tests move it. */
  now?: () => Date;
  /**
   * Traces the AWS SDK clients (the worker's; the scheduled functions are not traced). A type-only
   * import, so the bundles that never trace do not carry the tracer.
   */
  tracing?: Pick<Tracing, 'captureAwsClient'>;
}

/**
 * The runtime of a workspace, memoized per workspace: a rotated secret, refreshed token, replaced key or
 * changed rule (the access resolver returns a new object then) rebuilds its clients.
 */
export function createRuntimeLoader(source: NodeJS.ProcessEnv = process.env, options: RuntimeOptions = {}) {
  const env = readEnv(source);
  const logger = options.logger ?? createLogger({ level: env.LOG_LEVEL });
  const metrics = createMetrics(source);
  const now = options.now ?? (() => new Date());
  const { tracing } = options;
  const endpoint = env.AWS_ENDPOINT_URL_DYNAMODB;
  const client = createDocumentClient(endpoint ? { endpoint } : {});
  const store = createStore({
    client: tracing?.captureAwsClient(client) ?? client,
    tableName: env.TABLE_NAME,
    now,
    keyCipher: createKeyCipher(env, {
      kms: () => tracing?.captureAwsClient(new KMSClient({})) ?? new KMSClient({}),
    }),
  });
  const accessOf = createWorkspaceAccess(env, store, {
    secretsClient: () => {
      const secrets = new SecretsManagerClient({});
      return tracing?.captureAwsClient(secrets) ?? secrets;
    },
    logger,
  });
  const built = new Map<string, Runtime>();
  const load = async (teamId?: string): Promise<Runtime> => {
    const access = await accessOf(teamId);
    const key = access.teamId ?? '';
    const current = built.get(key);
    if (current?.access === access) return current;
    if (current?.access.eisApiKey !== access.eisApiKey) await current?.eis.close();
    const eis =
      current && current.access.eisApiKey === access.eisApiKey
        ? current.eis
        : createEisClient({ baseUrl: env.EIS_BASE_URL, apiKey: access.eisApiKey, logger });
    const runtime: Runtime = { env, logger, access, store, eis, metrics, now };
    built.set(key, runtime);
    return runtime;
  };
  return Object.assign(load, {
    distributed: accessOf.distributed,
    botTokenOf: accessOf.botTokenOf,
    store,
    logger,
    env,
  });
}

export interface ScheduledOptions {
  /** How Slack retries wait; tests make it instant. */
  sleep?: Sleep;
  /** How a poll run waits for its next due task; tests and the bench move their clock instead. */
  nap?: Sleep;
  /** How long a poll run starts new polls for (the schedule's minute by default). */
  pollRunForMs?: number;
  /** The watch look-ups' answers, shared by the checks of each service account (one set per loader). */
  lookupMemos?: LookupMemos;
}

/** A pass of the poller within a run (`pollTasksForAMinute`): older tasks are due at a later run's start. */
export interface PollPassOptions extends RunOptions {
  runStartedAt?: Date;
}

/** The scheduled jobs over a runtime (whose clock the store and the domain share). */
export function createScheduledJobs(
  runtime: Pick<Runtime, 'env' | 'logger' | 'access' | 'store' | 'eis' | 'now' | 'metrics'>,
  options: ScheduledOptions = {},
) {
  const { env, logger, eis, store, now } = runtime;
  const web = scheduledWebClient(runtime.access.botToken, env.SLACK_API_URL);
  const sleep = options.sleep ? { sleep: options.sleep } : {};
  const deadline = (run: RunOptions) => (run.remainingMs ? { remainingMs: run.remainingMs } : {});
  // Every charge a scheduled job books (the reconciler's, a watch's paid look-up) warns as a confirmed one does.
  const budgetCheck = planBudgetCheck({
    plans: store.plans,
    ledger: store.ledger,
    logger,
    postInChannel: async ({ channelId }, message) =>
      slackCall(() => web.chat.postMessage({ channel: channelId, ...message })),
  });
  const booking = withBookingCharges(store, budgetCheck, logger);
  return {
    /** Settles what crashes left behind: expired, never-started and unsettled confirmations, stale cards. */
    reconcileConfirmations: (run: RunOptions = {}) =>
      reconcileConfirmations({
        ...deadline(run),
        confirmations: store.confirmations,
        charges: booking.charges,
        service: { accountId: serviceAccountId(runtime.access.eisApiKey), eis },
        showCard: confirmationCardShower(cardUpdater(web), store.confirmations, logger),
        logger: logger.child({ job: 'reconcile' }),
        now,
      }),
    // A distributed app's fair turns hand each workspace's pass this same `run` (a PollPassOptions).
    pollUnlockTasks: (run: PollPassOptions = {}) =>
      pollUnlockTasks({
        ...unlockPollingDeps({ ...runtime, logger: logger.child({ job: 'poll-tasks' }) }, web),
        ...deadline(run),
        ...(run.runStartedAt ? { runStartedAt: run.runStartedAt } : {}),
        ...sleep,
      }),
    runDigests: (run: RunOptions = {}) =>
      runDueDigests({
        subscriptions: store.digestSubscriptions,
        eis,
        ledger: store.ledger,
        unlockTasks: store.unlockTasks,
        fitScores: store.fitScores(serviceAccountId(runtime.access.eisApiKey)),
        post: digestPoster(web),
        metrics: runtime.metrics,
        logger: logger.child({ job: 'digest' }),
        now,
        ...deadline(run),
        ...sleep,
      }),
    /** One channel's watch check (the SQS fan-out sends one per channel; a re-delivered id does nothing). */
    checkWatchedChannel: (request: WatchCheckRequest) =>
      checkWatchedChannel(
        watchCheckDeps(
          { ...runtime, store: booking, logger: logger.child({ job: 'watch' }) },
          web,
          options.lookupMemos,
        ),
        request,
      ),
  };
}

/** The unlock poller over a runtime: the service's task progress, replies in the card's thread. */
export function unlockPollingDeps(
  runtime: Pick<Runtime, 'env' | 'logger' | 'access' | 'store' | 'eis' | 'now' | 'metrics'>,
  web = scheduledWebClient(runtime.access.botToken, runtime.env.SLACK_API_URL),
): UnlockPollingDeps {
  const { eis, store } = runtime;
  return {
    tasks: store.unlockTasks,
    accountId: serviceAccountId(runtime.access.eisApiKey),
    progress: (kind, taskId) => unlockTaskProgress(eis, kind, taskId),
    // looked up at each call: the share of an idle key is dropped, and every poller of the key shares one
    calls: (holder, call) => pollSharesForKey(runtime.access.eisApiKey).run(holder, call),
    thread: unlockThread(web, store),
    // outreach drafts and LinkedIn activity: the same poller, leases and once-only post
    followUps: followUpThread(web, (task, within) => followUpProgress(eis, task, within)),
    logger: runtime.logger,
    now: runtime.now,
    metrics: runtime.metrics,
  };
}

export type { RunOptions, ScheduledJobs };

/**
 * Built once per cold start (and again when the secrets rotate), like the other handlers. A distributed
 * app runs each job per workspace with due work, fairly (src/scheduling/scheduled-workspaces.ts).
 */
export function createScheduledLoader(
  source: NodeJS.ProcessEnv = process.env,
  options: ScheduledOptions & RuntimeOptions = {},
) {
  const loadRuntime = createRuntimeLoader(source, options);
  const { store, logger } = loadRuntime;
  // One set per loader (per cold start): the checks it runs share their look-ups, key by key.
  const now = options.now ?? (() => new Date());
  const scheduled = { lookupMemos: createLookupMemos(now), ...options };
  const built = new WeakMap<Runtime, ScheduledJobs>();
  const jobsOf = (runtime: Runtime) => {
    const jobs = built.get(runtime) ?? createScheduledJobs(runtime, scheduled);
    built.set(runtime, jobs);
    return jobs;
  };
  /** One scheduled run of the poller (handlers/poll-tasks.ts): passes over the due tasks for a minute. */
  const pollRunOf =
    (jobs: () => Promise<Pick<ScheduledJobs, 'pollUnlockTasks'>>) =>
    async (run: RunOptions = {}): Promise<PollRunSummary> => {
      const { pollUnlockTasks } = await jobs();
      return pollTasksForAMinute({
        pass: (pass: PollPassOptions) => pollUnlockTasks(pass),
        nextDue: (window) => store.unlockTasks.nextDue(window),
        now,
        sleep: options.nap ?? realSleep,
        logger: logger.child({ job: 'poll-tasks' }),
        ...(run.remainingMs ? { remainingMs: run.remainingMs } : {}),
        ...(options.pollRunForMs ? { runForMs: options.pollRunForMs } : {}),
      });
    };
  if (!loadRuntime.distributed) {
    const single = async (): Promise<ScheduledJobs & Pick<Runtime, 'logger'>> => ({
      ...jobsOf(await loadRuntime()),
      logger,
    });
    return Object.assign(single, {
      store,
      servable: () => () => Promise.resolve(true),
      pollRun: pollRunOf(single),
      runMinute: minuteOf(single, pollRunOf(single), options.nap),
    });
  }
  const unserved = (teamId: string, why: Unserved) =>
    reconcileUnservedWorkspace(teamId, why, {
      store,
      ownBotToken: loadRuntime.botTokenOf,
      slackApiUrl: loadRuntime.env.SLACK_API_URL,
      logger,
      now,
    });
  // The one place a workspace that cannot be served now is dealt with: `cannotServeNow` there.
  const jobs = fairScheduledJobs({
    load: loadRuntime,
    store,
    unserved,
    logger,
    now,
    jobsOf: (runtime) => createScheduledJobs(runtime, scheduled),
  });
  // For a run that hands work on per workspace (the watch fan-out): whether each can be served now,
  // one that cannot paused or forgotten as the jobs above do it.
  const servable = () => {
    const serve = servingOnce({ load: loadRuntime, store, logger, unserved });
    return async (team: ScheduledWorkspace) => (await serve(team)) !== undefined;
  };
  return Object.assign(() => Promise.resolve(jobs), {
    store,
    servable,
    pollRun: pollRunOf(() => Promise.resolve(jobs)),
    runMinute: minuteOf(
      () => Promise.resolve(jobs),
      pollRunOf(() => Promise.resolve(jobs)),
      options.nap,
    ),
  });
}

/**
 * One poll-tasks run (handlers/poll-tasks.ts): the reconciler within its share of the minute, then
 * polling. Past its share the reconciler starts nothing more, and polling starts without waiting for
 * the confirmation it is on (that one is finished beside the polls).
 */
function minuteOf(
  jobs: () => Promise<Pick<ScheduledJobs, 'reconcileConfirmations'>>,
  pollRun: (run: RunOptions) => Promise<PollRunSummary>,
  nap: Sleep = unrefSleep,
) {
  return async (
    run: RunOptions = {},
  ): Promise<{ reconciled: ReconcileReport | 'share-used'; polled: PollRunSummary }> => {
    let shareOver = false;
    const share = nap(RECONCILE_SHARE_MS).then(() => {
      shareOver = true;
      return 'share-used' as const;
    });
    const reconciling = (await jobs()).reconcileConfirmations({
      remainingMs: () => (shareOver ? 0 : Math.min(RECONCILE_SHARE_MS, run.remainingMs?.() ?? Infinity)),
    });
    const reconciled = await Promise.race([reconciling, share]);
    return { reconciled, polled: await pollRun(run) };
  };
}

/** A wait that does not keep the process up (the share's timer, when the reconciler ends sooner). */
const unrefSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** The part of the Lambda context the scheduled handlers read. */
export interface LambdaClock {
  getRemainingTimeInMillis?: () => number;
}

/** The Lambda's remaining time, when the handler was given a context that knows it. */
export function remainingTimeOf(context: LambdaClock | undefined): RunOptions {
  const remaining = context?.getRemainingTimeInMillis;
  return remaining ? { remainingMs: () => remaining.call(context) } : {};
}
