import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { ShowIdCache } from '../domain/ports/index.ts';
import { ITEM_TYPE, keys } from './keys.ts';
import { DAY_SECONDS, epochSeconds, parseItem, type StoreDeps, systemClock } from './support.ts';

/**
 * A show's id as given (`8491`) and its public id (`27306`), as the service said. The two never change,
 * so the pair is kept a long while; one gone is asked of the service again (a free read).
 */
export const SHOW_ID_RETENTION_SECONDS = 365 * DAY_SECONDS;

const ShowIdItemSchema = z.object({
  type: z.literal(ITEM_TYPE.showId),
  id: z.string().min(1),
  publicId: z.string().min(1),
  learnedAt: z.iso.datetime(),
  expiresAt: z.number().int().positive(),
});

/** DynamoDB's most keys per batch read, and items per batch write. */
const READ_BATCH = 100;
const WRITE_BATCH = 25;

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) =>
    items.slice(index * size, (index + 1) * size),
  );

/** Per service account: what its key was told (another account's key asks for itself). */
export function createShowIdCache({ client, tableName, now = systemClock }: StoreDeps) {
  return (accountId: string): ShowIdCache => ({
    /** The pairs known; ids DynamoDB left unread this time are simply not known (asked again). */
    async known(ids) {
      const found = new Map<string, string>();
      for (const batch of chunks(ids, READ_BATCH)) {
        const { Responses } = await client.send(
          new BatchGetCommand({
            RequestItems: { [tableName]: { Keys: batch.map((id) => keys.showId(accountId, id)) } },
          }),
        );
        for (const item of Responses?.[tableName] ?? []) {
          const pair = parseItem(ShowIdItemSchema, 'show id', item);
          if (pair.expiresAt > epochSeconds(now())) found.set(pair.id, pair.publicId);
        }
      }
      return found;
    },

    /** Keeps the pairs (unwritten ones are learned again next time). */
    async remember(publicIds) {
      const at = now();
      const items = [...publicIds].map(([id, publicId]) => ({
        ...keys.showId(accountId, id),
        type: ITEM_TYPE.showId,
        id,
        publicId,
        learnedAt: at.toISOString(),
        expiresAt: epochSeconds(at) + SHOW_ID_RETENTION_SECONDS,
      }));
      for (const batch of chunks(items, WRITE_BATCH))
        await client.send(
          new BatchWriteCommand({
            RequestItems: { [tableName]: batch.map((Item) => ({ PutRequest: { Item } })) },
          }),
        );
    },
  });
}
