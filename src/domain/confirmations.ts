import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import type { Logger } from '../platform/log.ts';
import { NO_METRICS } from '../platform/metric-names.ts';
import type {
  ChargeRepository,
  Confirmation,
  ConfirmationRepository,
  Metrics,
  Settlement,
} from './ports/index.ts';
import { isServiceError, SERVICE_ERROR_CODE } from './ports/service.ts';
import {
  type Actor,
  type ApprovalRefusal,
  cancelRefusal,
  confirmRefusal,
  type SpendPolicy,
} from './approval.ts';
import {
  type ChargeAction,
  ChargeActionSchema,
  type ChargeEis,
  balanceOrNull,
  unlockOf,
} from './charging.ts';
import { ChargeFactsSchema, type ChargeOutcome } from './charge-outcome.ts';
import {
  type ChargeQuote,
  type EventNames,
  quoteCharge,
  withEventNaming,
  withPeopleNames,
} from './charge-quote.ts';
import { chargeErrorMessage, executeCharge } from './charge-run.ts';
import { realSleep, type Sleep } from './slack-delivery.ts';
import { utcDate } from '../time/local-time.ts';
import { askUntilOf } from './unknown-outcomes.ts';

export interface Requester {
  teamId: string;
  channelId: string;
  userId: string;
}

export type { Actor, SpendPolicy } from './approval.ts';

export interface ConfirmationDeps {
  eis: ChargeEis;
  confirmations: ConfirmationRepository;
  charges: Pick<ChargeRepository, 'begin' | 'settle'>;
  /** The spending rules in a channel: who may confirm there (its approvers may be the channel's), the daily cap. */
  policyIn: (channelId: string) => Promise<SpendPolicy>;
  /** The service account the key belongs to: the daily cap is kept per account. */
  accountId: string;
  logger: Logger;
  now: () => Date;
  metrics?: Metrics;
  /** Waits between attempts to store a charge's outcome; tests may pass one that does not wait. */
  sleep?: Sleep;
}

/**
 * What a decided confirmation stored as its outcome, read back for the card (by the worker, the
 * reconciler and the unlock poller alike).
 */
export const StoredOutcomeSchema = z.object({
  /** What came of it (succeeded), as facts the card words; unreadable facts are left out. */
  facts: ChargeFactsSchema.optional().catch(undefined),
  /**
   * What came of it in words: written by the reconciler, and by releases before `facts` (still read
   * for their records). Shown when there are no facts.
   */
  summary: z.array(z.string()).optional(),
  /** The credits the service charged; absent when nobody can know. */
  creditsSpent: z.number().optional(),
  balanceAfter: z.number().nullable().optional(),
  /** Why it did not work, in the user's words (failed). */
  message: z.string().optional(),
  outcomeUnknown: z.boolean().optional(),
  /** An unknown outcome the reconciler asks the service about again, until then (ISO time). */
  askUntil: z.string().optional(),
  /** An unknown outcome the reconciler asked about until then, and the service never showed. */
  askedUntil: z.string().optional(),
  /** Decided later than the charge: the service showed what came of it after its answer was lost. */
  decidedLater: z.boolean().optional(),
  reason: z.string().optional(),
  /** An unlock task follows: charged, but the results are still to come. */
  resultsPending: z.boolean().optional(),
});
export type StoredOutcome = z.infer<typeof StoredOutcomeSchema>;

export function storedOutcome(confirmation: Pick<Confirmation, 'outcome'>): StoredOutcome {
  const parsed = StoredOutcomeSchema.safeParse(confirmation.outcome ?? {});
  return parsed.success ? parsed.data : {};
}

