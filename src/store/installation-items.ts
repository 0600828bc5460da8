import { GetCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { ITEM_TYPE, type ItemKey, keys } from './keys.ts';
import { isConditionalCheckFailed, parseItem, type StoreContext } from './support.ts';

/**
 * The installation item: its shape (parsed on read, loosely: Slack adds fields over time), the key
 * an install is stored under, and the reads and conditional writes the repository and the refresh
 * lease share (src/store/installations.ts).
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

export const InstallationItemSchema = z.object({
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

/** The id an install is keyed by, and its tokens are encrypted for: org-wide installs' enterprise, or the team. */
export const installedId = (lookup: InstallationLookup): string =>
  (lookup.isEnterpriseInstall ? lookup.enterpriseId : lookup.teamId) ?? '-';

export function installationKey(lookup: InstallationLookup): ItemKey {
  const id = installedId(lookup);
  return lookup.isEnterpriseInstall ? keys.installation(id, undefined) : keys.installation(undefined, id);
}

export const lookupOf = (installation: Installation): InstallationLookup => ({
  teamId: installation.team?.id,
  enterpriseId: installation.enterprise?.id,
  isEnterpriseInstall: installation.isEnterpriseInstall === true,
});

/** The item as stored: its tokens encrypted (or plain, when written before encryption). */
export async function readStored(
  { client, tableName }: StoreContext,
  lookup: InstallationLookup,
): Promise<StoredInstallation | undefined> {
  const { Item } = await client.send(
    new GetCommand({ TableName: tableName, Key: installationKey(lookup), ConsistentRead: true }),
  );
  return Item ? parseItem(InstallationItemSchema, 'installation', Item) : undefined;
}

/** Runs an update; `false` when its condition failed. */
export async function conditionalUpdate(
  { client }: StoreContext,
  input: UpdateCommandInput,
): Promise<boolean> {
  try {
    await client.send(new UpdateCommand(input));
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}
