import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { Env } from '../platform/config/env.ts';
import { createOAuthSecretsProvider, createSecretsProvider } from '../platform/config/secrets.ts';
import { readWithSdk } from '../platform/config/secrets-manager.ts';
import { notFixedByEnvironment, SINGLE_WORKSPACE_ID, spendPolicyOf } from './workspace-policy.ts';
import type { SpendPolicy } from '../domain/approval.ts';
import { WorkspaceNotConnectedError } from '../platform/errors.ts';

import type { Logger } from '../platform/log.ts';
import { createInstallationTokens } from '../slack/installation-tokens.ts';
import type { DigestDefaults } from '../domain/digest-defaults.ts';
import type { Store } from '../store/index.ts';
import { installationOf } from '../store/workspaces.ts';

/** What acting for one workspace takes: its bot token, its service key and its spending rules. */
export interface WorkspaceAccess {
  /** Unset for the single workspace of a default deployment. */
  teamId?: string;
  botToken: string;
  eisApiKey: string;
  /**
   * The spending rules in a channel (undefined: the workspace's, no channel's approvers), their
   * approvers resolved on each call (src/roots/workspace-policy.ts).
   */
  policyIn: (channelId: string | undefined) => Promise<SpendPolicy>;
  /** Distributed: the workspace's defaults for a digest set up without a time (its admin sets them). */
  digestDefaults?: DigestDefaults | undefined;
}

export interface WorkspaceAccessOptions {
  secretsClient: () => SecretsManagerClient;
  logger: Logger;
}

/**
 * Each job's access. Single workspace (the default): the app secret's token and key, the
 * environment's rules and, where it sets none, those the workspace's admins saved. Distributed (`SLACK_CLIENT_ID` set): the team's install
 * (its token refreshed when due), its connected key and its own rules over the environment's. Both
 * rules come from `spendPolicyOf`, their approvers read with the bot token in the channel asked for.
 * The same object comes back while nothing changed, so callers rebuild clients only on a change.
 */
export function createWorkspaceAccess(env: Env, store: Store, options: WorkspaceAccessOptions) {
  const { logger } = options;
  if (!env.SLACK_CLIENT_ID) {
    const secrets = createSecretsProvider(env, { readSecret: readWithSdk(options.secretsClient) });
    let last: { from: unknown; saved: string; access: WorkspaceAccess } | undefined;
    const single = async (_teamId?: string): Promise<WorkspaceAccess> => {
      const [latest, own] = await Promise.all([secrets(), store.workspaces.getPolicy(SINGLE_WORKSPACE_ID)]);
      const saved = notFixedByEnvironment(env, own);
      const botToken = latest.slackBotToken;
      if (last?.from !== latest || last.saved !== JSON.stringify(own))
        last = {
          from: latest,
          saved: JSON.stringify(own),
          access: {
            botToken,
            eisApiKey: latest.eisApiKey,
            policyIn: (channelId) =>
              spendPolicyOf(env, saved, { teamId: SINGLE_WORKSPACE_ID, channelId, botToken }, { logger }),
            digestDefaults: own?.digestDefaults,
          },
        };
      return last.access;
    };
    const botTokenOf = async (_teamId: string) => (await secrets()).slackBotToken;
    return Object.assign(single, { distributed: false, botTokenOf });
  }
  const clientId = env.SLACK_CLIENT_ID;
  const oauthSecrets = createOAuthSecretsProvider(env, { readSecret: readWithSdk(options.secretsClient) });
  let tokens: { secret: string; tokens: ReturnType<typeof createInstallationTokens> } | undefined;
  const tokensFor = async () => {
    const { slackClientSecret } = await oauthSecrets();
    if (tokens?.secret !== slackClientSecret) {
      tokens = {
        secret: slackClientSecret,
        tokens: createInstallationTokens({
          installations: store.installations,
          clientId,
          clientSecret: slackClientSecret,
          ...(env.SLACK_API_URL ? { slackApiUrl: env.SLACK_API_URL } : {}),
          logger: options.logger,
        }),
      };
    }
    return tokens.tokens;
  };
  const known = new Map<string, { connectedAt: string; eisApiKey: string; saved: string; access: WorkspaceAccess }>();
  const distributed = async (teamId?: string): Promise<WorkspaceAccess> => {
    if (!teamId) throw new Error('A distributed app acts for one workspace at a time: a team id is required');
    const [keyInfo, own] = await Promise.all([
      store.workspaces.getServiceKeyInfo(teamId),
      store.workspaces.getPolicy(teamId),
    ]);
    if (!keyInfo) throw new WorkspaceNotConnectedError(teamId);
    const botToken = await (await tokensFor()).botToken(installationOf(keyInfo));
    const cached = known.get(teamId);
    // The key is decrypted (a KMS call on AWS) only when a new one was connected.
    const eisApiKey =
      cached?.connectedAt === keyInfo.connectedAt
        ? cached.eisApiKey
        : (await store.workspaces.getServiceKey(teamId))?.serviceKey;
    if (!eisApiKey) throw new WorkspaceNotConnectedError(teamId);
    const saved = JSON.stringify(own);
    const same = cached?.access.botToken === botToken && cached.eisApiKey === eisApiKey && cached.saved === saved;
    const access: WorkspaceAccess = same
      ? cached.access
      : {
          teamId,
          botToken,
          eisApiKey,
          policyIn: (channelId) => spendPolicyOf(env, own, { teamId, channelId, botToken }, { logger }),
          digestDefaults: own?.digestDefaults,
        };
    known.set(teamId, { connectedAt: keyInfo.connectedAt, eisApiKey, saved, access });
    return access;
  };
  /** The workspace's own install's token, to tell a workspace with no key that it has none. */
  const botTokenOf = async (teamId: string) => (await tokensFor()).botToken({ teamId });
  return Object.assign(distributed, { distributed: true, botTokenOf });
}

