import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '../errors.ts';
import { ITEM_TYPE, keys } from './keys.ts';
import { type SlackDelivery, SlackDeliverySchema } from './schemas.ts';
import { epochSeconds, isConditionalCheckFailed, type StoreDeps, systemClock } from './support.ts';

export type { SlackDelivery } from './schemas.ts';

/** Slack retries a delivery for a few minutes; an hour absorbs them all. */
export const DEFAULT_DELIVERY_TTL_SECONDS = 3600;

export type SlackDeliveryRepository = ReturnType<typeof createSlackDeliveryRepository>;

export function createSlackDeliveryRepository({ client, tableName, now = systemClock }: StoreDeps) {
  return {
    /**
     * True for the first delivery of `key` (e.g. the event id or the request's retry-independent
     * id), false for its retries. A record past its TTL that DynamoDB has not deleted yet no longer
     * counts.
     */
    async firstDelivery(key: string, ttlSeconds = DEFAULT_DELIVERY_TTL_SECONDS): Promise<boolean> {
      if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0) {
        throw new ValidationError('ttlSeconds must be a positive integer');
      }
      const at = now();
      const nowSeconds = epochSeconds(at);
      const delivery = SlackDeliverySchema.parse({
        type: ITEM_TYPE.slackDelivery,
        key,
        receivedAt: at.toISOString(),
        expiresAt: nowSeconds + ttlSeconds,
      } satisfies SlackDelivery);
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...keys.slackDelivery(key), ...delivery },
            ConditionExpression: 'attribute_not_exists(pk) OR expiresAt <= :now',
            ExpressionAttributeValues: { ':now': nowSeconds },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return false;
        throw error;
      }
    },
  };
}
