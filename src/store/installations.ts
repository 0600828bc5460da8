import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { KeyCipher } from '../platform/config/key-cipher.ts';
import { AppError } from '../platform/errors.ts';
import {
  conditionalUpdate,
  type Installation,
  type InstallationLookup,
  installationKey,
  InstallationSchema,
  installedId,
  lookupOf,
  readStored,
  type ServingQuery,
  type StoredInstallation,
} from './installation-items.ts';
import { refreshLease } from './installation-refresh-lease.ts';
import { tokenSealer, withTokens } from './installation-token-sealing.ts';
import { ITEM_TYPE } from './keys.ts';
import { isConditionalCheckFailed, type StoreContext, type StoreDeps, storeContext } from './support.ts';

/**
 * Slack installations (one per workspace, or one per enterprise for org-wide installs) in the single
 * table. The repository has the shape of `@slack/oauth`'s `InstallationStore` (the store imports
 * nothing of Slack: src/slack/oauth-stores.ts hands it to `InstallProvider`), so the install flow
 * stores what `oauth.v2.access` answered and Bolt reads it back. One installation per workspace: a
 * query's `userId` is ignored (the bot acts with its bot token). The item's shape and key are in
 * installation-items.ts; items are parsed on read (loosely: Slack adds fields over time).
 *
 * A reinstall replaces only the bot's tokens and scopes: the rest of the item (who first installed,
 * which is no authority: admins are a Slack role) stays, and so does everything the workspace set
 * (its key and settings are items of their own). `serving` finds the install that serves a
 * workspace: its own, else its Enterprise Grid org's org-wide one.
 *
 * Besides the library's three methods, `claimRefresh` / `saveRefreshed` / `releaseRefresh` let
 * token rotation (src/slack/installation-tokens.ts) refresh a bot token once across instances: a
 * lease on the item, taken only while the refresh token read is still the stored one
 * (installation-refresh-lease.ts).
 *
 * Tokens (bot and user, access and refresh) are stored encrypted with the store's `KeyCipher` under
 * the `slack-tokens` purpose, bound to the id the item is keyed by (the team's, or the enterprise's
 * for an org-wide install); reads give them back in plain text. Without a cipher (a single-workspace
 * app, which stores no installations) they are stored as given. Items written before encryption
 * hold plain tokens: they still read, and the next write (refresh or reinstall) encrypts them
 * (installation-token-sealing.ts).
 */

export {
  type Installation,
  type InstallationLookup,
  installationKey,
  type ServingQuery,
} from './installation-items.ts';
export type { RefreshedBotToken } from './installation-refresh-lease.ts';

/** Names an install in messages (ids only). */
export const describeInstallation = ({ teamId, enterpriseId, isEnterpriseInstall }: InstallationLookup) =>
  isEnterpriseInstall ? `enterprise ${enterpriseId ?? '?'}` : `team ${teamId ?? '?'}`;

/** No installation for the workspace (never installed, or uninstalled). */
export class InstallationNotFoundError extends AppError {
  constructor(lookup: InstallationLookup) {
    super('INSTALLATION_NOT_FOUND', `No Slack installation for ${describeInstallation(lookup)}`, {
      userMessage: 'This workspace has not installed the app yet (or has removed it).',
    });
  }
}

export type InstallationRepository = ReturnType<typeof createInstallationRepository>;

export function createInstallationRepository(deps: StoreDeps, cipher?: KeyCipher) {
  const context = storeContext(deps);
  const { client, tableName, now } = context;
  const sealer = tokenSealer(cipher);

  async function read(lookup: InstallationLookup): Promise<StoredInstallation | undefined> {
    const stored = await readStored(context, lookup);
    if (!stored) return undefined;
    const id = installedId(lookup);
    return { ...stored, installation: await withTokens(stored.installation, (t) => sealer.open(id, t)) };
  }

  return {
    /**
     * An install stores the item; a reinstall replaces only the bot's tokens and scopes (ending any
     * refresh under way) and keeps the rest, the first installer included. Parsed first.
     */
    async storeInstallation(installation: unknown): Promise<void> {
      const parsed = InstallationSchema.parse(installation);
      const lookup = lookupOf(parsed);
      const id = installedId(lookup);
      const sealed = await withTokens(parsed, (token) => sealer.seal(id, token));
      const at = now().toISOString();
      if (await replaceBot(context, lookup, sealed.bot, at)) return;
      const item = { type: ITEM_TYPE.installation, installation: sealed, updatedAt: at };
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...installationKey(lookup), ...(item satisfies StoredInstallation) },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
      } catch (error) {
        // Another install of the same workspace stored it first: this one is a reinstall.
        if (!isConditionalCheckFailed(error)) throw error;
        await replaceBot(context, lookup, sealed.bot, at);
      }
    },

    async fetchInstallation(query: InstallationLookup): Promise<Installation> {
      const stored = await read(query);
      if (!stored) throw new InstallationNotFoundError(query);
      return stored.installation;
    },

    async deleteInstallation(query: InstallationLookup): Promise<void> {
      await client.send(new DeleteCommand({ TableName: tableName, Key: installationKey(query) }));
    },

    /** The item with its refresh lease, or `undefined` when not installed. */
    read,

    /**
     * The install that serves a workspace, with the lookup it is found by: the workspace's own when
     * it has one, else its org's org-wide one; `undefined` when neither does (the app is removed).
     */
    async serving(
      query: ServingQuery,
    ): Promise<(StoredInstallation & { lookup: InstallationLookup }) | undefined> {
      for (const lookup of servingCandidates(query)) {
        const stored = await read(lookup);
        if (stored) return { ...stored, lookup };
      }
      return undefined;
    },

    /**
     * Whether the install `serving` finds has a bot token, read without decrypting it: a command's
     * ack needs to know the workspace is served, not its token (src/roots/slack-distributed.ts).
     */
    async servesWithBot(query: ServingQuery): Promise<boolean> {
      for (const lookup of servingCandidates(query)) {
        const stored = await readStored(context, lookup);
        if (stored) return stored.installation.bot !== undefined;
      }
      return false;
    },
    ...refreshLease(context, sealer),
  };
}

/** The installs that may serve a workspace, in the order they are tried: its own, then its org's. */
const servingCandidates = (query: ServingQuery): InstallationLookup[] => [
  ...(query.teamId ? [{ teamId: query.teamId, isEnterpriseInstall: false }] : []),
  ...(query.enterpriseId
    ? [{ teamId: query.teamId, enterpriseId: query.enterpriseId, isEnterpriseInstall: true }]
    : []),
];

/**
 * A reinstall: the stored item's bot (tokens, scopes, ids) replaced by `bot` (sealed) and any refresh
 * lease ended, nothing else touched; `false` when there is no item yet (a first install).
 */
function replaceBot(
  context: StoreContext,
  lookup: InstallationLookup,
  bot: Installation['bot'],
  at: string,
): Promise<boolean> {
  return conditionalUpdate(context, {
    TableName: context.tableName,
    Key: installationKey(lookup),
    UpdateExpression: `${bot ? 'SET installation.bot = :bot, ' : 'SET '}updatedAt = :at REMOVE ${
      bot ? '' : 'installation.bot, '
    }refreshLeaseOwner, refreshLeaseUntil`,
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':at': at, ...(bot ? { ':bot': bot } : {}) },
  });
}
