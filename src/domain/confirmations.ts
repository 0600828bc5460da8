import { EisInsufficientCreditsError, EisUpstreamError } from '../eis/index.ts';
import type {
  Confirmation,
  ConfirmationRepository,
  DailySpendRepository,
  LedgerRepository,
  UnlockTaskRepository,
} from '../store/index.ts';
import {
  type ChargeAction,
  ChargeActionSchema,
  type ChargeEis,
  type ChargeOutcome,
  type ChargeQuote,
  chargeErrorMessage,
  executeCharge,
  quoteCharge,
  withPeopleNames,
} from './charging.ts';

export interface Requester {
  teamId: string;
  channelId: string;
  userId: string;
}

export interface ConfirmationDeps {
  eis: ChargeEis;
  confirmations: ConfirmationRepository;
  ledger: Pick<LedgerRepository, 'record'>;
  dailySpend: Pick<DailySpendRepository, 'reserve' | 'adjust'>;
  unlockTasks: Pick<UnlockTaskRepository, 'create'>;
  /** Slack user ids who may confirm anybody's request. */
  approvers: readonly string[];
  /** Credits the workspace may spend per UTC day; no cap when absent. */
  dailyCap?: number;
  now: () => Date;
}

/** Step 1: price the action and store a pending confirmation, or say why there is nothing to confirm. */
export async function requestConfirmation(
  action: ChargeAction,
  requester: Requester,
  deps: Pick<ConfirmationDeps, 'eis' | 'confirmations'>,
): Promise<{ quote: ChargeQuote; confirmation?: Confirmation }> {
  const quote = await quoteCharge(await withPeopleNames(action, deps.eis), deps.eis);
  if (quote.refusal) return { quote };
  const confirmation = await deps.confirmations.create({
    teamId: requester.teamId,
    channelId: requester.channelId,
    requestedBy: requester.userId,
    action: quote.action,
    price: quote.price,
  });
  return { quote, confirmation };
}

export type ConfirmDecision =
  | { kind: 'claimed'; confirmation: Confirmation }
  | { kind: 'not-allowed'; requestedBy: string }
  | { kind: 'already-handled'; status: string; confirmedBy?: string }
  | { kind: 'expired'; confirmation: Confirmation }
  | { kind: 'not-found' };

export const mayDecide = (
  confirmation: Confirmation,
  userId: string,
  approvers: readonly string[],
): boolean => confirmation.requestedBy === userId || approvers.includes(userId);

/**
 * Step 2, on a Confirm click: only the requester or an approver, and only one click among all the
 * clicks, retries and concurrent deliveries wins (the store's conditional pending → running).
 */
export async function confirm(
  confirmationId: string,
  userId: string,
  deps: Pick<ConfirmationDeps, 'confirmations' | 'approvers'>,
): Promise<ConfirmDecision> {
  const current = await deps.confirmations.get(confirmationId);
  if (!current) return { kind: 'not-found' };
  if (!mayDecide(current, userId, deps.approvers))
    return { kind: 'not-allowed', requestedBy: current.requestedBy };
  const claim = await deps.confirmations.claim(confirmationId, { by: userId });
  switch (claim.kind) {
    case 'claimed':
      return { kind: 'claimed', confirmation: claim.confirmation };
    case 'already-handled':
      return {
        kind: 'already-handled',
        status: claim.status,
        ...(claim.confirmation.confirmedBy ? { confirmedBy: claim.confirmation.confirmedBy } : {}),
      };
    case 'expired':
      return { kind: 'expired', confirmation: claim.confirmation };
    case 'not-found':
      return { kind: 'not-found' };
  }
}

export async function cancel(
  confirmationId: string,
  userId: string,
  deps: Pick<ConfirmationDeps, 'confirmations' | 'approvers'>,
): Promise<
  | { kind: 'cancelled'; confirmation: Confirmation }
  | { kind: 'not-allowed'; requestedBy: string }
  | { kind: 'already-handled'; status: string }
  | { kind: 'not-found' }
> {
  const current = await deps.confirmations.get(confirmationId);
  if (!current) return { kind: 'not-found' };
  if (!mayDecide(current, userId, deps.approvers))
    return { kind: 'not-allowed', requestedBy: current.requestedBy };
  const result = await deps.confirmations.cancel(confirmationId, { by: userId });
  if (result.kind === 'already-handled') return { kind: 'already-handled', status: result.status };
  return result;
}

