import { randomUUID } from 'node:crypto';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestTable } from '../../support/dynamo.ts';
import {
  createProxiedDocumentClient,
  type DynamoFaultProxy,
  failNth,
  loseNth,
  randomFaults,
  startDynamoFaultProxy,
} from '../../support/dynamo-fault-proxy.ts';

/*
 * The fault proxy itself, against DynamoDB Local: what reaches the table when a request fails, is
 * lost after being applied, or is delayed.
 */

let direct: DynamoDBDocumentClient;
let tableName: string;
let endpoint: string;
let proxy: DynamoFaultProxy;
const clients: DynamoDBDocumentClient[] = [];

beforeAll(async () => {
  ({ client: direct, tableName, endpoint } = await createTestTable());
});
beforeEach(async () => {
  proxy = await startDynamoFaultProxy({ target: endpoint });
});
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  await proxy.close();
});

function viaProxy(options: { maxAttempts?: number } = {}) {
  const client = createProxiedDocumentClient(proxy, options);
  clients.push(client);
  return client;
}

function newKey() {
  return { pk: `proxy#${randomUUID()}`, sk: 'item' };
}

async function read(key: { pk: string; sk: string }) {
  const { Item } = await direct.send(
    new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }),
  );
  return Item;
}

function addOne(key: { pk: string; sk: string }) {
  return new UpdateCommand({
    TableName: tableName,
    Key: key,
    UpdateExpression: 'ADD #counter :one',
    ExpressionAttributeNames: { '#counter': 'counter' },
    ExpressionAttributeValues: { ':one': 1 },
  });
}

const isUpdate = (request: { operation: string }) => request.operation === 'UpdateItem';

