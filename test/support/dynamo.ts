import { randomUUID } from 'node:crypto';
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
