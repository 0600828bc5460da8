import { EisInsufficientCreditsError, EisUpstreamError } from '../eis/index.ts';
import type { Logger } from '../log.ts';
import type {
  Confirmation,
  ConfirmationRepository,
  Json,
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
  balanceOrNull,
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
  logger: Logger;
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
  const balance = await balanceOrNull(eis);
  return balance === null ? message : `${message} The balance is ${balance.toLocaleString('en-US')} credits.`;
}

const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Step 3, in the worker, for a claimed confirmation: the daily cap, then the one service call, then
 * the records. `beginCharge` makes a redelivered job a no-op, so a charge runs at most once. Once the
 * service has been called nothing throws: every charge (even one whose outcome is unknown) reaches
 * the ledger first, and a failure of a later write is logged, never shown as "try again".
 */
export async function runCharge(
  confirmationId: string,
  deps: ConfirmationDeps & {
    /** The card's ts from the click, for a confirmation whose ts could not be saved. */
    cardTs?: string;
    onChargeStarted?: () => Promise<void>;
  },
): Promise<ChargeResult> {
  const confirmation = await deps.confirmations.get(confirmationId);
  if (confirmation?.status !== 'running') return { kind: 'duplicate' };
  if (!(await deps.confirmations.beginCharge(confirmationId))) return { kind: 'duplicate' };
  await deps
    .onChargeStarted?.()
    .catch((error: unknown) => deps.logger.warn('could not show the charge starting', { error }));
  const action = ChargeActionSchema.parse(confirmation.action);
  const day = utcDay(deps.now());
  const reserved = confirmation.price.credits;
  const cardTs = confirmation.messageTs ?? deps.cardTs;
  const afterCharge = async (what: string, write: () => Promise<unknown>) => {
    try {
      await write();
    } catch (error) {
      deps.logger.error(`charge done, but ${what} failed`, { confirmationId, error });
    }
  };
  const finish = async (status: 'succeeded' | 'failed', outcome: Json) => {
    let finished = confirmation;
    await afterCharge('finishing the confirmation', async () => {
      finished = await deps.confirmations.finish(confirmationId, { status, outcome });
    });
    return finished;
  };
  const record = (credits: number, extra: { traceId?: string; outcomeUnknown?: boolean } = {}) =>
    afterCharge('the ledger record', () =>
      deps.ledger.record({
        teamId: confirmation.teamId,
        channelId: confirmation.channelId,
        userId: confirmation.confirmedBy ?? confirmation.requestedBy,
        action: action.kind,
        credits,
        ...extra,
        ...('eventId' in action ? { eventId: action.eventId } : {}),
        ...('personnelIds' in action ? { personnelIds: action.personnelIds } : {}),
        confirmationId,
      }),
    );

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
    if (outcomeUnknown) {
      // Credits may have gone: the ledger says so, at the quoted price, and the reservation stays.
      await record(reserved, { outcomeUnknown: true, ...(error.traceId ? { traceId: error.traceId } : {}) });
    } else if (deps.dailyCap !== undefined) {
      await afterCharge('returning the reservation', () =>
        deps.dailySpend.adjust(confirmation.teamId, day, -reserved),
      );
    }
    const message = await withBalance(chargeErrorMessage(error), error, deps.eis);
    const finished = await finish('failed', { reason: 'service-error', message, outcomeUnknown });
    return { kind: 'failed', confirmation: finished, message, outcomeUnknown };
  }

  await record(outcome.creditsSpent, outcome.traceId ? { traceId: outcome.traceId } : {});
  const { task } = outcome;
  if (task && cardTs) {
    await afterCharge('storing the unlock task', () =>
      deps.unlockTasks.create({
        taskId: task.taskId,
        kind: task.kind,
        teamId: confirmation.teamId,
        channelId: confirmation.channelId,
        threadTs: cardTs,
        requestedBy: confirmation.requestedBy,
        personnelIds: 'personnelIds' in action ? action.personnelIds : [],
        ...('names' in action && action.names ? { names: action.names } : {}),
        skipped: task.skipped,
        confirmationId,
      }),
    );
  }
  if (deps.dailyCap !== undefined) {
    await afterCharge('adjusting the daily spend', () =>
      deps.dailySpend.adjust(confirmation.teamId, day, outcome.creditsSpent - reserved),
    );
  }
  const finished = await finish('succeeded', {
    creditsSpent: outcome.creditsSpent,
    balanceAfter: outcome.balanceAfter,
    summary: outcome.summary,
  });
  return { kind: 'succeeded', confirmation: finished, outcome };
}
