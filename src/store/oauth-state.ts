import { randomBytes } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { ITEM_TYPE, keys } from './keys.ts';
import { epochSeconds, isConditionalCheckFailed, parseItem, type StoreDeps } from './support.ts';

/**
 * The install flow's OAuth states in the single table: the install page's `state` is a random value
 * whose item keeps the install options for about ten minutes, and it can be taken once (the take
 * deletes it, conditionally, so a replayed or raced redirect fails). src/slack/oauth-stores.ts makes
 * this `@slack/oauth`'s `StateStore`, refusals its `InvalidStateError`. DynamoDB's TTL clears
 * abandoned states.
 */

export const OAUTH_STATE_TTL_SECONDS = 600;

/** 32 random bytes, base64url: what `generateStateParam` hands out. */
const STATE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const Scopes = z.union([z.string(), z.array(z.string())]);

const InstallOptionsSchema = z.object({
  scopes: Scopes,
  teamId: z.string().exactOptional(),
  redirectUri: z.string().exactOptional(),
  userScopes: Scopes.exactOptional(),
  metadata: z.string().exactOptional(),
});
/** `@slack/oauth`'s `InstallURLOptions`: what the redirect needs to finish the install. */
export type InstallOptions = z.infer<typeof InstallOptionsSchema>;

/** The install options of a state taken, or why it was refused. */
export type TakenState = { ok: true; installOptions: InstallOptions } | { ok: false; reason: string };

const OAuthStateItemSchema = z.object({
  type: z.literal(ITEM_TYPE.oauthState),
  installOptions: InstallOptionsSchema,
  createdAt: z.string(),
  expiresAt: z.number(),
});

export type OAuthStateRepository = ReturnType<typeof createOAuthStateRepository>;

/** `now` is given by each call (as `@slack/oauth` does), not taken from `StoreDeps`. */
export function createOAuthStateRepository({
  client,
  tableName,
  ttlSeconds = OAUTH_STATE_TTL_SECONDS,
}: Pick<StoreDeps, 'client' | 'tableName'> & { ttlSeconds?: number }) {
  return {
    /** A new state for `installOptions`, valid `ttlSeconds` from `now`. */
    async create(installOptions: InstallOptions, now: Date): Promise<string> {
      const state = randomBytes(32).toString('base64url');
      const item = OAuthStateItemSchema.parse({
        type: ITEM_TYPE.oauthState,
        installOptions,
        createdAt: now.toISOString(),
        expiresAt: epochSeconds(now) + ttlSeconds,
      });
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...keys.oauthState(state), ...item },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return state;
    },

    /** Takes `state` (once): its install options, unless it is malformed, unknown, used or expired. */
    async take(state: string, now: Date): Promise<TakenState> {
      if (!STATE_PATTERN.test(state)) return { ok: false, reason: 'The state parameter is malformed' };
      let deleted: Record<string, unknown> | undefined;
      try {
        ({ Attributes: deleted } = await client.send(
          new DeleteCommand({
            TableName: tableName,
            Key: keys.oauthState(state),
            ConditionExpression: 'attribute_exists(pk)',
            ReturnValues: 'ALL_OLD',
          }),
        ));
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
      }
      if (!deleted) return { ok: false, reason: 'The state parameter is unknown or was already used' };
      const item = parseItem(OAuthStateItemSchema, 'OAuth state', deleted);
      // TTL deletion lags by up to days: an item still there may be past its time.
      if (epochSeconds(now) >= item.expiresAt)
        return { ok: false, reason: 'The state parameter has expired' };
      return { ok: true, installOptions: item.installOptions };
    },
  };
}
