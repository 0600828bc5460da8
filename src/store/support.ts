import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { z } from 'zod';
import { LOCAL_DATE_PATTERN } from '../time/local-time.ts';
import { AppError, ValidationError } from '../platform/errors.ts';
import type { ItemKey } from './keys.ts';
import { TABLE_KEYS } from './table.ts';
import { failedItsCondition, systemClock } from './basics.ts';

export { addSeconds, DAY_SECONDS, epochSeconds, systemClock } from './basics.ts';

/** What every repository is built from. `now` is injectable so tests can move the clock. */
export interface StoreDeps {
  client: DynamoDBDocumentClient;
  tableName: string;
  now?: () => Date;
}

/** What a repository's steps work with: its `StoreDeps`, the clock settled. */
export type StoreContext = Required<StoreDeps>;

export function storeContext({ client, tableName, now = systemClock }: StoreDeps): StoreContext {
  return { client, tableName, now };
}

/** An item in the table that does not have the shape its `type` promises: a bug or a bad migration. */
export class StoredItemInvalidError extends AppError {
  constructor(what: string, key: unknown, issues: string, options: { cause?: unknown } = {}) {
    super('STORE_ITEM_INVALID', `Stored ${what} ${JSON.stringify(key)} has an unexpected shape: ${issues}`, {
      ...options,
      userMessage: 'Something stored by the bot is unreadable; the team has been told.',
    });
  }
}

/** Parses a raw item (never casts it); throws `StoredItemInvalidError` naming the item and the fields. */
export function parseItem<Schema extends z.ZodType>(
  schema: Schema,
  what: string,
  item: Record<string, unknown>,
): z.infer<Schema> {
  const result = schema.safeParse(item);
  if (result.success) return result.data;
  const issues = result.error.issues
    .map((issue) => `${issue.path.join('.') || '(item)'}: ${issue.message}`)
    .join('; ');
  throw new StoredItemInvalidError(what, { pk: item.pk, sk: item.sk }, issues, { cause: result.error });
}

/** One item by its key, read consistently and parsed; null when there is none. */
export async function getItem<T>(
  { client, tableName }: StoreContext,
  key: ItemKey,
  parse: (item: Record<string, unknown>) => T,
): Promise<T | null> {
  const { Item } = await client.send(
    new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }),
  );
  return Item ? parse(Item) : null;
}

/** A conditional write's result, or null when its condition failed (any other error is thrown). */
export async function unlessConditionFailed<T>(write: () => Promise<T>): Promise<T | null> {
  try {
    return await write();
  } catch (error) {
    if (isConditionalCheckFailed(error)) return null;
    throw error;
  }
}

export function isConditionalCheckFailed(error: unknown): boolean {
  return error instanceof ConditionalCheckFailedException || failedItsCondition(error);
}

/**
 * Runs a transaction: `ok`, or which of its items failed their condition. DynamoDB cancels concurrent
 * transactions on the same item with `TransactionConflict`: those are retried, and the retry then
 * sees the winner's write and fails its condition.
 */
export async function runTransaction(
  client: DynamoDBDocumentClient,
  input: TransactWriteCommandInput,
  { attempts = 8 } = {},
): Promise<{ ok: true } | { ok: false; conditionFailed: boolean[] }> {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.send(new TransactWriteCommand(input));
      return { ok: true };
    } catch (error) {
      const codes =
        error instanceof TransactionCanceledException
          ? (error.CancellationReasons ?? []).map((reason) => reason.Code)
          : [];
      if (codes.includes('ConditionalCheckFailed'))
        return { ok: false, conditionFailed: codes.map((code) => code === 'ConditionalCheckFailed') };
      const conflicted = codes.includes('TransactionConflict');
      if (!conflicted || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** attempt * Math.random()));
    }
  }
}

/** Runs a transaction; `false` when one of its conditions failed. */
export async function transactWrite(
  client: DynamoDBDocumentClient,
  input: TransactWriteCommandInput,
): Promise<boolean> {
  return (await runTransaction(client, input)).ok;
}

