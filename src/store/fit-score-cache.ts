import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ITEM_TYPE, keys } from './keys.ts';
import { type FitScoreCacheEntry, FitScoreCacheEntrySchema, JsonSchema } from '../domain/ports/records.ts';
import {
  assertUtcDay,
  DAY_SECONDS,
  epochSeconds,
  parseItem,
  type StoreDeps,
  systemClock,
} from './support.ts';

/**
 * Scores are cached per service account (a score is the account's profile against the event, so two
 * workspaces with two keys never share one), per event, per day; two days covers the day in every zone.
 */
export const FIT_SCORE_RETENTION_SECONDS = 2 * DAY_SECONDS;

export function createFitScoreCache({ client, tableName, now = systemClock }: StoreDeps) {
  return (accountId: string) => ({
    /** The cached value, or null. An entry past its TTL that DynamoDB has not deleted yet counts as gone. */
    async get(eventId: string, day: string): Promise<FitScoreCacheEntry | null> {
      assertUtcDay(day);
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: keys.fitScore(accountId, eventId, day) }),
      );
      if (!Item) return null;
      const entry = parseItem(FitScoreCacheEntrySchema, 'fit score', Item);
      return entry.expiresAt > epochSeconds(now()) ? entry : null;
    },

    /** Stores (or replaces) the value; it must be plain JSON. */
    async put(eventId: string, day: string, value: unknown): Promise<FitScoreCacheEntry> {
      assertUtcDay(day);
      const at = now();
      const entry = FitScoreCacheEntrySchema.parse({
        type: ITEM_TYPE.fitScore,
        eventId,
        day,
        value: JsonSchema.parse(value),
        cachedAt: at.toISOString(),
        expiresAt: epochSeconds(at) + FIT_SCORE_RETENTION_SECONDS,
      });
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...keys.fitScore(accountId, eventId, day), ...entry },
        }),
      );
      return entry;
    },
  });
}
