import { DescribeTableCommand, DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { ensureTable, TABLE_KEYS } from '../../../src/store/table.ts';
import { createTestTable } from '../../support/dynamo.ts';

describe('table', () => {
  it('is created with its due-work indexes and TTL, and creating it again changes nothing', async () => {
    const { client, tableName } = await createTestTable();

    const again = await ensureTable(client, tableName);

    expect(again).toBe('exists');
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    expect(Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName).sort()).toEqual(
      [TABLE_KEYS.dueIndex, TABLE_KEYS.teamDueIndex].sort(),
    );
    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
    expect(ttl.TimeToLiveDescription?.AttributeName).toBe(TABLE_KEYS.ttl);
  });
});
