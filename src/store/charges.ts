import { GetCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import {
  type BeginCharge,
  type BeginResult,
  RECONCILE_AFTER_SECONDS,
  type Settlement,
  type Unlock,
} from '../domain/ports/index.ts';
import { ConflictError, ValidationError } from '../platform/errors.ts';
import { getConfirmation } from './confirmations.ts';
import { ITEM_TYPE, keys } from './keys.ts';
import { newLedgerEntry } from './ledger.ts';
import { ChargedUnlockSchema, type Confirmation, JsonSchema } from '../domain/ports/records.ts';
import { DailySpendSchema } from './schemas.ts';
import {
  addSeconds,
  DAY_SECONDS,
  epochSeconds,
  parseItem,
  runTransaction,
  type StoreContext,
  storeContext,
  type StoreDeps,
} from './support.ts';
import { TABLE_KEYS } from './table.ts';
import { newUnlockTaskItem } from './unlock-tasks.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** What the write-ahead step set on the confirmation, read back by the settling step. */
export interface ChargeStarted {
  chargeStartedAt: string;
  chargeAccount: string;
  chargeDay: string;
  reserved: number;
}

export const ledgerKey = (confirmation: Confirmation, startedAt: string) =>
  keys.ledgerEntry(confirmation.teamId, startedAt, confirmation.id);

/** Credits spent by the account on the UTC day (a consistent read). */
async function spent({ client, tableName }: StoreContext, accountId: string, day: string): Promise<number> {
  const { Item } = await client.send(
    new GetCommand({ TableName: tableName, Key: keys.dailySpend(accountId, day), ConsistentRead: true }),
  );
  return Item ? parseItem(DailySpendSchema, 'daily spend', Item).credits : 0;
}

/** Adds to the account's spend of the day; with a `limit`, only while the spend so far is at or under it. */
export function addSpend(
  { tableName, now }: StoreContext,
  accountId: string,
  day: string,
  credits: number,
  limit?: number,
): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: keys.dailySpend(accountId, day),
      UpdateExpression:
        'SET #type = :type, accountId = :account, #day = :day, expiresAt = :ttl ADD credits :credits',
      ...(limit !== undefined
        ? { ConditionExpression: 'attribute_not_exists(credits) OR credits <= :limit' }
        : {}),
      ExpressionAttributeNames: { '#type': 'type', '#day': 'day' },
      ExpressionAttributeValues: {
        ':type': ITEM_TYPE.dailySpend,
        ':account': accountId,
        ':day': day,
        ':ttl': epochSeconds(now()) + 3 * DAY_SECONDS,
        ':credits': credits,
        ...(limit !== undefined ? { ':limit': limit } : {}),
      },
    },
  };
}

/** The cap does not hold the charge: what is left of it today. */
async function capped(
  context: StoreContext,
  { accountId, day }: BeginCharge,
  cap: number,
): Promise<BeginResult> {
  return { kind: 'capped', remaining: Math.max(0, cap - (await spent(context, accountId, day))) };
}

/**
 * The write-ahead transaction, in this order: the confirmation marked started (only while running
 * and not yet started), the `pending` ledger entry, the reservation under the cap.
 */
