import type { EisClient } from '../eis/index.ts';
import { type Logger, withCorrelationId } from '../platform/log.ts';
import {
  type ChargeRepository,
  type Confirmation,
  type ConfirmationRepository,
  RECONCILE_AFTER_SECONDS,
  type Settlement,
  type Unlock,
} from './ports/index.ts';
import { type ChargeAction, ChargeActionSchema, PRECHECK_ACTION, unlockOf } from './charging.ts';
import { precheckParams } from './charge-quote.ts';
import { storedOutcome } from './confirmations.ts';
import { askedRecently, askUntilOf, nextAskAt } from './unknown-outcomes.ts';

export interface ReconcileDeps {
  confirmations: Pick<
    ConfirmationRepository,
    'due' | 'get' | 'expire' | 'abandon' | 'cardShown' | 'askAgain'
  >;
  /** `unlockedBy`: whose charge an "already unlocked" answer is, when two confirmations asked for the same unlock. */
  charges: Pick<ChargeRepository, 'settle' | 'resolve' | 'unlockedBy'>;
  /**
   * The service as the workspace's connected key reaches it, with that key's account: a charge is
   * asked about only with the key of the account it was made on. Null when no key is connected.
   */
  service: { accountId: string; eis: Pick<EisClient, 'actions'> } | null;
  /** Shows the confirmation's stored state on its card; throws when Slack should be tried again later. */
  showCard: (confirmation: Confirmation) => Promise<void>;
  logger: Logger;
  now: () => Date;
  /** At most this many confirmations per run. */
  limit?: number;
  /** What is left of the reconciler's share of the run (`RECONCILE_SHARE_MS`); unlimited when absent. */
  remainingMs?: () => number;
}

/**
 * The reconciler's share of a poll-tasks run: it starts no confirmation past it, and the run's polling
 * starts then at the latest, however slow the service is (what is left waits for the next minute).
 */
export const RECONCILE_SHARE_MS = 15_000;

export interface ReconcileReport {
  expired: number;
  abandoned: number;
  settled: number;
  /** Charges of unknown outcome the service has since shown as charged or not. */
  resolved: number;
  cardsShown: number;
  failures: number;
  /** The share ran out with confirmations left: the next run takes them. */
  outOfTime: boolean;
}

const NEVER_STARTED =
  'The charge never started (the bot was interrupted after the click). Nothing was charged; run the command again.';

/**
 * Finds what the service says about a charge whose worker died after calling it (or before): charged,
 * not charged, or unknown. Only the action precheck can tell, and only for unlocks: an event that is
 * now unlocked was charged; one that still costs its full price was not. Searches and LinkedIn
 * analysis (charged each time they run) cannot be told.
 */