/** Step 1: price the action and store a pending confirmation, or say why there is nothing to confirm. */
export async function requestConfirmation(
  action: ChargeAction,
  requester: Requester,
  deps: Pick<ConfirmationDeps, 'eis' | 'confirmations'> & {
    /** Today's show names of the account; without them, the service is asked. */
    showNames?: EventNames | undefined;
    /**
     * The action under its show's public id (`src/domain/show-ids.ts`), found while it is named and
     * quoted (the service quotes either id alike): the confirmation is kept under the public one.
     */
    withPublicIds?: ((action: ChargeAction) => Promise<ChargeAction>) | undefined;
  },
): Promise<{ quote: ChargeQuote; confirmation?: Confirmation }> {
  // Named for the card (the people of a contact unlock, the event of an event unlock) while it is
  // quoted: independent reads, so the card waits for one service round trip, not two.
  const [named, quoted, converted] = await Promise.all([
    withPeopleNames(action, deps.eis).then((withPeople) =>
      withEventNaming(withPeople, { events: deps.showNames ?? deps.eis.events }),
    ),
    quoteCharge(action, deps.eis),
    deps.withPublicIds ? deps.withPublicIds(action) : action,
  ]);
  const quote = { ...quoted, action: { ...named, ...idsOf(converted) } as ChargeAction };
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

/** The show ids an action names, as given. */
const idsOf = (action: ChargeAction): Partial<Record<'eventId', string>> =>
  'eventId' in action ? { eventId: action.eventId } : {};

export type ConfirmDecision =
  | { kind: 'claimed'; confirmation: Confirmation }
  | { kind: 'not-allowed'; refusal: ApprovalRefusal }
  | { kind: 'already-handled'; status: string; confirmedBy?: string }
  | { kind: 'expired'; confirmation: Confirmation }
  | { kind: 'not-found' };

/** A click's decision: the confirmation, and the spending rules in its channel. */
type DecisionDeps = Pick<ConfirmationDeps, 'confirmations' | 'policyIn'>;

/**
 * Step 2, on a Confirm click: only one click among all the clicks, retries and concurrent deliveries
 * wins (the store's conditional pending → running). "Expired" is said only by the one caller whose
 * expiry write won, so no user is told "expired" while another click charges.
 */
export async function confirm(
  confirmationId: string,
  actor: Actor,
  deps: DecisionDeps,
): Promise<ConfirmDecision> {
  const current = await deps.confirmations.get(confirmationId);
  if (!current) return { kind: 'not-found' };
  const refusal = confirmRefusal(current, actor, await deps.policyIn(current.channelId));
  if (refusal) return { kind: 'not-allowed', refusal };
  const claim = await deps.confirmations.claim(confirmationId, { by: actor.userId });
  if (claim.kind !== 'lost') return claim;
  if (claim.confirmation.status === 'pending') {
    const expired = await deps.confirmations.expire(confirmationId);
    if (expired) return { kind: 'expired', confirmation: expired };
  }
  const now = await deps.confirmations.get(confirmationId);
  if (!now) return { kind: 'not-found' };
  return {
    kind: 'already-handled',
    status: now.status,
    ...(now.confirmedBy ? { confirmedBy: now.confirmedBy } : {}),
  };
}

export async function cancel(
  confirmationId: string,
  actor: Actor,
  deps: DecisionDeps,
): Promise<
  | { kind: 'cancelled'; confirmation: Confirmation }
  | { kind: 'not-allowed'; refusal: ApprovalRefusal }
  | { kind: 'already-handled'; status: string }
  | { kind: 'not-found' }
> {
  const current = await deps.confirmations.get(confirmationId);
  if (!current) return { kind: 'not-found' };
  const refusal = cancelRefusal(current, actor, await deps.policyIn(current.channelId));
  if (refusal) return { kind: 'not-allowed', refusal };
  const result = await deps.confirmations.cancel(confirmationId, { by: actor.userId });
  if (result.kind === 'already-handled') return { kind: 'already-handled', status: result.status };
  return result;
}

export type ChargeResult =
  /** The charge is decided and stored; the card is shown from the stored confirmation. */
  | {
      kind: 'settled';
      confirmation: Confirmation;
      results?: ChargeOutcome['results'];
      /** The unlock task the charge started, whose results are still to come. */
      taskId?: string;
    }
  /** Another run started this charge, or it was closed (a redelivered job): nothing was done. */
  | { kind: 'duplicate' }
  /** The service was called but the outcome could not be stored: the reconciler settles it. */
  | { kind: 'unsettled' };

/** A refusal for lack of credits says how many there are. */
async function withBalance(message: string, error: unknown, eis: ChargeEis): Promise<string> {
  if (!isServiceError(error, SERVICE_ERROR_CODE.insufficientCredits)) return message;
  const balance = await balanceOrNull(eis);
  return balance === null ? message : `${message} The balance is ${balance.toLocaleString('en-US')} credits.`;
}

/** Settling is retried a few times: it is idempotent (conditional on the charge still running). */
async function settleWithRetries(
  deps: Pick<ConfirmationDeps, 'charges' | 'logger' | 'sleep'>,
  confirmationId: string,
  settlement: Settlement,
): Promise<Confirmation | null | undefined> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      return await deps.charges.settle(confirmationId, settlement);
    } catch (error) {
      deps.logger.error('could not store the outcome of a charge', { confirmationId, attempt, error });
      await (deps.sleep ?? realSleep)(200 * attempt);
    }
  }
  return undefined;
}

