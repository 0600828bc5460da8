import type { AwsFetch } from '../platform/aws-fetch.ts';
import { failedItsCondition, systemClock } from './basics.ts';
import { type DeliveryTable, deliveryLogOver } from './delivery-log.ts';
import { keys } from './keys.ts';

/**
 * The delivery log over signed `fetch` (DynamoDB's JSON protocol), for the Slack function's ack path:
 * the same records, conditions and answers as `deliveries.ts` on the SDK, without loading the SDK.
 */
export function createFetchedDeliveryLog(dynamodb: AwsFetch, tableName: string, now = systemClock) {
  const call = async (operation: 'PutItem' | 'GetItem', input: object): Promise<unknown> => {
    const { text } = await dynamodb('/', {
      operation,
      resource: { table_name: tableName },
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `DynamoDB_20120810.${operation}`,
      },
      body: JSON.stringify({ TableName: tableName, ...input }),
    });
    return JSON.parse(text);
  };
  const table: DeliveryTable = {
    async putNew(delivery) {
      const item = { ...keys.delivery(delivery.key), ...delivery };
      try {
        await call('PutItem', { Item: attributesOf(item), ConditionExpression: 'attribute_not_exists(pk)' });
        return true;
      } catch (error) {
        if (failedItsCondition(error)) return false;
        throw error;
      }
    },
    async ownerOf(key) {
      const answer = await call('GetItem', {
        Key: attributesOf({ ...keys.delivery(key) }),
        ConsistentRead: true,
      });
      const stored = itemOf(answer);
      if (!stored) return undefined;
      // Only a delivery seen before reads its record back: its schema loads then, never on a first ack.
      const [{ DeliverySchema }, { parseItem }] = await Promise.all([
        import('./schemas.ts'),
        import('./support.ts'),
      ]);
      return parseItem(DeliverySchema, 'delivery', stored).owner;
    },
  };
  return deliveryLogOver(table, now);
}

type Flat = Record<string, string | number>;

/** A flat item of strings and numbers in DynamoDB's attribute-value JSON. */
function attributesOf(item: Flat): Record<string, { S: string } | { N: string }> {
  return Object.fromEntries(
    Object.entries(item).map(([name, value]) => [
      name,
      typeof value === 'number' ? { N: String(value) } : { S: value },
    ]),
  );
}

/** GetItem's `Item` back to plain values (strings and numbers: all a delivery record holds). */
function itemOf(answer: unknown): Record<string, unknown> | undefined {
  if (typeof answer !== 'object' || answer === null || !('Item' in answer)) return undefined;
  const { Item } = answer as { Item: Record<string, { S?: string; N?: string }> };
  return Object.fromEntries(
    Object.entries(Item).map(([name, value]) => [name, value.N !== undefined ? Number(value.N) : value.S]),
  );
}
