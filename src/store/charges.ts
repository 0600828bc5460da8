import { GetCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConflictError, ValidationError } from '../errors.ts';
import { createConfirmationRepository, RECONCILE_AFTER_SECONDS } from './confirmations.ts';
import { ITEM_TYPE, keys } from './keys.ts';
import { newLedgerEntry } from './ledger.ts';
import { type Confirmation, DailySpendSchema, type Json, JsonSchema } from './schemas.ts';
import {
  addSeconds,
  DAY_SECONDS,
  epochSeconds,
  parseItem,
  runTransaction,
  type StoreDeps,
  systemClock,
} from './support.ts';
import { TABLE_KEYS } from './table.ts';
import { newUnlockTaskItem, type NewUnlockTask } from './unlock-tasks.ts';

export interface BeginCharge {
  /** Identifies this run: a run whose transaction applied but whose answer was lost knows its own write. */
  attemptId: string;
  /** The service account whose daily cap is charged, and the UTC day. */
  accountId: string;
  day: string;
  /** Credits per account and UTC day; no cap when absent (spend is still counted). */
  cap?: number;
  userId: string;
  ledger: { action: string; eventId?: string; personnelIds?: string[] };
}

export type BeginResult =
  | { kind: 'started'; confirmation: Confirmation }
  /** Another run started it, or it is no longer running: nothing may be charged. */
  | { kind: 'duplicate' }
  | { kind: 'capped'; remaining: number };

/** What came of the service call, recorded on the confirmation, the ledger and the cap at once. */
export interface Settlement {
  status: 'succeeded' | 'failed';
  outcome: Json;
  ledger: { status: 'charged' | 'refused' | 'unknown'; credits: number; traceId?: string };
  /** An unlock task to follow, stored in the same transaction so paid results are never lost. */
  task?: NewUnlockTask;
}

export type ChargeRepository = ReturnType<typeof createChargeRepository>;

const ledgerKey = (confirmation: Confirmation, startedAt: string) =>
  keys.ledgerEntry(confirmation.teamId, startedAt, confirmation.id);

/**
 * The charge's two transactions. DynamoDB does not let one conditional write span the confirmation,
 * the ledger and the cap, so each step is one `TransactWriteItems`, and its condition on the
 * confirmation's state makes a retried or replayed transaction a no-op (the cap is never added twice).
 */
export function createChargeRepository({ client, tableName, now = systemClock }: StoreDeps) {
  // The charge's steps read the confirmation as its repository does (consistent, parsed).
  const readConfirmation = createConfirmationRepository({ client, tableName, now }).get;

  const spent = async (accountId: string, day: string): Promise<number> => {
    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.dailySpend(accountId, day), ConsistentRead: true }),
    );
    return Item ? parseItem(DailySpendSchema, 'daily spend', Item).credits : 0;
  };

  const addSpend = (accountId: string, day: string, credits: number, limit?: number) => ({
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
  });

  return {
    spent,

    /**
     * The write-ahead step, before the service is called: marks the charge started (once, for one
     * run), writes a `pending` ledger entry at the quoted price and reserves it under the cap.
     */
    async begin(confirmation: Confirmation, input: BeginCharge): Promise<BeginResult> {
      const reserved = confirmation.price.credits;
      if (input.cap !== undefined && reserved > input.cap)
        return {
          kind: 'capped',
          remaining: Math.max(0, input.cap - (await spent(input.accountId, input.day))),
        };
      const at = now();
      const startedAt = at.toISOString();
      const entry = newLedgerEntry(
        {
          id: confirmation.id,
          teamId: confirmation.teamId,
          channelId: confirmation.channelId,
          userId: input.userId,
          ...input.ledger,
          credits: reserved,
          confirmationId: confirmation.id,
          status: 'pending',
        },
        at,
      );
      const result = await runTransaction(client, {
        TransactItems: [
          {
            Update: {
              TableName: tableName,
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
              TableName: tableName,
              Item: { ...ledgerKey(confirmation, startedAt), ...entry },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          addSpend(
            input.accountId,
            input.day,
            reserved,
            input.cap === undefined ? undefined : input.cap - reserved,
          ),
        ],
      });
      if (result.ok) {
        const started = {
          ...confirmation,
          chargeStartedAt: startedAt,
          chargeAttempt: input.attemptId,
          chargeAccount: input.accountId,
          chargeDay: input.day,
          reserved,
        };
        return { kind: 'started', confirmation: started };
      }
      if (result.conditionFailed[0]) {
        // Our own earlier attempt may have applied with its answer lost (the SDK then retried).
        const current = await readConfirmation(confirmation.id);
        return current?.status === 'running' && current.chargeAttempt === input.attemptId
          ? { kind: 'started', confirmation: current }
          : { kind: 'duplicate' };
      }
      if (result.conditionFailed[2] && input.cap !== undefined)
        return {
          kind: 'capped',
          remaining: Math.max(0, input.cap - (await spent(input.accountId, input.day))),
        };
      // Only the ledger entry's own key can be left: a charge started at this very millisecond.
      throw new ConflictError(`The charge of ${confirmation.id} could not start`);
    },

    /**
     * The settling step: the confirmation's final status, the ledger entry's real amount, the cap
     * corrected by (real − reserved) and the unlock task, in one transaction, only while the charge
     * is still running. Returns the settled confirmation, whoever settled it (null if it vanished).
     */
    async settle(confirmationId: string, settlement: Settlement): Promise<Confirmation | null> {
      const confirmation = await readConfirmation(confirmationId);
      if (!confirmation) return null;
      const { chargeStartedAt, chargeAccount, chargeDay, reserved } = confirmation;
      if (confirmation.status !== 'running') return confirmation;
      if (!chargeStartedAt || !chargeAccount || !chargeDay || reserved === undefined)
        throw new ValidationError(`Confirmation ${confirmationId} was never started`);
      const at = now();
      // An unknown outcome keeps its reservation: the credits may have gone.
      const delta = settlement.ledger.status === 'unknown' ? 0 : settlement.ledger.credits - reserved;
      const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [
        {
          Update: {
            TableName: tableName,
            Key: keys.confirmation(confirmationId),
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
            UpdateExpression: `SET #status = :status, credits = :credits${settlement.ledger.status === 'unknown' ? ', outcomeUnknown = :true' : ''}${settlement.ledger.traceId ? ', traceId = :trace' : ''}`,
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':status': settlement.ledger.status,
              ':credits': settlement.ledger.credits,
              ...(settlement.ledger.status === 'unknown' ? { ':true': true } : {}),
              ...(settlement.ledger.traceId ? { ':trace': settlement.ledger.traceId } : {}),
            },
          },
        },
        ...(delta !== 0 ? [addSpend(chargeAccount, chargeDay, delta)] : []),
        ...(settlement.task
          ? [
              {
                Put: {
                  TableName: tableName,
                  Item: newUnlockTaskItem(settlement.task, at),
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
            ]
          : []),
      ];
      await runTransaction(client, { TransactItems: items });
      // Applied, or lost to another settle (or our own applied attempt): either way, read what holds.
      const after = await readConfirmation(confirmationId);
      if (after?.status === 'running')
        throw new ConflictError(`The charge of ${confirmationId} did not settle`);
      return after;
    },
  };
}