/** What the service call came to, as the records store it. */
async function settlementOf(
  action: ChargeAction,
  confirmation: Confirmation,
  deps: ConfirmationDeps,
): Promise<{ settlement: Settlement; results?: ChargeOutcome['results'] }> {
  const reserved = confirmation.price.credits;
  let outcome: ChargeOutcome;
  try {
    outcome = await executeCharge(action, deps.eis);
  } catch (error) {
    const upstream = isServiceError(error, SERVICE_ERROR_CODE.upstream);
    const outcomeUnknown = upstream && error.outcomeUnknown;
    const message = await withBalance(chargeErrorMessage(error), error, deps.eis);
    const traceId = upstream ? error.traceId : undefined;
    // The reconciler asks the service again until then, when it can (an unlock's precheck shows it).
    const askUntil = outcomeUnknown ? askUntilOf(action, confirmation.chargeStartedAt) : undefined;
    return {
      settlement: {
        status: 'failed',
        outcome: {
          reason: 'service-error',
          message,
          outcomeUnknown,
          ...(outcomeUnknown ? {} : { creditsSpent: 0 }),
          ...(askUntil ? { askUntil } : {}),
        },
        // Credits may have gone when the outcome is unknown: the ledger counts the quoted price.
        ledger: outcomeUnknown
          ? {
              status: 'unknown',
              credits: reserved,
              ...(traceId ? { traceId } : {}),
              ...(askUntil ? { askUntil } : {}),
            }
          : { status: 'refused', credits: 0 },
      },
    };
  }
  const { task } = outcome;
  // Named as the unlock's payer only when it paid: an unlock answered free was another charge's doing.
  const unlocked = outcome.creditsSpent > 0 ? unlockOf(action) : null;
  // Results go in the card's thread; a follow-up's card sits in the unlock's thread, named by its action.
  const threadTs = ('threadTs' in action ? action.threadTs : undefined) ?? confirmation.messageTs;
  return {
    settlement: {
      status: 'succeeded',
      outcome: {
        creditsSpent: outcome.creditsSpent,
        balanceAfter: outcome.balanceAfter,
        facts: outcome.facts,
        ...(task ? { resultsPending: true } : {}),
      },
      ledger: {
        status: 'charged',
        credits: outcome.creditsSpent,
        ...(outcome.traceId ? { traceId: outcome.traceId } : {}),
      },
      ...(unlocked ? { unlocked } : {}),
      ...(task && threadTs
        ? {
            task: {
              taskId: task.taskId,
              kind: task.kind,
              teamId: confirmation.teamId,
              channelId: confirmation.channelId,
              threadTs,
              requestedBy: confirmation.requestedBy,
              personnelIds: task.personnelIds ?? ('personnelIds' in action ? action.personnelIds : []),
              ...('names' in action && action.names ? { names: action.names } : {}),
              skipped: task.skipped,
              confirmationId: confirmation.id,
              ...(task.followUp ? { followUp: task.followUp } : {}),
            },
          }
        : {}),
    },
    ...(outcome.results ? { results: outcome.results } : {}),
  };
}

