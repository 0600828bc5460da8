import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { type Env, readEnv } from './config/env.ts';
import { type AppSecrets, createSecretsProvider } from './config/secrets.ts';
import { runDueDigests } from './domain/digest.ts';
import { reconcileConfirmations } from './domain/reconcile.ts';
import type { Sleep } from './domain/slack-delivery.ts';
import { pollUnlockTasks, type UnlockPollingDeps } from './domain/unlock-polling.ts';
import { unlockTaskProgress } from './domain/unlock-progress.ts';
import { followUpProgress } from './domain/follow-up.ts';
import { createEisClient, type EisClient } from './eis/index.ts';
import type { Metrics } from './domain/ports/index.ts';
import { createLogger, type Logger } from './log.ts';
import { createMetrics } from './metrics.ts';
import { confirmationCardShower } from './slack/confirmation-cards.ts';
import {
  cardUpdater,
  digestPoster,
  followUpThread,
  scheduledWebClient,
  unlockThread,
} from './slack/scheduled.ts';
import { createStore, type Store } from './store/index.ts';
import { createDocumentClient } from './store/table.ts';
import type { Tracing } from './tracing.ts';

/**
 * What the worker and the scheduled jobs share, built once per cold start (and again only when the
 * secret changes). The worker is built over it in `worker-runtime.ts`, the Slack function apart in
 * `slack-runtime.ts`: each bundle holds only what its handler runs.
 */
export interface Runtime {
  env: Env;
  logger: Logger;
  secrets: AppSecrets;
  store: Store;
  eis: EisClient;
  metrics: Metrics;
  now: () => Date;
}

function build(
  env: Env,
  logger: Logger,
  secrets: AppSecrets,
  options: RuntimeOptions,
  metrics: Metrics,
): Runtime {
  const now = options.now ?? (() => new Date());
  const endpoint = env.AWS_ENDPOINT_URL_DYNAMODB;
  const client = createDocumentClient(endpoint ? { endpoint } : {});
  const store = createStore({
    client: options.tracing?.captureAwsClient(client) ?? client,
    tableName: env.TABLE_NAME,
    now,
  });
  const eis = createEisClient({ baseUrl: env.EIS_BASE_URL, apiKey: secrets.eisApiKey, logger });
  return { env, logger, secrets, store, eis, metrics, now };
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

/** A memo over the secrets: a rotated secret (seen after the provider's cache expires) rebuilds the clients. */
export function createRuntimeLoader(source: NodeJS.ProcessEnv = process.env, options: RuntimeOptions = {}) {
  const env = readEnv(source);
  const logger = options.logger ?? createLogger({ level: env.LOG_LEVEL });
  const metrics = createMetrics(source);
  const { tracing } = options;
  const secretsClient = () => {
    const client = new SecretsManagerClient({});
    return tracing?.captureAwsClient(client) ?? client;
  };
  const secrets = createSecretsProvider(env, { client: secretsClient });
  let current: { secrets: AppSecrets; runtime: Runtime } | undefined;
  return async (): Promise<Runtime> => {
    const latest = await secrets();
    if (current?.secrets !== latest) {
      await current?.runtime.eis.close();
      current = { secrets: latest, runtime: build(env, logger, latest, options, metrics) };
    }
    return current.runtime;
  };
}

export interface ScheduledOptions {
  /** How Slack retries wait; tests make it instant. */
  sleep?: Sleep;
}

export interface RunOptions {
  /** The Lambda's remaining time, when the runtime can say. */
  remainingMs?: () => number;
}

/** The scheduled jobs over a runtime (whose clock the store and the domain share). */
export function createScheduledJobs(
  runtime: Pick<Runtime, 'env' | 'logger' | 'secrets' | 'store' | 'eis' | 'now' | 'metrics'>,
  options: ScheduledOptions = {},
) {
  const { env, logger, eis, store, now } = runtime;
  const web = scheduledWebClient(runtime.secrets.slackBotToken, env.SLACK_API_URL);
  const sleep = options.sleep ? { sleep: options.sleep } : {};
  const deadline = (run: RunOptions) => (run.remainingMs ? { remainingMs: run.remainingMs } : {});
  return {
    /** Settles what crashes left behind: expired, never-started and unsettled confirmations, stale cards. */
    reconcileConfirmations: () =>
      reconcileConfirmations({
        confirmations: store.confirmations,
        charges: store.charges,
        eis,
        showCard: confirmationCardShower(cardUpdater(web), store.confirmations, logger),
        logger: logger.child({ job: 'reconcile' }),
        now,
      }),
    pollUnlockTasks: (run: RunOptions = {}) =>
      pollUnlockTasks({
        ...unlockPollingDeps({ ...runtime, logger: logger.child({ job: 'poll-tasks' }) }, web),
        ...deadline(run),
        ...sleep,
      }),
    runDigests: (run: RunOptions = {}) =>
      runDueDigests({
        subscriptions: store.digestSubscriptions,
        eis,
        ledger: store.ledger,
        unlockTasks: store.unlockTasks,
        fitScores: store.fitScores,
        post: digestPoster(web),
        metrics: runtime.metrics,
        logger: logger.child({ job: 'digest' }),
        now,
        ...deadline(run),
        ...sleep,
      }),
  };
}

/** The unlock poller over a runtime: the service's task progress, replies in the card's thread. */
export function unlockPollingDeps(
  runtime: Pick<Runtime, 'env' | 'logger' | 'secrets' | 'store' | 'eis' | 'now' | 'metrics'>,
  web = scheduledWebClient(runtime.secrets.slackBotToken, runtime.env.SLACK_API_URL),
): UnlockPollingDeps {
  const { eis, store } = runtime;
  return {
    tasks: store.unlockTasks,
    progress: (kind, taskId) => unlockTaskProgress(eis, kind, taskId),
    thread: unlockThread(web, store),
    // outreach drafts and LinkedIn activity: the same poller, leases and once-only post
    followUps: followUpThread(web, (task) => followUpProgress(eis, task)),
    logger: runtime.logger,
    now: runtime.now,
    metrics: runtime.metrics,
  };
}

export type ScheduledJobs = ReturnType<typeof createScheduledJobs>;

/** Built once per cold start (and again when the secrets rotate), like the other handlers. */
export function createScheduledLoader(
  source: NodeJS.ProcessEnv = process.env,
  options: ScheduledOptions & RuntimeOptions = {},
) {
  const loadRuntime = createRuntimeLoader(source, options);
  let built: { runtime: Runtime; jobs: ScheduledJobs } | undefined;
  return async (): Promise<ScheduledJobs & Pick<Runtime, 'logger'>> => {
    const runtime = await loadRuntime();
    if (built?.runtime !== runtime) built = { runtime, jobs: createScheduledJobs(runtime, options) };
    return { ...built.jobs, logger: runtime.logger };
  };
}

/** The part of the Lambda context the scheduled handlers read. */
export interface LambdaClock {
  getRemainingTimeInMillis?: () => number;
}

/** The Lambda's remaining time, when the handler was given a context that knows it. */
export function remainingTimeOf(context: LambdaClock | undefined): RunOptions {
  const remaining = context?.getRemainingTimeInMillis;
  return remaining ? { remainingMs: () => remaining.call(context) } : {};
}
