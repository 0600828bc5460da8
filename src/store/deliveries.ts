import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type DeliveryTable, deliveryLogOver } from './delivery-log.ts';
import { keys } from './keys.ts';
import { DeliverySchema } from './schemas.ts';
import { isConditionalCheckFailed, parseItem, type StoreDeps } from './support.ts';

export { DELIVERY_RETENTION_SECONDS, type DeliveryLog } from './delivery-log.ts';

/** The delivery log on the store's DynamoDB document client (the worker; the Slack function without static credentials). */
export function createDeliveryLog({ client, tableName, now }: StoreDeps) {
  const table: DeliveryTable = {
    async putNew(delivery) {
      try {
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...keys.delivery(delivery.key), ...DeliverySchema.parse(delivery) },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return true;
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        return false;
      }
    },
    async ownerOf(key) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: keys.delivery(key), ConsistentRead: true }),
      );
      return Item && parseItem(DeliverySchema, 'delivery', Item).owner;
    },
  };
  return deliveryLogOver(table, now);
}
