import { LambdaClient } from '@aws-sdk/client-lambda';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { WebClient } from '@slack/web-api';
import { type Env, readEnv, spendPolicyOf } from './config/env.ts';
import { type AppSecrets, createSecretsProvider, serviceAccountId } from './config/secrets.ts';
import { createEisClient, type EisClient } from './eis/index.ts';
import { createLogger, type Logger } from './log.ts';
import { createSlackApp, type SlackHttpHandler, webClientOptions } from './slack/app.ts';
import { inlineDispatch, lambdaDispatch } from './slack/dispatch.ts';
import type { Dispatch } from './slack/jobs.ts';
import { slackUserTimeZone } from './slack/worker/digest-commands.ts';
import { createWorker, type Worker } from './slack/worker/index.ts';
import { createSlackOut } from './slack/worker/slack-out.ts';
import { createStore, type Store } from './store/index.ts';
import { createDocumentClient } from './store/table.ts';

/** Everything a handler needs, built once per cold start (and again only when the secret changes). */
export interface Runtime {
  env: Env;
  logger: Logger;
  secrets: AppSecrets;
  store: Store;
  eis: EisClient;
  web: WebClient;
  worker: Worker;
  now: () => Date;
}

function build(env: Env, logger: Logger, secrets: AppSecrets, now: () => Date): Runtime {
  const endpoint = env.AWS_ENDPOINT_URL_DYNAMODB;
  const store = createStore({
    client: createDocumentClient(endpoint ? { endpoint } : {}),
    tableName: env.TABLE_NAME,
    now,
  });
  const eis = createEisClient({ baseUrl: env.EIS_BASE_URL, apiKey: secrets.eisApiKey, logger });
  const web = new WebClient(secrets.slackBotToken, webClientOptions(env.SLACK_API_URL));
  const worker = createWorker({
    eis,
    store,
    slack: createSlackOut(
      new WebClient(secrets.slackBotToken, webClientOptions(env.SLACK_API_URL, { retries: false })),
      logger,
    ),
    userTimeZone: slackUserTimeZone(web),
    policy: spendPolicyOf(env),
    accountId: serviceAccountId(secrets.eisApiKey),
    logger,
    now,
  });
  return { env, logger, secrets, store, eis, web, worker, now };
}

export interface RuntimeOptions {
  logger?: Logger;
  /** The business clock (deadlines, due times, local dates); tests move it. */
  now?: () => Date;
}

/** A memo over the secrets: a rotated secret (seen after the provider's cache expires) rebuilds the clients. */
export function createRuntimeLoader(source: NodeJS.ProcessEnv = process.env, options: RuntimeOptions = {}) {
  const env = readEnv(source);
  const logger = options.logger ?? createLogger({ level: env.LOG_LEVEL });
  const secrets = createSecretsProvider(env, { client: () => new SecretsManagerClient({}) });
  let current: { secrets: AppSecrets; runtime: Runtime } | undefined;
  return async (): Promise<Runtime> => {
    const latest = await secrets();
    if (current?.secrets !== latest) {
      await current?.runtime.eis.close();
      current = { secrets: latest, runtime: build(env, logger, latest, options.now ?? (() => new Date())) };
    }
    return current.runtime;
  };
}

/** The Slack HTTP handler: Bolt on `AwsLambdaReceiver`, dispatching slow work to the worker. */
export function createSlackHandlerLoader(
  source: NodeJS.ProcessEnv = process.env,
  options: RuntimeOptions = {},
) {
  const loadRuntime = createRuntimeLoader(source, options);
  let built:
    | { runtime: Runtime; handler: SlackHttpHandler; dispatch: Dispatch & { idle?: () => Promise<void> } }
    | undefined;
  return async () => {
    const runtime = await loadRuntime();
    if (built?.runtime === runtime) return built;
    const { env, logger, worker } = runtime;
    const dispatch = dispatcherFor(env, worker, logger);
    // One auth.test per cold start: Bolt is given the ids and never calls it per request.
    const identity = await runtime.web.auth.test();
    const installedTeamId = env.SLACK_TEAM_ID ?? identity.team_id;
    if (!installedTeamId) throw new Error('SLACK_TEAM_ID is unset and auth.test returned no team_id');
    const { handler } = createSlackApp({
      signingSecret: runtime.secrets.slackSigningSecret,
      botToken: runtime.secrets.slackBotToken,
      botId: identity.bot_id ?? '',
      botUserId: identity.user_id ?? '',
      installedTeamId,
      ...(env.SLACK_API_URL ? { slackApiUrl: env.SLACK_API_URL } : {}),
      logger,
      deps: {
        dispatch,
        confirmations: runtime.store.confirmations,
        deliveries: runtime.store.deliveries,
        policy: spendPolicyOf(env),
        logger,
      },
    });
    built = { runtime, handler, dispatch };
    return built;
  };
}

function dispatcherFor(env: Env, worker: Worker, logger: Logger): Dispatch & { idle?: () => Promise<void> } {
  if (env.WORKER_MODE === 'inline') return inlineDispatch((job) => worker.handle(job), logger);
  if (!env.WORKER_FUNCTION_NAME)
    throw new Error('WORKER_FUNCTION_NAME is required unless WORKER_MODE=inline');
  return lambdaDispatch(new LambdaClient({}), env.WORKER_FUNCTION_NAME);
}
