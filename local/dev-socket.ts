import { App, SocketModeReceiver } from '@slack/bolt';
import { createLogger, type Logger } from '../src/platform/log.ts';
import { createScheduledJobs, type ScheduledJobs } from '../src/roots/runtime.ts';
import { createWorkerLoader } from '../src/roots/worker-runtime.ts';
import { singleWorkspaceSettings } from '../src/roots/slack-runtime.ts';
import { readEnv } from '../src/platform/config/env.ts';
import { DEV_API_KEY, startSimulator } from '../simulator/server.ts';
import { boltLogger } from '../src/slack/bolt-logger.ts';
import { webClientOptions } from '../src/slack/web-client.ts';
import { inlineDispatch } from '../src/slack/dispatch.ts';
import { registerListeners } from '../src/slack/listeners/index.ts';
import { createDocumentClient, ensureTable } from '../src/store/table.ts';
import { startDynamoDbLocal } from './dynamodb-local.ts';

export interface SocketModeDev {
  summary: string[];
  stop(): Promise<void>;
}

/**
 * The same listeners against real Slack over Socket Mode (no public URL): DynamoDB Local, the
 * simulator unless `EIS_BASE_URL` and `EIS_API_KEY` are set, jobs in-process, scheduled jobs on timers.
 *
 * The one difference from Lambda: Socket Mode acknowledges an event as soon as the listener calls
 * `ack()`, while on Lambda (`AwsLambdaReceiver`) Slack gets its answer only when the whole listener has
 * returned. A listener that does slow work after `ack()` works here and times out on Lambda, so check
 * changes with the local Slack page (`npm run dev` without tokens), which runs the Lambda path.
 */
export async function startSocketModeDev(
  source: NodeJS.ProcessEnv,
  options: { logger?: Logger } = {},
): Promise<SocketModeDev> {
  const { SLACK_BOT_TOKEN: botToken, SLACK_APP_TOKEN: appToken } = source;
  if (!botToken || !appToken) throw new Error('Socket Mode needs SLACK_BOT_TOKEN and SLACK_APP_TOKEN.');
  const logger = options.logger ?? createLogger({ level: source.LOG_LEVEL === 'debug' ? 'debug' : 'info' });
  const stops: (() => Promise<void>)[] = [];
  const summary: string[] = [];

  // Last started, first stopped; also when starting fails half-way.
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => {});
  };
  try {
    const dynamo = await startDynamoDbLocal();
    stops.push(() => dynamo.stop());
    const tableName = 'eventbot-dev';
    await ensureTable(createDocumentClient({ endpoint: dynamo.endpoint }), tableName);
    summary.push(`DynamoDB Local   ${dynamo.endpoint} (table ${tableName}, in memory)`);

    let eis = { baseUrl: source.EIS_BASE_URL, apiKey: source.EIS_API_KEY };
    if (!eis.baseUrl || !eis.apiKey) {
      const sim = await startSimulator();
      stops.push(() => sim.close());
      eis = { baseUrl: sim.url, apiKey: DEV_API_KEY };
      summary.push(`Simulator        ${sim.url} (key ${DEV_API_KEY})`);
    } else {
      summary.push(`Service          ${eis.baseUrl} (EIS_API_KEY from the environment)`);
    }

    const env = {
      TABLE_NAME: tableName,
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      EIS_BASE_URL: eis.baseUrl,
      EIS_API_KEY: eis.apiKey,
      SLACK_BOT_TOKEN: botToken,
      // Socket Mode messages are not signed: the app token authenticates the connection.
      SLACK_SIGNING_SECRET: source.SLACK_SIGNING_SECRET ?? 'unused-in-socket-mode',
      WORKER_MODE: 'inline',
      SPEND_APPROVERS: source.SPEND_APPROVERS ?? '',
      ...(source.DAILY_CREDIT_CAP ? { DAILY_CREDIT_CAP: source.DAILY_CREDIT_CAP } : {}),
    };
    const { runtime, worker } = await createWorkerLoader(env, { logger })();
    const dispatch = inlineDispatch((job) => worker.handle(job), logger);
    const app = new App({
      token: botToken,
      receiver: new SocketModeReceiver({ appToken, logger: boltLogger(logger) }),
      logger: boltLogger(logger),
      clientOptions: webClientOptions(),
      // Bolt checks the token at construction; deferred, a bad token or no network fails `init()` below
      // (and everything started so far is stopped) instead of crashing the process.
      deferInitialization: true,
    });
    await app.init();
    const listenerDeps = {
      dispatch,
      confirmations: runtime.store.confirmations,
      deliveries: runtime.store.deliveries,
      policyFor: (_teamId: string, channelId: string | undefined) => runtime.access.policyIn(channelId),
      logger,
    };
    // The Home's Workspace settings, as the Slack function has them (its rules read from the table).
    registerListeners(
      app,
      singleWorkspaceSettings(readEnv(env), listenerDeps, () => Promise.resolve(runtime.store)),
    );
    await app.start();
    stops.push(async () => {
      await app.stop();
      await dispatch.idle();
    });
    summary.push('Slack            connected over Socket Mode: try /events help in your workspace');

    stops.push(scheduleJobs(createScheduledJobs(runtime), logger));

    return { summary, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The scheduled jobs on timers, as on AWS; answers how to stop them. */
function scheduleJobs(jobs: ScheduledJobs, logger: Logger): () => Promise<void> {
  const timers = [
    setInterval(
      () =>
        void jobs
          .reconcileConfirmations()
          .then(() => jobs.pollUnlockTasks())
          .catch((error: unknown) => logger.error('poll failed', { error })),
      10_000,
    ),
    setInterval(
      () => void jobs.runDigests().catch((error: unknown) => logger.error('digest failed', { error })),
      3_600_000,
    ),
  ];
  return () => {
    for (const timer of timers) clearInterval(timer);
    return Promise.resolve();
  };
}
