import type { Settlement } from '../domain/ports/index.ts';
import { ConflictError } from '../platform/errors.ts';
import { addSpend, type ChargeStarted, ledgerKey, recordUnlock } from './charges.ts';
import { getConfirmation } from './confirmations.ts';
import { DUE_KIND, keys } from './keys.ts';
import { type Confirmation, JsonSchema } from '../domain/ports/records.ts';
import { addSeconds, runTransaction, type StoreContext, storeContext, type StoreDeps } from './support.ts';
import { TABLE_KEYS } from './table.ts';
import { RECONCILE_AFTER_SECONDS } from '../domain/ports/index.ts';

/**
 * Deciding a charge settled with an unknown outcome, once the service shows what happened: one
 * transaction over the confirmation (only while its outcome is still unknown), its ledger entry (only
 * while `unknown`), the cap's correction and the unlock's payer, so a retried or concurrent run does
 * it once. A `ledger.status` of `unknown` stops the asking: the entry stays unknown, for the admins.
 */
async function resolveOutcome(
  context: StoreContext,
  confirmationId: string,
  settlement: Settlement,
): Promise<Confirmation | null> {
  const confirmation = await getConfirmation(context, confirmationId);
  if (!confirmation) return null;
  const { chargeStartedAt, chargeAccount, chargeDay, reserved } = confirmation;
  if (confirmation.status !== 'failed' || !chargeStartedAt || !chargeAccount || !chargeDay)
    return confirmation;
  const started = { ...confirmation, chargeStartedAt, chargeAccount, chargeDay, reserved: reserved ?? 0 };
  const at = context.now();
  const result = await runTransaction(context.client, {
    TransactItems: resolveItems(context, started, settlement, at),
  });
  const after = await getConfirmation(context, confirmationId);
  // Lost to another run: what holds is that run's decision, unless nothing moved at all.
  if (
    !result.ok &&
    after?.status === 'failed' &&
    JSON.stringify(after.outcome) === JSON.stringify(confirmation.outcome)
  )
    throw new ConflictError(`The unknown outcome of ${confirmationId} could not be decided`);
  return after;
}

function resolveItems(
  context: StoreContext,
  confirmation: Confirmation & ChargeStarted,
  settlement: Settlement,
  at: Date,
) {
  const { tableName } = context;
  const { chargeStartedAt, chargeAccount, chargeDay, reserved } = confirmation;
  const known = settlement.ledger.status !== 'unknown';
  const delta = known ? settlement.ledger.credits - reserved : 0;
  return [
    {
      Update: {
        TableName: tableName,
        Key: keys.confirmation(confirmation.id),
        ConditionExpression:
          'attribute_exists(pk) AND #status = :failed AND chargeStartedAt = :started AND outcome.outcomeUnknown = :true',
        UpdateExpression:
          'SET #status = :status, outcome = :outcome, finishedAt = :now, #dueKind = :kind, #dueAt = :due REMOVE askedAt',
        ExpressionAttributeNames: {
          '#status': 'status',
          '#dueKind': TABLE_KEYS.dueKind,
          '#dueAt': TABLE_KEYS.dueAt,
        },
        ExpressionAttributeValues: {
          ':failed': 'failed',
          ':started': chargeStartedAt,
          ':true': true,
          ':status': settlement.status,
          ':outcome': JsonSchema.parse(settlement.outcome),
          ':now': at.toISOString(),
          ':kind': DUE_KIND.confirmation,
          // Due shortly, so the card is shown even if this run dies before it shows it.
          ':due': addSeconds(at, RECONCILE_AFTER_SECONDS.decided).toISOString(),
        },
      },
    },
    {
      Update: {
        TableName: tableName,
        Key: ledgerKey(confirmation, chargeStartedAt),
        ConditionExpression: 'attribute_exists(pk) AND #status = :unknown',
        UpdateExpression: known
          ? 'SET #status = :status, credits = :credits, outcomeConfirmedAt = :now REMOVE outcomeUnknown, askUntil'
          : 'REMOVE askUntil',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':unknown': 'unknown',
          ...(known
            ? {
                ':status': settlement.ledger.status,
                ':credits': settlement.ledger.credits,
                ':now': at.toISOString(),
              }
            : {}),
        },
      },
    },
    ...(delta !== 0 ? [addSpend(context, chargeAccount, chargeDay, delta)] : []),
    ...(settlement.unlocked ? [recordUnlock(context, confirmation, settlement.unlocked, at)] : []),
  ];
}

export function createChargeOutcomes(deps: StoreDeps) {
  const context = storeContext(deps);
  return {
    resolve: (confirmationId: string, settlement: Settlement) =>
      resolveOutcome(context, confirmationId, settlement),
  };
}
