import type { ConfirmationRepository } from '../domain/ports/index.ts';
import { type Env, readEnv } from '../platform/config/env.ts';
import { createSlackSecretsProvider, type SlackSecrets } from '../platform/config/secrets.ts';
import { createLogger, type Logger } from '../platform/log.ts';
import { createMetrics } from '../platform/metrics.ts';
import { NO_TRACING, type Tracing } from '../platform/tracing.ts';
import { inlineDispatch, lambdaDispatch } from '../slack/dispatch.ts';
import type { Job } from '../slack/kit/jobs.ts';
import { commandRequests } from '../slack/command-requests.ts';
import { slackHttpBoundary } from '../slack/http-boundary.ts';
import type { Store } from '../store/index.ts';
import { deferred, once, rebuiltOnChange } from './deferred.ts';
import { fetchedDeliveryLog, fetchedPlanShows, secretReader, workerInvoker } from './slack-aws.ts';
import type { SlackFunctionParts } from './slack-distributed.ts';
import { type BuiltHandler, observed } from './slack-observed.ts';
import type { ListenerDeps } from '../slack/kit/listener-deps.ts';
import {
  environmentRulesOf,
  notFixedByEnvironment,
  SINGLE_WORKSPACE_ID,
  spendPolicyOf,
} from './workspace-policy.ts';

/**
 * The Slack function's composition: Bolt, the confirmations and deliveries it writes, and a dispatch
 * to the worker. It holds no service client and no service key (a distributed app's admin modal checks
 * a new key with one balance call, then forgets it), and imports none of the worker (its bundle stays
 * small, its cold start short). The first ack's AWS calls (secret, delivery record, Invoke) are signed
 * `fetch` (`slack-aws.ts`); the AWS SDK and the store load when a request first needs them.
 */
export interface SlackHandlerOptions {
  logger?: Logger;
  /** The business clock (deadlines); tests move it. */
  now?: () => Date;
  /** For `WORKER_MODE=inline` (the dev stack, tests): the worker that runs jobs in this process. */
  inlineWorker?: (teamId: string) => Promise<{ handle(job: Job): Promise<void> }>;
  /** X-Ray (on Lambda): its AWS SDK clients traced, each request and job it hands on annotated. */
  tracing?: Tracing;
}

export function createSlackHandlerLoader(
  source: NodeJS.ProcessEnv = process.env,
  options: SlackHandlerOptions = {},
): () => Promise<BuiltHandler> {
  const env = readEnv(source);
  const logger = options.logger ?? createLogger({ level: env.LOG_LEVEL });
  const tracing = options.tracing ?? NO_TRACING;
  const observe = { logger, metrics: createMetrics(source), tracing };
  const now = options.now ?? (() => new Date());
  const stores = once(() => import('./slack-sdk.ts').then((module) => module.slackStores(env, tracing, now)));
  const plainStore = once(async () => (await stores())());
  const deliveries = fetchedDeliveryLog(env, source, now, tracing) ?? {
    first: async (key: string) => (await plainStore()).deliveries.first(key),
  };
  const planShows =
    fetchedPlanShows(env, source, tracing) ??
    (async (teamId: string, channelId: string) =>
      (await (await plainStore()).plans.get(teamId, channelId))?.shows ?? []);
  const dispatch = dispatcherFor(env, source, options.inlineWorker, logger, tracing);
  const parts: SlackFunctionParts = {
    storeWith: async (keyCipher) => (await stores())(keyCipher),
    depsOf: (store) => ({
      dispatch,
      confirmations: store.confirmations,
      deliveries,
      planShows,
      digestSubscriptions: store.digestSubscriptions,
      policyFor: (teamId, channelId, botToken) =>
        spendPolicyOf(env, null, { teamId, channelId, botToken }, { logger }),
      unfurlDomains: env.UNFURL_DOMAINS,
      logger,
    }),
    observe,
    readSecret: secretReader(source, tracing),
  };
  const { SLACK_CLIENT_ID } = env;
  if (SLACK_CLIENT_ID) {
    const distributed = import('./slack-distributed.ts').then((module) =>
      module.distributedHandlerLoader(env, SLACK_CLIENT_ID, parts),
    );
    distributed.catch(() => undefined); // reported by the request that awaits it
    return async () => (await distributed)();
  }
  return singleWorkspaceLoader(env, parts, plainStore);
}

const CONFIRMATION_METHODS: Record<keyof ConfirmationRepository, true> = {
  create: true,
  get: true,
  attachMessage: true,
  claim: true,
  expire: true,
  abandon: true,
  cancel: true,
  cardShown: true,
  askAgain: true,
  due: true,
};

/**
 * One workspace, its bot token in the secret (a distributed app has none). A command is answered
 * without Bolt (`command-requests.ts`); Bolt and the listeners load on the first request that needs
 * them (a click, an event, a modal), so a cold start that answers a command never compiles them.
 */