export type ChargeResult =
  | { kind: 'succeeded'; confirmation: Confirmation; outcome: ChargeOutcome }
  | { kind: 'failed'; confirmation: Confirmation; message: string; outcomeUnknown: boolean }
  | { kind: 'capped'; confirmation: Confirmation; remaining: number; cap: number }
  /** Another run already started this charge (a redelivered job): nothing was done. */
  | { kind: 'duplicate' };

/** A refusal for lack of credits says how many there are. */
async function withBalance(message: string, error: unknown, eis: ChargeEis): Promise<string> {
  if (!(error instanceof EisInsufficientCreditsError)) return message;
  const balance = await eis.credits
    .balance()
    .then((b) => b.totalBalance)
    .catch(() => null);
  return balance === null ? message : `${message} The balance is ${balance.toLocaleString('en-US')} credits.`;
}

const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Step 3, in the worker, for a claimed confirmation: the daily cap, then the one service call, then
 * the ledger. `beginCharge` makes a redelivered job a no-op, so a charge runs at most once.
 */
export async function runCharge(
  confirmationId: string,
  deps: ConfirmationDeps & { onChargeStarted?: () => Promise<void> },
): Promise<ChargeResult> {
  const confirmation = await deps.confirmations.get(confirmationId);
  if (confirmation?.status !== 'running') return { kind: 'duplicate' };
  if (!(await deps.confirmations.beginCharge(confirmationId))) return { kind: 'duplicate' };
  await deps.onChargeStarted?.();
  const action = ChargeActionSchema.parse(confirmation.action);
  const day = utcDay(deps.now());
  const reserved = confirmation.price.credits;

  if (deps.dailyCap !== undefined) {
    const reservation = await deps.dailySpend.reserve(confirmation.teamId, day, reserved, deps.dailyCap);
    if (!reservation.ok) {
      const finished = await deps.confirmations.finish(confirmationId, {
        status: 'failed',
        outcome: { reason: 'daily-cap', remaining: reservation.remaining },
      });
      return { kind: 'capped', confirmation: finished, remaining: reservation.remaining, cap: deps.dailyCap };
    }
  }

  let outcome: ChargeOutcome;
  try {
    outcome = await executeCharge(action, deps.eis);
  } catch (error) {
    const outcomeUnknown = error instanceof EisUpstreamError && error.outcomeUnknown;
    // A call that provably did not run gives its reservation back; an unknown outcome keeps it.
    if (deps.dailyCap !== undefined && !outcomeUnknown)
      await deps.dailySpend.adjust(confirmation.teamId, day, -reserved);
    const message = await withBalance(chargeErrorMessage(error), error, deps.eis);
    const finished = await deps.confirmations.finish(confirmationId, {
      status: 'failed',
      outcome: { reason: 'service-error', message, outcomeUnknown },
    });
    return { kind: 'failed', confirmation: finished, message, outcomeUnknown };
  }

  if (deps.dailyCap !== undefined) {
    await deps.dailySpend.adjust(confirmation.teamId, day, outcome.creditsSpent - reserved);
  }
  await deps.ledger.record({
    teamId: confirmation.teamId,
    channelId: confirmation.channelId,
    userId: confirmation.confirmedBy ?? confirmation.requestedBy,
    action: action.kind,
    credits: outcome.creditsSpent,
    ...(outcome.traceId ? { traceId: outcome.traceId } : {}),
    ...('eventId' in action ? { eventId: action.eventId } : {}),
    ...('personnelIds' in action ? { personnelIds: action.personnelIds } : {}),
    confirmationId,
  });
  if (outcome.task && confirmation.messageTs) {
    await deps.unlockTasks.create({
      taskId: outcome.task.taskId,
      kind: outcome.task.kind,
      teamId: confirmation.teamId,
      channelId: confirmation.channelId,
      threadTs: confirmation.messageTs,
      requestedBy: confirmation.requestedBy,
      personnelIds: 'personnelIds' in action ? action.personnelIds : [],
      ...('names' in action && action.names ? { names: action.names } : {}),
      skipped: outcome.task.skipped,
      confirmationId,
    });
  }
  const finished = await deps.confirmations.finish(confirmationId, {
    status: 'succeeded',
    outcome: {
      creditsSpent: outcome.creditsSpent,
      balanceAfter: outcome.balanceAfter,
      summary: outcome.summary,
    },
  });
  return { kind: 'succeeded', confirmation: finished, outcome };
}
