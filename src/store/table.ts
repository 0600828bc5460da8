import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * The single table's shape, in one place: the store, `npm run db:init`, the tests and the CDK stack
 * all read these names.
 */
export const TABLE_KEYS = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** GSI of work that falls due: `dueKind` groups (e.g. `task`, `digest`), `dueAt` orders (ISO time). */
  dueIndex: 'due',
  dueKind: 'dueKind',
  dueAt: 'dueAt',
  /**
   * GSI of one workspace's work that falls due, every kind, by `dueAt`: the scheduled runs read each
   * workspace's own, so none waits behind another's backlog. Due items carried `teamId` before this
   * index existed, so DynamoDB fills it from the items already there.
   */
  teamDueIndex: 'teamDue',
  teamId: 'teamId',
  /** Epoch seconds after which DynamoDB deletes the item. */
  ttl: 'expiresAt',
} as const;

/** The secondary indexes (hash and range attributes, all strings, every attribute projected). */
export const TABLE_INDEXES = [
  { name: TABLE_KEYS.dueIndex, partitionKey: TABLE_KEYS.dueKind, sortKey: TABLE_KEYS.dueAt },
  { name: TABLE_KEYS.teamDueIndex, partitionKey: TABLE_KEYS.teamId, sortKey: TABLE_KEYS.dueAt },
] as const;

export function tableDefinition(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: TABLE_KEYS.partitionKey, AttributeType: 'S' },
      { AttributeName: TABLE_KEYS.sortKey, AttributeType: 'S' },
      { AttributeName: TABLE_KEYS.dueKind, AttributeType: 'S' },
      { AttributeName: TABLE_KEYS.dueAt, AttributeType: 'S' },
      { AttributeName: TABLE_KEYS.teamId, AttributeType: 'S' },
    ],
    KeySchema: [
      { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: TABLE_INDEXES.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    })),
  };
}

export function createDocumentClient(
  options: { endpoint?: string; region?: string } = {},
): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: options.region ?? process.env.AWS_REGION ?? 'us-east-1',
    ...(options.endpoint
      ? { endpoint: options.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  });
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

/** Creates the table with its GSI and TTL; does nothing when it already exists. */
export async function ensureTable(
  client: DynamoDBDocumentClient,
  tableName: string,
): Promise<'created' | 'exists'> {
  try {
    await client.send(new CreateTableCommand(tableDefinition(tableName)));
  } catch (error) {
    if (error instanceof ResourceInUseException) return 'exists';
    throw error;
  }
  for (let attempt = 0; attempt < 50; attempt++) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus === 'ACTIVE') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TABLE_KEYS.ttl, Enabled: true },
    }),
  );
  return 'created';
}
