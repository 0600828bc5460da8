import { randomUUID } from 'node:crypto';
import { type DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { createDocumentClient, ensureTable } from '../../src/store/table.ts';

/** A fresh table in the shared DynamoDB Local, so test files never see each other's items. */
export async function createTestTable() {
  const endpoint = inject('dynamoEndpoint');
  const tableName = `test-${randomUUID()}`;
  const client = createDocumentClient({ endpoint });
  await ensureTable(client, tableName);
  return { client, tableName, endpoint };
}

/** Every item of the table, read straight from DynamoDB Local. */
export async function scanAll(table: {
  client: DynamoDBDocumentClient;
  tableName: string;
}): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(
      new ScanCommand({
        TableName: table.tableName,
        ConsistentRead: true,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}
