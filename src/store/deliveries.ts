import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ITEM_TYPE, keys } from './keys.ts';
import { DeliverySchema } from './schemas.ts';
import {
  DAY_SECONDS,
  epochSeconds,
  isConditionalCheckFailed,
  parseItem,
  type StoreDeps,
  systemClock,
} from './support.ts';

/** Slack redelivers within minutes and Lambda's async retries within hours: a day covers both. */
export const DELIVERY_RETENTION_SECONDS = DAY_SECONDS;

export type DeliveryLog = ReturnType<typeof createDeliveryLog>;

/**
 * Idempotency for deliveries: the first caller of a key gets `true`, every later one `false`.
 * Why not Powertools Idempotency: docs/performance.md, "Kept libraries and hand-written code".
 */
export function createDeliveryLog({ client, tableName, now = systemClock }: StoreDeps) {
  return {
    async first(key: string): Promise<boolean> {
      const at = now();
      // Our own put, applied but answered with an error and retried by the SDK, is still ours.
      const owner = randomUUID();
      const item = DeliverySchema.parse({
        type: ITEM_TYPE.delivery,
        key,
        owner,
        at: at.toISOString(),
        expiresAt: epochSeconds(at) + DELIVERY_RETENTION_SECONDS,
      });
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...keys.delivery(key), ...item },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return true;
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
      }
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: keys.delivery(key), ConsistentRead: true }),
      );
      return Item !== undefined && parseItem(DeliverySchema, 'delivery', Item).owner === owner;
    },
  };
}
