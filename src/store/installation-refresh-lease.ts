import {
  conditionalUpdate,
  type InstallationLookup,
  installationKey,
  installedId,
  readStored,
} from './installation-items.ts';
import type { TokenSealer } from './installation-token-sealing.ts';
import { epochSeconds, type StoreContext } from './support.ts';

/** The new bot token from a refresh (`expiresAt` in epoch seconds). */
export interface RefreshedBotToken {
  token: string;
  refreshToken: string;
  expiresAt: number;
}

/** The lease that lets one instance refresh a bot token (src/slack/installation-tokens.ts). */
export function refreshLease(context: StoreContext, sealer: TokenSealer) {
  const { tableName, now } = context;
  return {
    /**
     * Takes the refresh lease for `leaseSeconds`: only while `refreshToken` is still the stored one
     * (nobody refreshed since it was read) and no other lease is running. `false` when either fails.
     * Each write encrypts afresh, so the condition is on the stored ciphertext, once it is known to
     * hold `refreshToken` (decrypted from memory: the caller has just read it).
     */
    async claimRefresh(
      lookup: InstallationLookup,
      { refreshToken, owner, leaseSeconds }: { refreshToken: string; owner: string; leaseSeconds: number },
    ): Promise<boolean> {
      const stored = (await readStored(context, lookup))?.installation.bot?.refreshToken;
      const id = installedId(lookup);
      if (stored === undefined || (await sealer.open(id, stored)) !== refreshToken) return false;
      const at = epochSeconds(now());
      return conditionalUpdate(context, {
        TableName: tableName,
        Key: installationKey(lookup),
        UpdateExpression: 'SET refreshLeaseOwner = :owner, refreshLeaseUntil = :until',
        ConditionExpression:
          // Its own lease too: a retried write whose first answer was lost finds the lease it took.
          'installation.bot.refreshToken = :refresh AND (attribute_not_exists(refreshLeaseUntil) OR refreshLeaseUntil <= :now OR refreshLeaseOwner = :owner)',
        ExpressionAttributeValues: {
          ':owner': owner,
          ':until': at + leaseSeconds,
          ':refresh': stored,
          ':now': at,
        },
      });
    },

    /**
     * Stores the refreshed bot token and ends any lease, only over the refresh token it was refreshed
     * from (`replaces`): so a late save (after a failed write) still lands, and never over a reinstall
     * or another refresh. `false` when the stored refresh token is no longer `replaces`.
     */
    async saveRefreshed(
      lookup: InstallationLookup,
      replaces: string,
      bot: RefreshedBotToken,
    ): Promise<boolean> {
      const id = installedId(lookup);
      const stored = (await readStored(context, lookup))?.installation.bot?.refreshToken;
      if (stored === undefined || (await sealer.open(id, stored)) !== replaces) return false;
      const [token, refreshToken] = await Promise.all([
        sealer.seal(id, bot.token),
        sealer.seal(id, bot.refreshToken),
      ]);
      return conditionalUpdate(context, {
        TableName: tableName,
        Key: installationKey(lookup),
        UpdateExpression:
          'SET installation.bot.#token = :token, installation.bot.refreshToken = :refresh, installation.bot.expiresAt = :expires, updatedAt = :at REMOVE refreshLeaseOwner, refreshLeaseUntil',
        ConditionExpression: 'installation.bot.refreshToken = :replaces',
        ExpressionAttributeNames: { '#token': 'token' },
        ExpressionAttributeValues: {
          ':token': token,
          ':refresh': refreshToken,
          ':expires': bot.expiresAt,
          ':at': now().toISOString(),
          ':replaces': stored,
        },
      });
    },

    /** Gives the lease up after a failed refresh, so the next caller may try at once. */
    async releaseRefresh(lookup: InstallationLookup, owner: string): Promise<void> {
      await conditionalUpdate(context, {
        TableName: tableName,
        Key: installationKey(lookup),
        UpdateExpression: 'REMOVE refreshLeaseOwner, refreshLeaseUntil',
        ConditionExpression: 'refreshLeaseOwner = :owner',
        ExpressionAttributeValues: { ':owner': owner },
      });
    },
  };
}