/** The show a charge names in the ledger: the event unlocked, or the event whose list the contacts came from. */
const showOf = (action: ChargeAction): { eventId?: string } => {
  if ('eventId' in action) return { eventId: action.eventId };
  return 'fromEventId' in action && action.fromEventId ? { eventId: action.fromEventId } : {};
};

export const capMessage = (cap: number, remaining: number) =>
  `The daily credit cap (${cap.toLocaleString('en-US')}) would be passed: ${remaining.toLocaleString('en-US')} credits are left today. Nothing was charged.`;

/**
 * Step 3, in the worker, for a claimed confirmation. Write-ahead: the start guard, a pending ledger
 * entry and the cap reservation are stored in one transaction before the service is called once;
 * its outcome, the ledger's real amount, the cap's correction and the unlock task in one more. A run
 * that dies in between leaves a started charge the reconciler settles; a redelivered job finds the
 * charge started and does nothing.
 */
export async function runCharge(
  confirmationId: string,
  deps: ConfirmationDeps,
  /** The card's ts from the click, for a confirmation whose ts could not be saved. */
  cardTs?: string,
): Promise<ChargeResult> {
  const confirmation = await deps.confirmations.get(confirmationId);
  if (confirmation?.status !== 'running') return { kind: 'duplicate' };
  const action = ChargeActionSchema.parse(confirmation.action);
  const { dailyCap } = await deps.policyIn(confirmation.channelId);
  const begun = await deps.charges.begin(confirmation, {
    attemptId: randomUUID(),
    accountId: deps.accountId,
    day: utcDate(deps.now()),
    ...(dailyCap !== undefined ? { cap: dailyCap } : {}),
    requestedBy: confirmation.requestedBy,
    confirmedBy: confirmation.confirmedBy ?? confirmation.requestedBy,
    ledger: {
      action: action.kind,
      ...showOf(action),
      ...('personnelIds' in action ? { personnelIds: action.personnelIds } : {}),
      ...(confirmation.preApproval ? { preApproval: confirmation.preApproval } : {}),
    },
  });
  if (begun.kind === 'duplicate') return { kind: 'duplicate' };
  if (begun.kind === 'capped') {
    const closed = await deps.confirmations.abandon(confirmationId, {
      reason: 'daily-cap',
      message: capMessage(dailyCap ?? 0, begun.remaining),
      creditsSpent: 0,
    });
    const current = await deps.confirmations.get(confirmationId);
    return closed && current ? { kind: 'settled', confirmation: current } : { kind: 'duplicate' };
  }
  const started = begun.confirmation;
  const withCard = started.messageTs || !cardTs ? started : { ...started, messageTs: cardTs };
  const { settlement, results } = await settlementOf(action, withCard, deps);
  const settled = await settleWithRetries(deps, confirmationId, settlement);
  if (!settled) return { kind: 'unsettled' };
  recordCharge(deps.metrics ?? NO_METRICS, action.kind, settlement);
  const taskId = settlement.task?.taskId;
  return {
    kind: 'settled',
    confirmation: settled,
    ...(results ? { results } : {}),
    ...(taskId ? { taskId } : {}),
  };
}

/** Charges by action, credits spent by action, and how confirmed charges ended. */
function recordCharge(metrics: Metrics, action: string, { ledger }: Settlement): void {
  metrics.add('ChargesRun', 1, { name: 'action', value: action });
  metrics.add('CreditsCharged', ledger.credits, { name: 'action', value: action });
  metrics.add('Confirmations', 1, { name: 'outcome', value: ledger.status });
}