function beginItems(
  context: StoreContext,
  confirmation: Confirmation,
  input: BeginCharge,
  at: Date,
): TransactItem[] {
  const startedAt = at.toISOString();
  const reserved = confirmation.price.credits;
  const entry = newLedgerEntry(
    {
      id: confirmation.id,
      teamId: confirmation.teamId,
      channelId: confirmation.channelId,
      requestedBy: input.requestedBy,
      confirmedBy: input.confirmedBy,
      ...input.ledger,
      credits: reserved,
      confirmationId: confirmation.id,
      status: 'pending',
    },
    at,
  );
  return [
    {
      Update: {
        TableName: context.tableName,
        Key: keys.confirmation(confirmation.id),
        ConditionExpression:
          'attribute_exists(pk) AND #status = :running AND attribute_not_exists(chargeStartedAt)',
        UpdateExpression:
          'SET chargeStartedAt = :at, chargeAttempt = :attempt, chargeAccount = :account, chargeDay = :day, reserved = :reserved, #dueAt = :due',
        ExpressionAttributeNames: { '#status': 'status', '#dueAt': TABLE_KEYS.dueAt },
        ExpressionAttributeValues: {
          ':running': 'running',
          ':at': startedAt,
          ':attempt': input.attemptId,
          ':account': input.accountId,
          ':day': input.day,
          ':reserved': reserved,
          ':due': addSeconds(at, RECONCILE_AFTER_SECONDS.charging).toISOString(),
        },
      },
    },
    {
      Put: {
        TableName: context.tableName,
        Item: { ...ledgerKey(confirmation, startedAt), ...entry },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    addSpend(
      context,
      input.accountId,
      input.day,
      reserved,
      input.cap === undefined ? undefined : input.cap - reserved,
    ),
  ];
}

/** The write-ahead step: which of its conditions failed tells who got there first. */
async function begin(
  context: StoreContext,
  confirmation: Confirmation,
  input: BeginCharge,
): Promise<BeginResult> {
  const reserved = confirmation.price.credits;
  if (input.cap !== undefined && reserved > input.cap) return capped(context, input, input.cap);
  const at = context.now();
  const result = await runTransaction(context.client, {
    TransactItems: beginItems(context, confirmation, input, at),
  });
  if (result.ok) {
    const started = {
      ...confirmation,
      chargeStartedAt: at.toISOString(),
      chargeAttempt: input.attemptId,
      chargeAccount: input.accountId,
      chargeDay: input.day,
      reserved,
    };
    return { kind: 'started', confirmation: started };
  }
  if (result.conditionFailed[0]) {
    // Our own earlier attempt may have applied with its answer lost (the SDK then retried).
    const current = await getConfirmation(context, confirmation.id);
    return current?.status === 'running' && current.chargeAttempt === input.attemptId
      ? { kind: 'started', confirmation: current }
      : { kind: 'duplicate' };
  }
  if (result.conditionFailed[2] && input.cap !== undefined) return capped(context, input, input.cap);
  // Only the ledger entry's own key can be left: a charge started at this very millisecond.
  throw new ConflictError(`The charge of ${confirmation.id} could not start`);
}

/** A charged unlock is kept this long: the reconciler asks about it within minutes of a worker dying. */
const CHARGED_UNLOCK_SECONDS = 3 * DAY_SECONDS;

/**
 * Names the confirmation that paid for the unlock on the account, unless one is named already: no
 * condition, so it never fails the settle it is part of.
 */
export function recordUnlock(
  { tableName }: StoreContext,
  confirmation: Confirmation & ChargeStarted,
  unlock: Unlock,
  at: Date,
): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: keys.chargedUnlock(confirmation.chargeAccount, unlock),
      UpdateExpression:
        'SET #type = :type, accountId = :account, #unlock = :unlock, confirmationId = if_not_exists(confirmationId, :id), teamId = if_not_exists(teamId, :team), chargedAt = if_not_exists(chargedAt, :at), expiresAt = if_not_exists(expiresAt, :ttl)',
      ExpressionAttributeNames: { '#type': 'type', '#unlock': 'unlock' },
      ExpressionAttributeValues: {
        ':type': ITEM_TYPE.chargedUnlock,
        ':account': confirmation.chargeAccount,
        ':unlock': unlock,
        ':id': confirmation.id,
        ':team': confirmation.teamId,
        ':at': at.toISOString(),
        ':ttl': epochSeconds(at) + CHARGED_UNLOCK_SECONDS,
      },
    },
  };
}

/** The confirmation recorded as having paid for the unlock on the account (a consistent read). */
async function unlockedBy(
  { client, tableName }: StoreContext,
  accountId: string,
  unlock: Unlock,
): Promise<string | null> {
  const { Item } = await client.send(
    new GetCommand({
      TableName: tableName,
      Key: keys.chargedUnlock(accountId, unlock),
      ConsistentRead: true,
    }),
  );
  return Item ? parseItem(ChargedUnlockSchema, 'charged unlock', Item).confirmationId : null;
}

/**
 * The settling transaction: the confirmation's final status (only while its charge is still
 * running), the ledger entry's real amount, the cap corrected by (real − reserved), the unlock task,
 * and which confirmation paid for the unlock.
 */