function singleWorkspaceLoader(
  env: Env,
  parts: SlackFunctionParts,
  store: () => Promise<Store>,
): () => Promise<BuiltHandler> {
  const { logger } = parts.observe;
  const secrets = createSlackSecretsProvider(env, { readSecret: parts.readSecret });
  secrets().catch(() => undefined); // reported by the request that reads it again
  // The store's AWS SDK loads on the first request that reads or writes more than a delivery record.
  const deps = singleWorkspaceSettings(
    env,
    parts.depsOf({
      confirmations: deferred<ConfirmationRepository>(
        async () => (await store()).confirmations,
        CONFIRMATION_METHODS,
      ),
      digestSubscriptions: {
        get: async (teamId, channelId) => (await store()).digestSubscriptions.get(teamId, channelId),
      },
    }),
    store,
  );
  const build = (latest: SlackSecrets): BuiltHandler => {
    const identity = once(() => slackIdentity(env, latest.slackBotToken));
    const bolt = once(async () => {
      const { createBoltApp } = await import('../slack/app.ts');
      return createBoltApp({
        signingSecret: latest.slackSigningSecret,
        workspaces: { botToken: latest.slackBotToken, ...(await identity()) },
        ...(env.SLACK_API_URL ? { slackApiUrl: env.SLACK_API_URL } : {}),
        logger,
        deps,
      }).bolt;
    });
    const handler = slackHttpBoundary(bolt, {
      signingSecret: latest.slackSigningSecret,
      logger,
      withoutBolt: commandRequests({
        isServed: async ({ teamId }) => teamId === (await identity()).installedTeamId,
        deps,
      }),
    });
    return { handler: observed(handler, parts.observe), dispatch: deps.dispatch };
  };
  // One build per secret value.
  return rebuiltOnChange(secrets, build);
}

/**
 * The single workspace's settings: the rules its environment sets stand (shown read-only in the
 * settings modal), and its admins set the others (and the digest defaults) there, saved in the table
 * under `SINGLE_WORKSPACE_ID`. Also the Socket Mode dev app's (`local/dev-socket.ts`).
 */
export function singleWorkspaceSettings(
  env: Env,
  deps: ListenerDeps,
  store: () => Promise<Store>,
): ListenerDeps {
  const { logger } = deps;
  const workspaces = async () => (await store()).workspaces;
  const getPolicy = async (_teamId: string) => (await workspaces()).getPolicy(SINGLE_WORKSPACE_ID);
  return {
    ...deps,
    policyFor: async (teamId, channelId, botToken) =>
      spendPolicyOf(
        env,
        notFixedByEnvironment(env, await getPolicy(teamId)),
        { teamId, channelId, botToken },
        { logger },
      ),
    digestDefaultsFor: async (teamId) => (await getPolicy(teamId))?.digestDefaults,
    workspaceAdmin: {
      workspaces: {
        getPolicy,
        getServiceKeyInfo: async (teamId) => (await workspaces()).getServiceKeyInfo(teamId),
        saveSettings: async (update) =>
          (await workspaces()).saveSettings({ ...update, teamId: SINGLE_WORKSPACE_ID }),
      },
      scheduledWork: { get: async (teamId) => (await store()).scheduledWork.get(teamId) },
      eisBaseUrl: env.EIS_BASE_URL,
      environment: environmentRulesOf(env),
    },
  };
}

/**
 * Who the bot is and which workspace it serves: from `SLACK_BOT_USER_ID` and `SLACK_TEAM_ID` when
 * configured (no network before the first ack), else from one `auth.test` per cold start (Bolt is
 * given the ids and never calls it per request).
 */
async function slackIdentity(env: Env, botToken: string) {
  if (env.SLACK_BOT_USER_ID && env.SLACK_TEAM_ID) {
    return { botId: '', botUserId: env.SLACK_BOT_USER_ID, installedTeamId: env.SLACK_TEAM_ID };
  }
  const { botIdentityOf } = await import('../slack/bot-identity.ts');
  return botIdentityOf(botToken, env.SLACK_API_URL, {
    teamId: env.SLACK_TEAM_ID,
    botUserId: env.SLACK_BOT_USER_ID,
  });
}

function dispatcherFor(
  env: Env,
  source: NodeJS.ProcessEnv,
  inlineWorker: SlackHandlerOptions['inlineWorker'],
  logger: Logger,
  tracing: Tracing,
): BuiltHandler['dispatch'] {
  if (env.WORKER_MODE === 'inline') {
    if (!inlineWorker) throw new Error('WORKER_MODE=inline needs the worker in this process (npm run dev)');
    return inlineDispatch(async (job) => (await inlineWorker(job.context.teamId)).handle(job), logger);
  }
  if (!env.WORKER_FUNCTION_NAME)
    throw new Error('WORKER_FUNCTION_NAME is required unless WORKER_MODE=inline');
  return lambdaDispatch(workerInvoker(source, env.WORKER_FUNCTION_NAME, tracing), tracing);
}
