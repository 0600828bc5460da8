import { randomUUID } from 'node:crypto';
import { KMSClient } from '@aws-sdk/client-kms';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { WebClient } from '@slack/web-api';
import { type Env, readEnv } from '../platform/config/env.ts';
import { spendPolicyOf } from './workspace-policy.ts';
import { createKeyCipher } from '../platform/config/key-cipher.ts';
import { forgetWorkspace } from '../domain/forget-workspace.ts';
import {
  createOAuthSecretsProvider,
  createSlackSecretsProvider,
  type SlackSecrets,
} from '../platform/config/secrets.ts';
import type { Metrics } from '../domain/ports/index.ts';
import { createLogger, type Logger, withCorrelationId } from '../platform/log.ts';
import { createMetrics } from '../platform/metrics.ts';
import { createSlackApp, type SlackHttpEvent, type SlackHttpHandler } from '../slack/app.ts';
import { createInstallationTokens } from '../slack/installation-tokens.ts';
import type { ListenerDeps } from '../slack/listeners/deps.ts';
import { oauthRoutes } from '../slack/oauth.ts';
import { slackInstallationStore, slackStateStore } from '../slack/oauth-stores.ts';
import { inlineDispatch, lambdaDispatch } from '../slack/dispatch.ts';
import type { Dispatch, Job } from '../slack/jobs.ts';
import { webClientOptions } from '../slack/web-client.ts';
import { createStore, type Store } from '../store/index.ts';
import { InstallationNotFoundError } from '../store/installations.ts';
import { installationOf, type ServedWorkspace } from '../store/workspaces.ts';
import { createDocumentClient } from '../store/table.ts';
import { NO_TRACING, type Tracing } from '../platform/tracing.ts';
import { workspacePolicy } from './workspace-access.ts';

/**
 * The Slack function's composition: Bolt, the confirmations and deliveries it writes, and a dispatch
 * to the worker. It holds no service client and no service key (a distributed app's admin modal checks
 * a new key with one balance call, then forgets it), and imports none of the worker (its bundle stays
 * small, its cold start short).
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

type BuiltHandler = { handler: SlackHttpHandler; dispatch: Dispatch & { idle?: () => Promise<void> } };

export function createSlackHandlerLoader(
  source: NodeJS.ProcessEnv = process.env,
  options: SlackHandlerOptions = {},
) {
  const env = readEnv(source);
  const logger = options.logger ?? createLogger({ level: env.LOG_LEVEL });
  const metrics = createMetrics(source);
  const tracing = options.tracing ?? NO_TRACING;
  const endpoint = env.AWS_ENDPOINT_URL_DYNAMODB;
  const store = createStore({
    client: tracing.captureAwsClient(createDocumentClient(endpoint ? { endpoint } : {})),
    tableName: env.TABLE_NAME,
    now: options.now ?? (() => new Date()),
    // Distributed: admins connect each workspace's service key here (App Home), stored encrypted.
    ...(env.SLACK_CLIENT_ID
      ? { keyCipher: createKeyCipher(env, { kms: () => tracing.captureAwsClient(new KMSClient({})) }) }
      : {}),
  });
  const dispatch = dispatcherFor(env, options.inlineWorker, logger, tracing);
  const deps: ListenerDeps = {
    dispatch,
    confirmations: store.confirmations,
    deliveries: store.deliveries,
    digestSubscriptions: store.digestSubscriptions,
    policyFor: () => Promise.resolve(spendPolicyOf(env)),
    unfurlDomains: env.UNFURL_DOMAINS,
    logger,
  };
  if (env.SLACK_CLIENT_ID) {
    return distributedHandlerLoader(env, env.SLACK_CLIENT_ID, store, deps, { logger, metrics, tracing });
  }
  // Only a single-workspace app has a bot token to read (a distributed one may set none).
  const secrets = createSlackSecretsProvider(env, {
    client: () => tracing.captureAwsClient(new SecretsManagerClient({})),
  });
  const build = async (latest: SlackSecrets): Promise<BuiltHandler> => {
    const identity = await slackIdentity(env, latest.slackBotToken);
    const { handler } = createSlackApp({
      signingSecret: latest.slackSigningSecret,
      workspaces: { botToken: latest.slackBotToken, ...identity },
      ...(env.SLACK_API_URL ? { slackApiUrl: env.SLACK_API_URL } : {}),
      logger,
      deps,
    });
    return { handler: observed(handler, { logger, metrics, tracing }), dispatch };
  };
  // One build per secret value, shared by concurrent callers (the init phase and the first request).
  let built: { secrets: SlackSecrets; handler: Promise<BuiltHandler> } | undefined;
  return async (): Promise<BuiltHandler> => {
    const latest = await secrets();
    if (built?.secrets !== latest) {
      const attempt = build(latest);
      built = { secrets: latest, handler: attempt };
      attempt.catch(() => {
        if (built?.handler === attempt) built = undefined;
      });
    }
    return built.handler;
  };
}

/**
 * A distributed app (issue 15): the OAuth install pages on the same URL, each request authorized by
 * its workspace's installation (unknown workspaces refused before any listener runs, tokens refreshed
 * when due), and an uninstall forgetting the workspace.
 */
