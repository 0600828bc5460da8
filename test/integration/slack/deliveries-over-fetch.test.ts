import { afterEach, describe, expect, it } from 'vitest';
import { AWS_SERVICES, awsFetch } from '../../../src/platform/aws-fetch.ts';
import { createFetchedDeliveryLog } from '../../../src/store/deliveries-over-fetch.ts';
import { type DynamoFaultProxy, loseNth, startDynamoFaultProxy } from '../../support/dynamo-fault-proxy.ts';
import { createTestStore } from '../../support/store-support.ts';

/** The Slack function's delivery log (signed calls, no SDK), on DynamoDB Local as `npm run dev` runs it. */
const fetchedLog = (endpoint: string, tableName: string) =>
  createFetchedDeliveryLog(
    awsFetch(AWS_SERVICES.dynamodb, {
      region: 'us-east-1',
      endpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
    tableName,
  );

describe('the delivery log over signed calls', () => {
  let proxy: DynamoFaultProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  it('counts a delivery once, and shares its records with the SDK’s log (the worker’s)', async () => {
    const { endpoint, tableName, store } = await createTestStore();
    const deliveries = fetchedLog(endpoint, tableName);

    expect(await deliveries.first('command:1.trigger')).toBe(true);
    expect(await deliveries.first('command:1.trigger')).toBe(false);
    expect(await store.deliveries.first('command:1.trigger')).toBe(false);
    expect(await store.deliveries.first('command:2.trigger')).toBe(true);
    expect(await deliveries.first('command:2.trigger')).toBe(false);
  });

  it('still counts a delivery as the first when its write was applied but the answer lost', async () => {
    const { endpoint, tableName } = await createTestStore();
    proxy = await startDynamoFaultProxy({ target: endpoint });
    const deliveries = fetchedLog(proxy.endpoint, tableName);
    proxy.setRule(loseNth(1, (request) => request.operation === 'PutItem'));

    expect(await deliveries.first('command:3.trigger')).toBe(true);
    expect(await deliveries.first('command:3.trigger')).toBe(false);
    expect(proxy.stats().lost).toBe(1);
  });
});
