import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { OutcomeRepository } from '../domain/ports/index.ts';
import { type OutcomeChange, type OutcomeEntry, OutcomeEntrySchema } from '../domain/ports/records.ts';
import { keys } from './keys.ts';
import {
  getItem,
  parseItem,
  queryItems,
  storeContext,
  type StoreDeps,
  unlessConditionFailed,
} from './support.ts';

const parseOutcome = (item: Record<string, unknown>) => parseItem(OutcomeEntrySchema, 'outcome', item);

/** Each workspace's logged outcomes, one item per entry in the workspace's partition (see keys.ts). */
export function createOutcomeRepository(deps: StoreDeps) {
  const context = storeContext(deps);
  const { client, tableName } = context;

  return {
    async add(entry: OutcomeEntry): Promise<boolean> {
      const item = OutcomeEntrySchema.parse(entry);
      const put = await unlessConditionFailed(() =>
        client.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...keys.outcome(entry.teamId, entry.id), ...item },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      );
      return put !== null;
    },

    get: (teamId: string, id: string) => getItem(context, keys.outcome(teamId, id), parseOutcome),

    async forTeam(teamId: string): Promise<OutcomeEntry[]> {
      const items = await queryItems(client, {
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :entry)',
        ExpressionAttributeValues: {
          ':pk': keys.outcomePartition(teamId),
          ':entry': keys.outcomeEntryPrefix,
        },
        ConsistentRead: true,
      });
      return items.map(parseOutcome);
    },

    async setCard(teamId: string, id: string, cardTs: string): Promise<void> {
      await unlessConditionFailed(() =>
        client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.outcome(teamId, id),
            UpdateExpression: 'SET cardTs = :ts',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':ts': cardTs },
          }),
        ),
      );
    },

    async replace(entry: OutcomeEntry, changes: number): Promise<boolean> {
      const item = OutcomeEntrySchema.parse(entry);
      const put = await unlessConditionFailed(() =>
        client.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...keys.outcome(entry.teamId, entry.id), ...item },
            ConditionExpression:
              'attribute_exists(pk) AND attribute_not_exists(deletedAt) AND size(history) = :n',
            ExpressionAttributeValues: { ':n': changes },
          }),
        ),
      );
      return put !== null;
    },

    async markDeleted(teamId: string, id: string, change: OutcomeChange): Promise<OutcomeEntry | null> {
      const written = await unlessConditionFailed(() =>
        client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.outcome(teamId, id),
            UpdateExpression: 'SET deletedBy = :by, deletedAt = :at, history = list_append(history, :change)',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAt)',
            ExpressionAttributeValues: { ':by': change.by, ':at': change.at, ':change': [change] },
            ReturnValues: 'ALL_NEW',
          }),
        ),
      );
      return written?.Attributes ? parseOutcome(written.Attributes) : null;
    },
  } satisfies OutcomeRepository;
}