function distributedHandlerLoader(
  env: Env,
  clientId: string,
  store: Store,
  deps: ListenerDeps,
  observe: { logger: Logger; metrics: Metrics; tracing: Tracing },
) {
  const { logger, tracing } = observe;
  const secrets = createOAuthSecretsProvider(env, {
    client: () => tracing.captureAwsClient(new SecretsManagerClient({})),
  });
  const slackApiUrl = env.SLACK_API_URL ? { slackApiUrl: env.SLACK_API_URL } : {};
  const build = (latest: Awaited<ReturnType<typeof secrets>>): BuiltHandler => {
    const settings = { clientId, clientSecret: latest.slackClientSecret, ...slackApiUrl, logger };
    const tokens = createInstallationTokens({ installations: store.installations, ...settings });
    const { handler } = createSlackApp({
      signingSecret: latest.slackSigningSecret,
      workspaces: {
        // No installation: no token, and the app's first middleware refuses the request with a message.
        authorize: (source) =>
          tokens.authorize(source).catch((error: unknown) => {
            if (!(error instanceof InstallationNotFoundError)) throw error;
            return { ...(source.teamId ? { teamId: source.teamId } : {}) };
          }),
        pages: oauthRoutes({
          ...settings,
          stateSecret: latest.slackStateSecret,
          installationStore: slackInstallationStore(store.installations),
          stateStore: slackStateStore(store.oauthStates),
        }),
      },
      ...slackApiUrl,
      logger,
      deps: {
        ...deps,
        policyFor: async (teamId, botToken) =>
          workspacePolicy(env, await store.workspaces.getPolicy(teamId), botToken, logger),
        digestDefaultsFor: async (teamId) => (await store.workspaces.getPolicy(teamId))?.digestDefaults,
        removeWorkspace: (workspace) => removeWorkspace(store, workspace, logger),
        workspaceAdmin: {
          workspaces: store.workspaces,
          scheduledWork: store.scheduledWork,
          eisBaseUrl: env.EIS_BASE_URL,
        },
      },
    });
    return { handler: observed(handler, observe), dispatch: deps.dispatch };
  };
  let built: { secrets: unknown; handler: BuiltHandler } | undefined;
  return async (): Promise<BuiltHandler> => {
    const latest = await secrets();
    if (built?.secrets !== latest) built = { secrets: latest, handler: build(latest) };
    return built.handler;
  };
}

/**
 * A workspace that removed the app: the installation the event names (an org-wide one by its
 * enterprise) deleted here, then the rest of the named workspace's data forgotten
 * (src/domain/forget-workspace.ts: key, policy, digests, open tasks; the ledger kept for audit) unless an
 * install still serves it (its own, when the org-wide one was removed). An org's other workspaces are
 * forgotten when the scheduled jobs next meet them without an installation.
 */
async function removeWorkspace(store: Store, workspace: ServedWorkspace, logger: Logger) {
  const { teamId, orgWideInstall } = workspace;
  await store.installations.deleteInstallation(
    orgWideInstall
      ? { enterpriseId: orgWideInstall.enterpriseId, isEnterpriseInstall: true }
      : { teamId, isEnterpriseInstall: false },
  );
  if (await store.installations.serving(installationOf(workspace))) return;
  await forgetWorkspace(store, teamId, logger);
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
  const identity = await new WebClient(botToken, webClientOptions(env.SLACK_API_URL)).auth.test();
  const installedTeamId = env.SLACK_TEAM_ID ?? identity.team_id;
  if (!installedTeamId) throw new Error('SLACK_TEAM_ID is unset and auth.test returned no team_id');
  return {
    botId: identity.bot_id ?? '',
    botUserId: env.SLACK_BOT_USER_ID ?? identity.user_id ?? '',
    installedTeamId,
  };
}

/**
 * Every line of a request, and of the jobs it hands on, carries one correlation id (so does its
 * trace, as an annotation); each answer's time is reported (Slack waits 3 s for it).
 */
function observed(
  handler: SlackHttpHandler,
  { logger, metrics, tracing }: { logger: Logger; metrics: Metrics; tracing: Tracing },
): SlackHttpHandler {
  return async (event: SlackHttpEvent, context: unknown) => {
    const started = performance.now();
    logger.addLambdaContext(context);
    const requestId = (event.requestContext as { requestId?: unknown } | undefined)?.requestId;
    const id = typeof requestId === 'string' ? requestId : randomUUID();
    tracing.annotate({ CorrelationId: id });
    try {
      return await withCorrelationId(id, () => handler(event, context));
    } finally {
      metrics.add('AckDuration', performance.now() - started);
    }
  };
}

function dispatcherFor(
  env: Env,
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
  const lambda = tracing.captureAwsClient(new LambdaClient({}));
  return lambdaDispatch(lambda, env.WORKER_FUNCTION_NAME, tracing);
}
