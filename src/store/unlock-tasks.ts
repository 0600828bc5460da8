import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { NewUnlockTask, RescheduleInput } from '../domain/ports/index.ts';
import { ConflictError, ValidationError } from '../platform/errors.ts';
import { DUE_KIND, ITEM_TYPE, keys } from './keys.ts';
import { registerScheduledWork } from './scheduled-work.ts';
import {
  type FinishedUnlockTask,
  FinishedUnlockTaskSchema,
  type Json,
  JsonSchema,
  type UnlockTask,
  UnlockTaskSchema,
} from '../domain/ports/records.ts';
import {
  DAY_SECONDS,
  epochSeconds,
  isConditionalCheckFailed,
  parseItem,
  queryDue,
  queryTeamDue,
  queryDueKind,
  queryItems,
  type StoreContext,
  storeContext,
  type StoreDeps,
  transactWrite,
} from './support.ts';
import { TABLE_KEYS } from './table.ts';

/** A task is deleted a week after it was created (the poller gives up after 24 h). */
export const UNLOCK_TASK_RETENTION_SECONDS = 7 * DAY_SECONDS;
/** The digest's copy of a finished task is deleted a week after it finished. */
export const FINISHED_UNLOCK_RETENTION_SECONDS = 7 * DAY_SECONDS;

/** A new task's item, due now (also written by the charge's settling transaction). */
export function newUnlockTaskItem(input: NewUnlockTask, createdAt: Date): Record<string, unknown> {
  const iso = createdAt.toISOString();
  const task = UnlockTaskSchema.parse({
    type: ITEM_TYPE.unlockTask,
    ...input,
    createdAt: iso,
    attempts: 0,
    nextPollAt: iso,
    slackFailures: 0,
    expiresAt: epochSeconds(createdAt) + UNLOCK_TASK_RETENTION_SECONDS,
  } satisfies UnlockTask);
  return {
    ...keys.unlockTask(task.taskId),
    [TABLE_KEYS.dueKind]: DUE_KIND.unlockTask,
    [TABLE_KEYS.dueAt]: iso,
    ...task,
  };
}

const parse = (item: Record<string, unknown>) => parseItem(UnlockTaskSchema, 'unlock task', item);

async function get({ client, tableName }: StoreContext, taskId: string): Promise<UnlockTask | null> {
  const { Item } = await client.send(
    new GetCommand({ TableName: tableName, Key: keys.unlockTask(taskId), ConsistentRead: true }),
  );
  return Item ? parse(Item) : null;
}

/**
 * Stores a task, due now. Task ids come from the service, so creating the same task again (a
 * retried worker) returns the stored one instead of resetting it.
 */
