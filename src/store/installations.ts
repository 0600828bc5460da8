import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { type KeyCipher, NO_KEY_CIPHER, SLACK_TOKENS_PURPOSE } from '../platform/config/key-cipher.ts';
import { AppError } from '../platform/errors.ts';
import { ITEM_TYPE, type ItemKey, keys } from './keys.ts';
import {
  epochSeconds,
  isConditionalCheckFailed,
  parseItem,
  type StoreContext,
  type StoreDeps,
  storeContext,
} from './support.ts';

/**
 * Slack installations (one per workspace, or one per enterprise for org-wide installs) in the single
 * table. The repository has the shape of `@slack/oauth`'s `InstallationStore` (the store imports
 * nothing of Slack: src/slack/oauth-stores.ts hands it to `InstallProvider`), so the install flow
 * stores what `oauth.v2.access` answered and Bolt reads it back. One installation per workspace: a query's `userId` is ignored (the
 * bot acts with its bot token). Items are parsed on read (loosely: Slack adds fields over time).
 *
 * A reinstall replaces only the bot's tokens and scopes: the rest of the item (who first installed,
 * which is no authority: admins are a Slack role) stays, and so does everything the workspace set
 * (its key and settings are items of their own). `serving` finds the install that serves a
 * workspace: its own, else its Enterprise Grid org's org-wide one.
 *
 * Besides the library's three methods, `claimRefresh` / `saveRefreshed` / `releaseRefresh` let
 * token rotation (src/slack/installation-tokens.ts) refresh a bot token once across instances: a
 * lease on the item, taken only while the refresh token read is still the stored one.
 *
 * Tokens (bot and user, access and refresh) are stored encrypted with the store's `KeyCipher` under
 * the `slack-tokens` purpose, bound to the id the item is keyed by (the team's, or the enterprise's
 * for an org-wide install); reads give them back in plain text. Without a cipher (a single-workspace
 * app, which stores no installations) they are stored as given. Items written before encryption
 * hold plain tokens: they still read, and the next write (refresh or reinstall) encrypts them.
 */

/**
 * A key `Installation` requires but allows to be `undefined`: DynamoDB drops undefined values, so it
 * may be missing on read (the transform makes it a required key of the output, as the type wants).
 */
const orUndefined = <T extends z.ZodType>(schema: T) => schema.optional().transform((value) => value);

const Team = z.looseObject({ id: z.string().min(1), name: z.string().exactOptional() });

const BotSchema = z.looseObject({
  token: z.string().min(1),
  refreshToken: z.string().exactOptional(),
  /** Epoch seconds. */
  expiresAt: z.number().exactOptional(),
  scopes: z.array(z.string()),
  id: z.string(),
  userId: z.string(),
});

export const InstallationSchema = z.looseObject({
  team: orUndefined(Team),
  enterprise: orUndefined(Team),
  user: z.looseObject({
    token: orUndefined(z.string()),
    refreshToken: z.string().optional(),
    expiresAt: z.number().optional(),
    scopes: orUndefined(z.array(z.string())),
    id: z.string(),
  }),
  bot: BotSchema.exactOptional(),
  incomingWebhook: z
    .looseObject({
      url: z.string(),
      channel: z.string().exactOptional(),
      channelId: z.string().exactOptional(),
      configurationUrl: z.string().exactOptional(),
    })
    .exactOptional(),
  appId: z.string().exactOptional(),
  tokenType: z.literal('bot').exactOptional(),
  enterpriseUrl: z.string().exactOptional(),
  isEnterpriseInstall: z.boolean().exactOptional(),
  authVersion: z.enum(['v1', 'v2']).exactOptional(),
  metadata: z.string().exactOptional(),
});
/** `@slack/oauth`'s `Installation` as stored (src/slack/oauth-stores.ts checks the two agree). */
export type Installation = z.infer<typeof InstallationSchema>;

const InstallationItemSchema = z.object({
  type: z.literal(ITEM_TYPE.installation),
  installation: InstallationSchema,
  updatedAt: z.string(),
  /** Who is refreshing the bot token, until when (epoch seconds); absent when nobody is. */
  refreshLeaseOwner: z.string().exactOptional(),
  refreshLeaseUntil: z.number().exactOptional(),
});
export type StoredInstallation = z.infer<typeof InstallationItemSchema>;

/** Which install a query (`@slack/oauth`'s `InstallationQuery`) means: org-wide installs by enterprise, the others by team. */
export interface InstallationLookup {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
  isEnterpriseInstall?: boolean | undefined;
}

/** A workspace, and the Enterprise Grid org it belongs to when known: the installs that may serve it. */
export interface ServingQuery {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
}

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

/** The id an install is keyed by, and its tokens are encrypted for: org-wide installs' enterprise, or the team. */
const installedId = (lookup: InstallationLookup): string =>
  (lookup.isEnterpriseInstall ? lookup.enterpriseId : lookup.teamId) ?? '-';