describe('dynamo fault proxy', () => {
  it('forwards requests unchanged when no rule is set', async () => {
    const client = viaProxy();
    const key = newKey();

    await client.send(new PutCommand({ TableName: tableName, Item: { ...key, note: 'hello' } }));
    const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: key }));

    expect(Item).toEqual({ ...key, note: 'hello' });
    expect(proxy.stats()).toEqual({ requests: 2, failed: 0, lost: 0, delayed: 0 });
    expect(proxy.injected()).toEqual([]);
  });

  it('applies a lost ADD and the SDK retry applies it again', async () => {
    const client = viaProxy();
    const key = newKey();
    proxy.setRule(loseNth(1, isUpdate));

    await client.send(addOne(key));

    // The non-idempotent write the resilience suite must catch: one call, two increments.
    expect((await read(key))?.counter).toBe(2);
    expect(proxy.stats()).toMatchObject({ requests: 2, lost: 1 });
    expect(proxy.injected()).toEqual([
      { seq: 1, operation: 'UpdateItem', kind: 'lose', tableName, keys: [key] },
    ]);
  });

  it('reports a lost ADD as an error without retries, although it was applied', async () => {
    const client = viaProxy({ maxAttempts: 1 });
    const key = newKey();
    proxy.setRule(loseNth(1, isUpdate));

    const error = await client.send(addOne(key)).catch((caught: unknown) => caught);

    // The reset the SDK would otherwise retry as transient.
    expect(error).toMatchObject({ code: 'ECONNRESET', $metadata: { attempts: 1 } });
    expect((await read(key))?.counter).toBe(1);
    expect(proxy.stats()).toMatchObject({ requests: 1, lost: 1 });
  });

  it('fails the first PutItem without forwarding it, and the SDK retry applies it once', async () => {
    const client = viaProxy();
    const key = newKey();
    proxy.setRule(failNth(1, (request) => request.operation === 'PutItem'));

    // The condition would reject a second application, so success shows the failed try never landed.
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...key, note: 'once' },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );

    expect(await read(key)).toEqual({ ...key, note: 'once' });
    expect(proxy.stats()).toMatchObject({ requests: 2, failed: 1 });
  });

  it('fails a transaction as a server error and writes none of its items', async () => {
    const client = viaProxy({ maxAttempts: 1 });
    const first = newKey();
    const second = newKey();
    proxy.setRule(failNth(1, (request) => request.operation === 'TransactWriteItems'));

    const error = await client
      .send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName, Item: { ...first, note: 'a' } } },
            {
              Update: {
                TableName: tableName,
                Key: second,
                UpdateExpression: 'SET note = :b',
                ExpressionAttributeValues: { ':b': 'b' },
              },
            },
          ],
        }),
      )
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({ name: 'InternalServerError', $metadata: { httpStatusCode: 500 } });
    expect(await read(first)).toBeUndefined();
    expect(await read(second)).toBeUndefined();
    expect(proxy.injected()).toEqual([
      { seq: 1, operation: 'TransactWriteItems', kind: 'fail', tableName, keys: [first, second] },
    ]);
  });

  it('delays a request by the given time', async () => {
    const client = viaProxy();
    const key = newKey();
    proxy.setRule((request) => (request.operation === 'GetItem' ? { kind: 'delay', ms: 150 } : undefined));

    const started = performance.now();
    await client.send(new GetCommand({ TableName: tableName, Key: key }));

    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(proxy.stats()).toMatchObject({ requests: 1, delayed: 1 });
  });

  it('stops injecting once the rule is cleared', async () => {
    const client = viaProxy({ maxAttempts: 1 });
    proxy.setRule(() => ({ kind: 'fail' }));
    proxy.clearRule();

    await client.send(addOne(newKey()));

    expect(proxy.stats()).toEqual({ requests: 1, failed: 0, lost: 0, delayed: 0 });
  });

  it('closes promptly while it holds a delayed request', async () => {
    const client = viaProxy({ maxAttempts: 1 });
    proxy.setRule(() => ({ kind: 'delay', ms: 10_000 }));
    const pending = client.send(new GetCommand({ TableName: tableName, Key: newKey() }));
    await expect.poll(() => proxy.stats().delayed).toBe(1);

    await proxy.close();

    await expect(pending).rejects.toThrow();
  });

  it('injects the same faults in the same order for the same seed', async () => {
    // Sequential ADDs without retries, so the request order depends only on the seed.
    async function run(seed: number) {
      const runProxy = await startDynamoFaultProxy({ target: endpoint });
      const client = createProxiedDocumentClient(runProxy, { maxAttempts: 1 });
      runProxy.setRule(randomFaults({ seed, failRate: 0.25, loseRate: 0.25, operations: ['UpdateItem'] }));
      const pk = `seeded#${randomUUID()}`;
      try {
        for (let i = 0; i < 8; i++) {
          const key = { pk, sk: `item#${i}` };
          await client.send(addOne(key)).catch(() => undefined);
          // Reads are not in `operations`, so they are never faulted and do not use up draws.
          await client.send(new GetCommand({ TableName: tableName, Key: key }));
        }
        const faults = runProxy.injected();
        // A failed ADD never reached the table; a lost one did.
        for (const fault of faults) {
          const [key] = fault.keys;
          if (!key) throw new Error('fault without a key');
          expect((await read({ pk, sk: key.sk ?? '' }))?.counter).toBe(fault.kind === 'lose' ? 1 : undefined);
        }
        return faults.map(({ seq, operation, kind, keys }) => ({ seq, operation, kind, sk: keys[0]?.sk }));
      } finally {
        client.destroy();
        await runProxy.close();
      }
    }

    const first = await run(42);
    const again = await run(42);

    expect(again).toEqual(first);
    expect(first.map((fault) => fault.kind)).toEqual(expect.arrayContaining(['fail', 'lose']));
    // Another seed draws another pattern (checked on the rule alone, no table needed).
    const pattern = (seed: number) => {
      const rule = randomFaults({ seed, failRate: 0.25, loseRate: 0.25 });
      return Array.from(
        { length: 8 },
        (_, i) => rule({ seq: i + 1, operation: 'UpdateItem', tableName, keys: [], body: {} })?.kind,
      );
    };
    expect(pattern(42)).toEqual(pattern(42));
    expect(pattern(7)).not.toEqual(pattern(42));
  });
});