async function create(context: StoreContext, input: NewUnlockTask): Promise<UnlockTask> {
  const item = newUnlockTaskItem(input, context.now());
  const task = parse(item);
  await registerScheduledWork(context, task.teamId);
  try {
    await context.client.send(
      new PutCommand({
        TableName: context.tableName,
        Item: item,
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return task;
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
  const existing = await get(context, task.taskId);
  if (!existing) throw new ConflictError(`Unlock task ${task.taskId} vanished while being created`);
  return existing;
}

/**
 * Takes the task for `leaseMs` if it is due, not posted, and not leased by someone else (or
 * their lease has run out). Returns the leased task, or null when someone else has it.
 */
async function lease(
  { client, tableName, now }: StoreContext,
  taskId: string,
  { owner, leaseMs }: { owner: string; leaseMs: number },
): Promise<UnlockTask | null> {
  if (!Number.isFinite(leaseMs) || leaseMs <= 0) throw new ValidationError('leaseMs must be positive');
  const at = now();
  const until = new Date(at.getTime() + leaseMs).toISOString();
  try {
    const { Attributes } = await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.unlockTask(taskId),
        ConditionExpression:
          'attribute_exists(pk) AND attribute_not_exists(resultPostedAt) AND #at <= :now ' +
          'AND (attribute_not_exists(leaseExpiresAt) OR leaseExpiresAt <= :now)',
        UpdateExpression: 'SET leaseOwner = :owner, leaseExpiresAt = :until, #at = :until',
        ExpressionAttributeNames: { '#at': TABLE_KEYS.dueAt },
        ExpressionAttributeValues: { ':owner': owner, ':until': until, ':now': at.toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ? parse(Attributes) : null;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return null;
    throw error;
  }
}

/**
 * One conditional write on the lease's owner; the task is due again at `nextPollAt` (and its card's
 * waiting line, when given, is noted as shown).
 */
async function reschedule(
  { client, tableName }: StoreContext,
  taskId: string,
  { owner, nextPollAt, attempts, waitingShown, followUpSettled }: RescheduleInput,
): Promise<boolean> {
  if (!Number.isInteger(attempts) || attempts < 0) throw new ValidationError('attempts must be >= 0');
  const next = nextPollAt.toISOString();
  const shown =
    (waitingShown === undefined ? '' : ', waitingShown = :shown') +
    (followUpSettled === undefined ? '' : ', followUpSettled = :settled');
  try {
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.unlockTask(taskId),
        ConditionExpression: 'leaseOwner = :owner AND attribute_not_exists(resultPostedAt)',
        UpdateExpression: `SET nextPollAt = :next, #at = :next, attempts = :attempts${shown} REMOVE leaseOwner, leaseExpiresAt`,
        ExpressionAttributeNames: { '#at': TABLE_KEYS.dueAt },
        ExpressionAttributeValues: {
          ':owner': owner,
          ':next': next,
          ':attempts': attempts,
          ...(waitingShown === undefined ? {} : { ':shown': waitingShown }),
          ...(followUpSettled === undefined ? {} : { ':settled': followUpSettled }),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/**
 * Marks the result as posted, once: true for exactly one caller, false for everyone else (and for
 * an unknown task). The task leaves the due index for good, and a copy is kept per team for the
 * digest, in the same transaction.
 */
async function markResultPosted(
  context: StoreContext,
  taskId: string,
  { owner, outcome }: { owner: string; outcome: Json },
): Promise<boolean> {
  const { client, tableName, now } = context;
  const task = await get(context, taskId);
  if (!task || task.resultPostedAt !== undefined) return false;
  const finishedAt = now();
  const iso = finishedAt.toISOString();
  const json = JsonSchema.parse(outcome);
  const finished = FinishedUnlockTaskSchema.parse({
    type: ITEM_TYPE.finishedUnlockTask,
    taskId: task.taskId,
    kind: task.kind,
    teamId: task.teamId,
    channelId: task.channelId,
    threadTs: task.threadTs,
    requestedBy: task.requestedBy,
    personnelIds: task.personnelIds,
    confirmationId: task.confirmationId,
    finishedAt: iso,
    outcome: json,
    expiresAt: epochSeconds(finishedAt) + FINISHED_UNLOCK_RETENTION_SECONDS,
  } satisfies FinishedUnlockTask);
  const posted = {
    Update: {
      TableName: tableName,
      Key: keys.unlockTask(taskId),
      // a stopped task (its workspace removed the app) gets no result
      ConditionExpression:
        'attribute_exists(pk) AND attribute_not_exists(resultPostedAt) AND attribute_not_exists(stoppedAt)',
      UpdateExpression:
        'SET resultPostedAt = :now, postedBy = :owner, outcome = :outcome ' +
        'REMOVE #kind, #at, leaseOwner, leaseExpiresAt',
      ExpressionAttributeNames: { '#kind': TABLE_KEYS.dueKind, '#at': TABLE_KEYS.dueAt },
      ExpressionAttributeValues: { ':now': iso, ':owner': owner, ':outcome': json },
    },
  };
  // A follow-up (drafts, LinkedIn activity) unlocked nothing: the digest's list of unlocks leaves it out.
  if (task.followUp) return transactWrite(client, { TransactItems: [posted] });
  return transactWrite(client, {
    TransactItems: [
      posted,
      {
        Put: {
          TableName: tableName,
          Item: { ...keys.finishedUnlockTask(task.teamId, iso, task.taskId), ...finished },
        },
      },
    ],
  });
}

/**
 * Ends a task without a result (its workspace removed the app): true for the one caller that stopped
 * it, false when its result was posted, it was stopped already, or it is unknown. Like a posted task,
 * it leaves the due index for good; a poller still holding its lease can neither reschedule nor post it.
 */
async function stop({ client, tableName, now }: StoreContext, taskId: string, reason: string) {
  try {
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.unlockTask(taskId),
        ConditionExpression:
          'attribute_exists(pk) AND attribute_not_exists(resultPostedAt) AND attribute_not_exists(stoppedAt)',
        UpdateExpression:
          'SET stoppedAt = :now, stoppedReason = :reason REMOVE #kind, #at, leaseOwner, leaseExpiresAt',
        ExpressionAttributeNames: { '#kind': TABLE_KEYS.dueKind, '#at': TABLE_KEYS.dueAt },
        ExpressionAttributeValues: { ':now': now().toISOString(), ':reason': reason },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/** Notes that posting to Slack failed (counted, last reason kept); the task stays as it is. */
async function recordSlackFailure(
  { client, tableName, now }: StoreContext,
  taskId: string,
  reason: string,
): Promise<void> {
  try {
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.unlockTask(taskId),
        ConditionExpression: 'attribute_exists(pk)',
        UpdateExpression: 'SET lastSlackFailure = :failure ADD slackFailures :one',
        ExpressionAttributeValues: {
          ':failure': { at: now().toISOString(), reason },
          ':one': 1,
        },
      }),
    );
  } catch (error) {
    if (isConditionalCheckFailed(error)) {
      throw new ConflictError(`Unlock task ${taskId} not found`, { cause: error });
    }
    throw error;
  }
}

/**
 * When the first task of any workspace falls due in (after, before]: one item of the due index, its
 * due time only (a leased task's is its lease's end).
 */
async function nextDue(
  { client, tableName }: StoreContext,
  { after, before }: { after: Date; before: Date },
): Promise<Date | undefined> {
  if (before.getTime() <= after.getTime()) return undefined;
  const { Items } = await client.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: TABLE_KEYS.dueIndex,
      KeyConditionExpression: '#kind = :kind AND #at BETWEEN :after AND :before',
      ExpressionAttributeNames: { '#kind': TABLE_KEYS.dueKind, '#at': TABLE_KEYS.dueAt },
      ExpressionAttributeValues: {
        ':kind': DUE_KIND.unlockTask,
        // BETWEEN takes both ends; the ISO times sort as they read.
        ':after': new Date(after.getTime() + 1).toISOString(),
        ':before': before.toISOString(),
      },
      ProjectionExpression: '#at',
      ScanIndexForward: true,
      Limit: 1,
    }),
  );
  const at: unknown = Items?.[0]?.[TABLE_KEYS.dueAt];
  return typeof at === 'string' ? new Date(at) : undefined;
}

/** The digest's copies, kept per team (time-ordered keys) by `markResultPosted`. */
async function listFinishedSince(
  { client, tableName }: StoreContext,
  teamId: string,
  since: Date,
): Promise<FinishedUnlockTask[]> {
  const items = await queryItems(client, {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND sk >= :since',
    ExpressionAttributeValues: {
      ':pk': keys.finishedUnlockPartition(teamId),
      ':since': keys.atOrAfter(since.toISOString()),
    },
    ConsistentRead: true,
  });
  return items.map((item) => parseItem(FinishedUnlockTaskSchema, 'finished unlock task', item));
}

/**
 * A team's tasks whose result is not posted yet (still polled), oldest due first: the unlocks only
 * (the Home's running ones), or with `followUps` also the drafts and LinkedIn analyses.
 */
async function unfinishedForTeam(
  context: StoreContext,
  teamId: string,
  { followUps = false }: { followUps?: boolean } = {},
): Promise<UnlockTask[]> {
  const unlocksOnly = followUps ? '' : ' AND attribute_not_exists(followUp)';
  const items = await queryDueKind(context, DUE_KIND.unlockTask, {
    filter: `teamId = :team AND attribute_not_exists(resultPostedAt)${unlocksOnly}`,
    values: { ':team': teamId },
  });
  return items.map(parse);
}

export function createUnlockTaskRepository(deps: StoreDeps) {
  const context = storeContext(deps);
  return {
    create: (input: NewUnlockTask) => create(context, input),
    get: (taskId: string) => get(context, taskId),
    due: async (query: { now: Date; limit: number }) =>
      (await queryDue(context, DUE_KIND.unlockTask, query)).map(parse),
    nextDue: (window: { after: Date; before: Date }) => nextDue(context, window),
    /** One workspace's due items, earliest first (the scheduled runs read each workspace apart). */
    dueIn: async (teamId: string, query: { now: Date; limit: number }) =>
      (await queryTeamDue(context, DUE_KIND.unlockTask, teamId, query)).map(parse),
    lease: (taskId: string, by: { owner: string; leaseMs: number }) => lease(context, taskId, by),
    reschedule: (taskId: string, next: RescheduleInput) => reschedule(context, taskId, next),
    markResultPosted: (taskId: string, result: { owner: string; outcome: Json }) =>
      markResultPosted(context, taskId, result),
    stop: (taskId: string, reason: string) => stop(context, taskId, reason),
    recordSlackFailure: (taskId: string, reason: string) => recordSlackFailure(context, taskId, reason),
    listFinishedSince: (teamId: string, since: Date) => listFinishedSince(context, teamId, since),
    unfinishedForTeam: (teamId: string, options?: { followUps?: boolean }) =>
      unfinishedForTeam(context, teamId, options),
  };
}