async function askTheService(
  action: ChargeAction,
  reserved: number,
  eis: Pick<EisClient, 'actions'>,
): Promise<'charged' | 'not-charged' | 'unknown'> {
  const actionType = PRECHECK_ACTION[action.kind];
  if (actionType === null || !unlockOf(action)) return 'unknown';
  try {
    const precheck = await eis.actions.precheck({ actionType, params: precheckParams(action) });
    if (precheck.reason_code === 'already_unlocked' || precheck.reason_code === 'unlock_in_progress')
      return 'charged';
    if (precheck.reason_code === 'ok' && precheck.should_charge && precheck.credits >= reserved)
      return 'not-charged';
    return 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * Whether another confirmation, of any workspace on the same service account, is recorded as having
 * paid for this unlock: then "already unlocked" is that one's doing, and this one, whose worker died
 * before its call (or after, answered free), spent nothing: the service charges an unlock once per
 * account. Known limit: when the workers of both died after their calls, the first one reconciled is
 * booked and the other not. The account's total is right, but the workspace booked may be the one
 * whose call came second: the service cannot say whose call charged.
 */
async function chargedByAnother(
  confirmation: Confirmation,
  accountId: string,
  unlock: Unlock,
  deps: ReconcileDeps,
): Promise<boolean> {
  const payer = await deps.charges.unlockedBy(accountId, unlock);
  return payer !== null && payer !== confirmation.id;
}

/**
 * What the reconciler can learn of a charge: from the service when the key it was made with is still
 * connected; else nothing ("account-gone"): another account's key would answer for another account.
 * "paid-by-another": unlocked, by another confirmation's charge on the account, not this one's.
 */
type Verdict = 'charged' | 'not-charged' | 'paid-by-another' | 'unknown' | 'account-gone';

const PAID_BY_ANOTHER =
  'The bot was interrupted and nothing was charged for this: another request on the same service account had already unlocked it (the service charges an unlock once). It stays unlocked for this account; there is nothing to pay.';

/** What the reconciler knows of the charge it settles: the unlock it buys, what it reserved, and more. */
interface Settling {
  unlock: Unlock | null;
  reserved: number;
  /** Until when the service is asked again about an unknown outcome (absent when it cannot be). */
  askUntil?: string | undefined;
  /** Decided after an unknown outcome (the service's answer to the charge was lost). */
  later?: boolean;
}

const CHARGED_LATER =
  'The service shows this went through: its answer to the charge had been lost, so the card first said the outcome was unknown.';
const NOT_CHARGED_LATER =
  'The service shows no charge for this: its answer had been lost, so the card first said the outcome was unknown. Nothing was charged; run the command again.';

/** The settlement of a verdict; a charged unlock names this confirmation as its payer (unless one is). */
function reconciledSettlement(verdict: Verdict, { unlock, reserved, askUntil, later }: Settling): Settlement {
  const decided = later ? { decidedLater: true } : {};
  switch (verdict) {
    case 'charged': {
      const summary = unlock?.personnelIds
        ? `${later ? CHARGED_LATER : 'The service confirms the unlock, but the bot was interrupted before it could follow the results.'} Run the command again to see the results (contacts already unlocked are free).`
        : later
          ? CHARGED_LATER
          : 'The service confirms the unlock (the bot was interrupted before it could say so).';
      return {
        status: 'succeeded',
        outcome: {
          reason: 'reconciled',
          summary: [summary],
          creditsSpent: reserved,
          balanceAfter: null,
          ...decided,
        },
        ledger: { status: 'charged', credits: reserved },
        ...(unlock ? { unlocked: unlock } : {}),
      };
    }
    case 'not-charged':
      return {
        status: 'failed',
        outcome: {
          reason: 'reconciled',
          message: later
            ? NOT_CHARGED_LATER
            : 'The bot was interrupted and the service shows no charge: nothing was charged. Run the command again.',
          creditsSpent: 0,
          ...decided,
        },
        ledger: { status: 'refused', credits: 0 },
      };
    case 'paid-by-another':
      return {
        status: 'failed',
        outcome: { reason: 'reconciled', message: PAID_BY_ANOTHER, creditsSpent: 0, ...decided },
        ledger: { status: 'refused', credits: 0 },
      };
    case 'unknown':
      return {
        status: 'failed',
        outcome: {
          // Slack words it from the reason and the confirmation's price (failureWords).
          reason: 'worker-died',
          outcomeUnknown: true,
          ...(askUntil ? { askUntil } : {}),
        },
        ledger: { status: 'unknown', credits: reserved, ...(askUntil ? { askUntil } : {}) },
      };
    case 'account-gone':
      return {
        status: 'failed',
        outcome: {
          reason: 'account-gone',
          outcomeUnknown: true,
        },
        ledger: { status: 'unknown', credits: reserved },
      };
  }
}

/** Asks the service about the charge, only with the key of the account the charge was made on. */
async function verdictOf(
  confirmation: Confirmation,
  action: ChargeAction | undefined,
  reserved: number,
  deps: ReconcileDeps,
): Promise<Verdict> {
  const { service } = deps;
  if (!service || !confirmation.chargeAccount || confirmation.chargeAccount !== service.accountId)
    return 'account-gone';
  if (!action) return 'unknown';
  const asked = await askTheService(action, reserved, service.eis);
  const unlock = unlockOf(action);
  if (asked !== 'charged' || !unlock) return asked;
  return (await chargedByAnother(confirmation, service.accountId, unlock, deps))
    ? 'paid-by-another'
    : 'charged';
}

/** A run that found nothing to settle. */
export function emptyReport(): ReconcileReport {
  return { expired: 0, abandoned: 0, settled: 0, resolved: 0, cardsShown: 0, failures: 0, outOfTime: false };
}

/**
 * Every minute (with the unlock poll): settles what a crash left behind, so no confirmation stays
 * undecided and no card keeps live buttons or "Charging…". Expired pending confirmations are closed
 * and their cards updated; claims whose charge never started are closed (nothing charged); charges
 * started longer ago than the worker can run are settled from what the service says (else "outcome
 * unknown", counted in the ledger at the quoted price); decided ones get their final card.
 */
export async function reconcileConfirmations(deps: ReconcileDeps): Promise<ReconcileReport> {
  const report = emptyReport();
  let due: Confirmation[];
  try {
    due = await deps.confirmations.due({ now: deps.now(), limit: deps.limit ?? 25 });
  } catch (error) {
    // The unlock poll that runs after this must not be stopped by it.
    deps.logger.error('could not read the confirmations to reconcile', { error });
    return { ...report, failures: 1 };
  }
  for (const found of due) {
    if ((deps.remainingMs?.() ?? 1) <= 0) {
      report.outOfTime = true;
      break;
    }
    // Every line about this confirmation (the service's included) carries its id, as the worker's do.
    await withCorrelationId(found.id, async () => {
      try {
        const decided = await decide(found, deps, report);
        if (!decided || decided.status === 'pending' || decided.status === 'running') return;
        await deps.showCard(decided);
        // One still asked about stays in the reconciler's index (its next ask is due there).
        if (!stillAsking(decided)) await deps.confirmations.cardShown(decided.id, decided.status);
        report.cardsShown++;
      } catch (error) {
        report.failures++;
        deps.logger.error('could not reconcile a confirmation', { confirmationId: found.id, error });
      }
    });
  }
  if (due.length > 0) deps.logger.info('reconciled confirmations', { ...report });
  return report;
}

/** Moves one due confirmation to a final state where it can; returns it as it now stands. */
async function decide(
  confirmation: Confirmation,
  deps: ReconcileDeps,
  report: ReconcileReport,
): Promise<Confirmation | null> {
  const now = deps.now().getTime();
  const since = (iso: string | undefined) => (iso ? (now - Date.parse(iso)) / 1000 : 0);
  if (confirmation.status === 'pending') {
    const expired = await deps.confirmations.expire(confirmation.id);
    if (expired) report.expired++;
    return expired;
  }
  if (stillAsking(confirmation)) return askAgain(confirmation, deps, report);
  if (confirmation.status !== 'running') return confirmation;
  if (!confirmation.chargeStartedAt) {
    if (since(confirmation.claimedAt) < RECONCILE_AFTER_SECONDS.claimed) return null;
    const closed = await deps.confirmations.abandon(confirmation.id, {
      reason: 'never-started',
      message: NEVER_STARTED,
      creditsSpent: 0,
    });
    if (closed) report.abandoned++;
    return deps.confirmations.get(confirmation.id);
  }
  if (since(confirmation.chargeStartedAt) < RECONCILE_AFTER_SECONDS.charging) return null;
  const reserved = confirmation.reserved ?? confirmation.price.credits;
  const action = ChargeActionSchema.safeParse(confirmation.action).data;
  const unlock = action ? unlockOf(action) : null;
  const verdict = await verdictOf(confirmation, action, reserved, deps);
  const askUntil = askUntilOf(action, confirmation.chargeStartedAt);
  const settlement = reconciledSettlement(verdict, { unlock, reserved, askUntil });
  const settled = await deps.charges.settle(confirmation.id, settlement);
  report.settled++;
  return settled;
}

/** Whether the reconciler still asks the service about this confirmation's unknown outcome. */
export function stillAsking(confirmation: Confirmation): boolean {
  return confirmation.status === 'failed' && storedOutcome(confirmation).askUntil !== undefined;
}

/**
 * A charge settled with an unknown outcome, asked about again: booked as charged or not once the
 * service shows which; else due again later, until its `askUntil`, when it is booked as still
 * unknown (and listed for the admins on Home). Returns the confirmation whose card is to be shown:
 * after a decision, and the first time it is asked about (its card may never have been shown).
 */
async function askAgain(
  confirmation: Confirmation,
  deps: ReconcileDeps,
  report: ReconcileReport,
): Promise<Confirmation | null> {
  const now = deps.now();
  const outcome = storedOutcome(confirmation);
  const askUntil = outcome.askUntil ?? now.toISOString();
  if (askedRecently(confirmation, now)) return null;
  const reserved = confirmation.reserved ?? confirmation.price.credits;
  const action = ChargeActionSchema.safeParse(confirmation.action).data;
  const unlock = action ? unlockOf(action) : null;
  const open = now.getTime() < Date.parse(askUntil);
  const verdict = open ? await verdictOf(confirmation, action, reserved, deps) : 'unknown';
  if (verdict === 'unknown' || verdict === 'account-gone') {
    if (open) {
      await deps.confirmations.askAgain(confirmation.id, { askedAt: now, dueAt: nextAskAt(now, askUntil) });
      return confirmation.askedAt ? null : confirmation;
    }
    const stored = confirmation.outcome;
    const fields = stored && typeof stored === 'object' && !Array.isArray(stored) ? stored : {};
    const stillUnknown: Settlement = {
      status: 'failed',
      outcome: {
        ...Object.fromEntries(Object.entries(fields).filter(([key]) => key !== 'askUntil')),
        askedUntil: askUntil,
      },
      ledger: { status: 'unknown', credits: reserved },
    };
    return deps.charges.resolve(confirmation.id, stillUnknown);
  }
  const resolved = await deps.charges.resolve(
    confirmation.id,
    reconciledSettlement(verdict, { unlock, reserved, later: true }),
  );
  report.resolved++;
  return resolved;
}