/** Every item of a query, page after page, up to `limit`. */
export async function queryItems(
  client: DynamoDBDocumentClient,
  input: QueryCommandInput,
  limit = Number.POSITIVE_INFINITY,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const remaining = limit - items.length;
    const page = await client.send(
      new QueryCommand({
        ...input,
        ...(Number.isFinite(remaining) ? { Limit: remaining } : {}),
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length < limit);
  return items;
}

/** Items of one kind whose due time has come, earliest first (the due index is eventually consistent). */
export async function queryDue(
  { client, tableName }: StoreContext,
  kind: string,
  { now, limit }: { now: Date; limit: number },
): Promise<Record<string, unknown>[]> {
  assertLimit(limit);
  return queryItems(
    client,
    {
      TableName: tableName,
      IndexName: TABLE_KEYS.dueIndex,
      KeyConditionExpression: '#kind = :kind AND #at <= :now',
      ExpressionAttributeNames: { '#kind': TABLE_KEYS.dueKind, '#at': TABLE_KEYS.dueAt },
      ExpressionAttributeValues: { ':kind': kind, ':now': now.toISOString() },
      ScanIndexForward: true,
    },
    limit,
  );
}

/**
 * One workspace's items of one kind whose due time has come, earliest first, from the team due index
 * (every kind of the workspace's due work is there; the others are filtered out).
 */
export async function queryTeamDue(
  { client, tableName }: StoreContext,
  kind: string,
  teamId: string,
  { now, limit }: { now: Date; limit: number },
): Promise<Record<string, unknown>[]> {
  assertLimit(limit);
  return queryItems(
    client,
    {
      TableName: tableName,
      IndexName: TABLE_KEYS.teamDueIndex,
      KeyConditionExpression: '#team = :team AND #at <= :now',
      FilterExpression: '#kind = :kind',
      ExpressionAttributeNames: {
        '#team': TABLE_KEYS.teamId,
        '#at': TABLE_KEYS.dueAt,
        '#kind': TABLE_KEYS.dueKind,
      },
      ExpressionAttributeValues: { ':team': teamId, ':now': now.toISOString(), ':kind': kind },
      ScanIndexForward: true,
    },
    limit,
  );
}

export function assertUtcDay(day: string): void {
  if (!LOCAL_DATE_PATTERN.test(day))
    throw new ValidationError(`Not a day (YYYY-MM-DD): ${JSON.stringify(day)}`);
}

/**
 * Every item of one team and one `dueKind`, whenever it falls due, from the team's part of the
 * team-due index (never the whole deployment's due index).
 */
export async function queryTeamDueKind(
  { client, tableName }: StoreContext,
  kind: string,
  teamId: string,
): Promise<Record<string, unknown>[]> {
  return queryItems(client, {
    TableName: tableName,
    IndexName: TABLE_KEYS.teamDueIndex,
    KeyConditionExpression: '#team = :team',
    FilterExpression: '#kind = :kind',
    ExpressionAttributeNames: { '#team': TABLE_KEYS.teamId, '#kind': TABLE_KEYS.dueKind },
    ExpressionAttributeValues: { ':team': teamId, ':kind': kind },
  });
}

export function assertLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1) throw new ValidationError(`limit must be a positive integer`);
}

/**
 * Every item of one `dueKind` that matches `filter` (e.g. one team's), whenever it falls due; with
 * `after`, only those due after it. For the App Home's few lists: the due index holds only live work
 * (pending confirmations, unfinished tasks, active digests), so this reads little.
 */
export async function queryDueKind(
  { client, tableName }: StoreContext,
  kind: string,
  {
    filter,
    values,
    names = {},
    after,
  }: {
    filter: string;
    values: Record<string, unknown>;
    names?: Record<string, string>;
    after?: Date;
  },
): Promise<Record<string, unknown>[]> {
  return queryItems(client, {
    TableName: tableName,
    IndexName: TABLE_KEYS.dueIndex,
    KeyConditionExpression: after ? '#kind = :kind AND #at > :after' : '#kind = :kind',
    FilterExpression: filter,
    ExpressionAttributeNames: {
      '#kind': TABLE_KEYS.dueKind,
      ...(after ? { '#at': TABLE_KEYS.dueAt } : {}),
      ...names,
    },
    ExpressionAttributeValues: {
      ':kind': kind,
      ...(after ? { ':after': after.toISOString() } : {}),
      ...values,
    },
    ScanIndexForward: true,
  });
}