export function installationKey(lookup: InstallationLookup): ItemKey {
  const id = installedId(lookup);
  return lookup.isEnterpriseInstall ? keys.installation(id, undefined) : keys.installation(undefined, id);
}

const lookupOf = (installation: Installation): InstallationLookup => ({
  teamId: installation.team?.id,
  enterpriseId: installation.enterprise?.id,
  isEnterpriseInstall: installation.isEnterpriseInstall === true,
});

/** Marks a stored token as ciphertext (base64 has no `:`, and no Slack token starts so). */
const SEALED = 'enc:';
/** Decrypted tokens kept per process; a few per workspace, each replaced every refresh. */
const MAX_OPENED_TOKENS = 1_000;

/**
 * Encrypts tokens for an install and decrypts them again. A decrypted token is kept by its
 * ciphertext (and the install's id, so a ciphertext copied to another item is not served from
 * memory), and so is one just encrypted: a warm function makes no KMS call for a token it has seen.
 */
function tokenSealer(cipher: KeyCipher | undefined) {
  const opened = new Map<string, Promise<string>>();
  const remember = (key: string, plaintext: Promise<string>) => {
    const oldest = opened.keys().next();
    if (opened.size >= MAX_OPENED_TOKENS && !oldest.done) opened.delete(oldest.value);
    opened.set(key, plaintext);
  };
  return {
    async seal(id: string, token: string): Promise<string> {
      if (!cipher) return token; // a single-workspace app's store, which keeps no installations
      const sealed = SEALED + (await cipher.encrypt(id, token, SLACK_TOKENS_PURPOSE));
      remember(`${id} ${sealed}`, Promise.resolve(token));
      return sealed;
    },
    open(id: string, stored: string): Promise<string> {
      if (!stored.startsWith(SEALED)) return Promise.resolve(stored); // written before encryption
      const key = `${id} ${stored}`;
      const known = opened.get(key);
      if (known) return known;
      const plaintext = (cipher ?? NO_KEY_CIPHER).decrypt(
        id,
        stored.slice(SEALED.length),
        SLACK_TOKENS_PURPOSE,
      );
      remember(key, plaintext);
      // A failure (KMS unreachable, say) is not kept: the next read tries again.
      void plaintext.catch(() => opened.delete(key));
      return plaintext;
    },
  };
}

/** The installation with each of its tokens passed through `convert` (both ways: seal or open). */
async function withTokens(
  installation: Installation,
  convert: (token: string) => Promise<string>,
): Promise<Installation> {
  const optional = async (token: string | undefined) => (token === undefined ? undefined : convert(token));
  const { bot, user } = installation;
  const [botToken, botRefresh, userToken, userRefresh] = await Promise.all([
    optional(bot?.token),
    optional(bot?.refreshToken),
    optional(user.token),
    optional(user.refreshToken),
  ]);
  return {
    ...installation,
    user: { ...user, token: userToken, ...(userRefresh === undefined ? {} : { refreshToken: userRefresh }) },
    ...(bot && botToken !== undefined
      ? {
          bot: { ...bot, token: botToken, ...(botRefresh === undefined ? {} : { refreshToken: botRefresh }) },
        }
      : {}),
  };
}

/** The new bot token from a refresh (`expiresAt` in epoch seconds). */
export interface RefreshedBotToken {
  token: string;
  refreshToken: string;
  expiresAt: number;
}

export type InstallationRepository = ReturnType<typeof createInstallationRepository>;

/** The item as stored: its tokens encrypted (or plain, when written before encryption). */
async function readStored(
  { client, tableName }: StoreContext,
  lookup: InstallationLookup,
): Promise<StoredInstallation | undefined> {
  const { Item } = await client.send(
    new GetCommand({ TableName: tableName, Key: installationKey(lookup), ConsistentRead: true }),
  );
  return Item ? parseItem(InstallationItemSchema, 'installation', Item) : undefined;
}

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
      const candidates: InstallationLookup[] = [
        ...(query.teamId ? [{ teamId: query.teamId, isEnterpriseInstall: false }] : []),
        ...(query.enterpriseId
          ? [{ teamId: query.teamId, enterpriseId: query.enterpriseId, isEnterpriseInstall: true }]
          : []),
      ];
      for (const lookup of candidates) {
        const stored = await read(lookup);
        if (stored) return { ...stored, lookup };
      }
      return undefined;
    },
    ...refreshLease(context, sealer),
  };
}

/** Runs an update; `false` when its condition failed. */
async function conditionalUpdate({ client }: StoreContext, input: UpdateCommandInput): Promise<boolean> {
  try {
    await client.send(new UpdateCommand(input));
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

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

/** The lease that lets one instance refresh a bot token (src/slack/installation-tokens.ts). */
function refreshLease(context: StoreContext, sealer: ReturnType<typeof tokenSealer>) {
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