function settleItems(
  context: StoreContext,
  confirmation: Confirmation & ChargeStarted,
  settlement: Settlement,
  at: Date,
): TransactItem[] {
  const { tableName } = context;
  const { chargeStartedAt, chargeAccount, chargeDay, reserved } = confirmation;
  const unknown = settlement.ledger.status === 'unknown';
  const askUntil = unknown ? settlement.ledger.askUntil : undefined;
  // An unknown outcome keeps its reservation: the credits may have gone.
  const delta = unknown ? 0 : settlement.ledger.credits - reserved;
  return [
    {
      Update: {
        TableName: tableName,
        Key: keys.confirmation(confirmation.id),
        ConditionExpression: 'attribute_exists(pk) AND #status = :running AND chargeStartedAt = :started',
        UpdateExpression: 'SET #status = :status, outcome = :outcome, finishedAt = :now, #dueAt = :due',
        ExpressionAttributeNames: { '#status': 'status', '#dueAt': TABLE_KEYS.dueAt },
        ExpressionAttributeValues: {
          ':running': 'running',
          ':started': chargeStartedAt,
          ':status': settlement.status,
          ':outcome': JsonSchema.parse(settlement.outcome),
          ':now': at.toISOString(),
          ':due': addSeconds(at, RECONCILE_AFTER_SECONDS.decided).toISOString(),
        },
      },
    },
    {
      Update: {
        TableName: tableName,
        Key: ledgerKey(confirmation, chargeStartedAt),
        ConditionExpression: 'attribute_exists(pk)',
        UpdateExpression: `SET #status = :status, credits = :credits${unknown ? ', outcomeUnknown = :true' : ''}${settlement.ledger.traceId ? ', traceId = :trace' : ''}${askUntil ? ', askUntil = :until' : ''}`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':status': settlement.ledger.status,
          ':credits': settlement.ledger.credits,
          ...(unknown ? { ':true': true } : {}),
          ...(settlement.ledger.traceId ? { ':trace': settlement.ledger.traceId } : {}),
          ...(askUntil ? { ':until': askUntil } : {}),
        },
      },
    },
    ...(delta !== 0 ? [addSpend(context, chargeAccount, chargeDay, delta)] : []),
    ...(settlement.task
      ? [
          {
            Put: {
              TableName: tableName,
              // Polled only with the key of the account that submitted it (the charge's).
              Item: newUnlockTaskItem({ ...settlement.task, serviceAccount: chargeAccount }, at),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ]
      : []),
    ...(settlement.unlocked ? [recordUnlock(context, confirmation, settlement.unlocked, at)] : []),
  ];
}

/** The settling step, from the confirmation as the write-ahead step left it. */
async function settle(
  context: StoreContext,
  confirmationId: string,
  settlement: Settlement,
): Promise<Confirmation | null> {
  const confirmation = await getConfirmation(context, confirmationId);
  if (!confirmation) return null;
  const { chargeStartedAt, chargeAccount, chargeDay, reserved } = confirmation;
  if (confirmation.status !== 'running') return confirmation;
  if (!chargeStartedAt || !chargeAccount || !chargeDay || reserved === undefined)
    throw new ValidationError(`Confirmation ${confirmationId} was never started`);
  const started = { ...confirmation, chargeStartedAt, chargeAccount, chargeDay, reserved };
  await runTransaction(context.client, {
    TransactItems: settleItems(context, started, settlement, context.now()),
  });
  // Applied, or lost to another settle (or our own applied attempt): either way, read what holds.
  const after = await getConfirmation(context, confirmationId);
  if (after?.status === 'running') throw new ConflictError(`The charge of ${confirmationId} did not settle`);
  return after;
}

/**
 * The charge's two transactions. DynamoDB does not let one conditional write span the confirmation,
 * the ledger and the cap, so each step is one `TransactWriteItems`, and its condition on the
 * confirmation's state makes a retried or replayed transaction a no-op (the cap is never added twice).
 */
export function createChargeRepository(deps: StoreDeps) {
  const context = storeContext(deps);
  return {
    spent: (accountId: string, day: string) => spent(context, accountId, day),
    begin: (confirmation: Confirmation, input: BeginCharge) => begin(context, confirmation, input),
    settle: (confirmationId: string, settlement: Settlement) => settle(context, confirmationId, settlement),
    unlockedBy: (accountId: string, unlock: Unlock) => unlockedBy(context, accountId, unlock),
  };
}
