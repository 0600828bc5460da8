import { forgetWorkspace } from '../domain/forget-workspace.ts';
import type { Env } from '../platform/config/env.ts';
import type { KeyCipher } from '../platform/config/key-cipher.ts';
import { createOAuthSecretsProvider, type ReadSecret } from '../platform/config/secrets.ts';
import type { Logger } from '../platform/log.ts';
import { type CommandSource, commandRequests } from '../slack/command-requests.ts';
import { slackHttpBoundary } from '../slack/http-boundary.ts';
import { needsServiceKey } from '../slack/commands/index.ts';
import type { ListenerDeps } from '../slack/kit/listener-deps.ts';
import type { Store } from '../store/index.ts';
import { InstallationNotFoundError } from '../store/installations.ts';
import { installationOf, type ServedWorkspace } from '../store/workspaces.ts';
import { deferred, once, rebuiltOnChange } from './deferred.ts';
import { type BuiltHandler, type Observers, observed } from './slack-observed.ts';
import { environmentRulesOf, spendPolicyOf } from './workspace-policy.ts';

// Loaded by `slack-runtime.ts` with `import()` only when `SLACK_CLIENT_ID` is set: with code splitting a
// single-workspace app never compiles KMS, the OAuth pages and stores or the token refresh.

/** What the Slack function's composition hands the distributed app's. */
export interface SlackFunctionParts {
  /** The store on the function's DynamoDB client, with this key cipher (the AWS SDK loads then). */
  storeWith(keyCipher?: KeyCipher): Promise<Store>;
  /** The listeners' dependencies on that store. */
  depsOf(store: Required<Pick<ListenerDeps, 'confirmations' | 'digestSubscriptions'>>): ListenerDeps;
  observe: Observers;
  /** Secrets Manager's GetSecretValue (`slack-aws.ts`). */
  readSecret: ReadSecret;
}

/**
 * A distributed app (issue 15): the OAuth install pages on the same URL, each request authorized by
 * its workspace's installation (unknown workspaces refused before any listener runs, tokens refreshed
 * when due), and an uninstall forgetting the workspace. A command from a served workspace is
 * answered without Bolt (`servedCommands`); Bolt, the token refresh and the OAuth pages load on the
 * first request that needs them (issue 24).
 */
export async function distributedHandlerLoader(env: Env, clientId: string, parts: SlackFunctionParts) {
  const { observe } = parts;
  const { logger, tracing } = observe;
  // Admins connect each workspace's service key here (App Home), stored encrypted, as are bot tokens.
  // No command's ack decrypts anything: KMS's client loads with the first request that does.
  const keyCipher = once(async () => {
    const [{ createKeyCipher }, { KMSClient }] = await Promise.all([
      import('../platform/config/kms-key-cipher.ts'),
      import('@aws-sdk/client-kms'),
    ]);
    return createKeyCipher(env, { kms: () => tracing.captureAwsClient(new KMSClient({})) });
  });
  const store = await parts.storeWith(deferred<KeyCipher>(keyCipher, { encrypt: true, decrypt: true }));
  const deps = parts.depsOf(store);
  const secrets = createOAuthSecretsProvider(env, { readSecret: parts.readSecret });
  const slackApiUrl = env.SLACK_API_URL ? { slackApiUrl: env.SLACK_API_URL } : {};
  const build = (latest: Awaited<ReturnType<typeof secrets>>): BuiltHandler => {
    const settings = { clientId, clientSecret: latest.slackClientSecret, ...slackApiUrl, logger };
    const bolt = once(async () => {
      // With them `@slack/web-api`, which no command's ack needs.
      const [{ createBoltApp }, { createInstallationTokens }] = await Promise.all([
        import('../slack/app.ts'),
        import('../slack/installation-tokens.ts'),
      ]);
      const tokens = createInstallationTokens({ installations: store.installations, ...settings });
      return createBoltApp({
        signingSecret: latest.slackSigningSecret,
        workspaces: {
          // No installation: no token, and the app's first middleware refuses the request with a message.
          authorize: (source) =>
            tokens.authorize(source).catch((error: unknown) => {
              if (!(error instanceof InstallationNotFoundError)) throw error;
              return { ...(source.teamId ? { teamId: source.teamId } : {}) };
            }),
        },
        ...slackApiUrl,
        logger,
        deps: {
          ...boltDeps(env, store, deps, logger),
          policyFor: async (teamId, channelId, botToken) =>
            spendPolicyOf(env, await store.workspaces.getPolicy(teamId), { teamId, channelId, botToken }, {
              logger,
            }),
        },
      }).bolt;
    });
    const pages = once(async () => {
      const [{ oauthRoutes }, stores] = await Promise.all([
        import('../slack/oauth.ts'),
        import('../slack/oauth-stores.ts'),
      ]);
      return oauthRoutes({
        ...settings,
        stateSecret: latest.slackStateSecret,
        installationStore: stores.slackInstallationStore(store.installations),
        stateStore: stores.slackStateStore(store.oauthStates),
      });
    });
    const handler = slackHttpBoundary(bolt, {
      signingSecret: latest.slackSigningSecret,
      logger,
      // The OAuth pages (and `@slack/oauth`) load on the first GET; none is needed by a command.
      pages: async (event) => (await pages())(event),
      withoutBolt: commandRequests({ isServed: servedCommands(store), deps }),
    });
    return { handler: observed(handler, observe), dispatch: deps.dispatch };
  };
  // One build per secret value.
  return rebuiltOnChange(secrets, build);
}

/** The listeners' dependencies a distributed app adds: digest defaults, uninstall, key admin. */
function boltDeps(env: Env, store: Store, deps: ListenerDeps, logger: Logger): ListenerDeps {
  return {
    ...deps,
    digestDefaultsFor: async (teamId) => (await store.workspaces.getPolicy(teamId))?.digestDefaults,
    removeWorkspace: (workspace) => removeWorkspace(store, workspace, logger),
    workspaceAdmin: {
      workspaces: store.workspaces,
      scheduledWork: store.scheduledWork,
      eisBaseUrl: env.EIS_BASE_URL,
      environment: environmentRulesOf(env),
    },
  };
}

/**
 * Which commands are answered without Bolt: Bolt's own guards, read from the table (two reads at
 * once, nothing decrypted). A workspace with no install serving it, or (but for `help`) without a
 * service key, goes to Bolt, whose middleware refuses it in its own words (`app.ts`,
 * `until-connected.ts`).
 */
function servedCommands(store: Store) {
  return async ({ teamId, enterpriseId, text }: CommandSource): Promise<boolean> => {
    const [installed, connected] = await Promise.all([
      store.installations.servesWithBot({ teamId, enterpriseId }),
      !needsServiceKey(text) || store.workspaces.getServiceKeyInfo(teamId).then((info) => info !== null),
    ]);
    return installed && connected;
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
