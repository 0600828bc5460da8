import { ChargeActionSchema, unlockOf } from '../../domain/charging.ts';
import { storedOutcome } from '../../domain/confirmations.ts';
import type { Confirmation } from '../../domain/ports/index.ts';
import { UNKNOWN_OUTCOME } from '../../domain/unknown-outcomes.ts';
import type { SlackMessage } from '../views/types.ts';
import { askAgainValue, chargeOutcomeLines, commandTextOf, describeStoredAction } from './charge-words.ts';
import { confirmationCard } from './confirmation-card.ts';
import { cardPrice, mayHaveSpentWords } from './money-words.ts';

/** The most a charge the service cannot account for may have spent: what it reserved. */
const reservedPrice = (confirmation: Confirmation) => ({
  ...cardPrice(confirmation),
  credits: confirmation.reserved ?? confirmation.price.credits,
});

const hoursOf = (seconds: number) => `${seconds / 3600} hours`;

/** How the reconciler keeps asking about an unknown outcome, in words (its figures from the domain). */
const ASKING = `The bot never tries it again, but asks the service every ${UNKNOWN_OUTCOME.askEverySeconds / 60} minutes, for ${hoursOf(UNKNOWN_OUTCOME.askForSeconds)} after the charge, whether it went through, and updates this card with the answer.`;

/**
 * What to do about a charge whose outcome is unknown. True to the reconciler: it never tries a charge
 * again; it asks the service again about one it can ask about (an unlock), for a day, and says here
 * when the service never showed what happened.
 */
function unknownNextWords(confirmation: Confirmation): string {
  const outcome = storedOutcome(confirmation);
  if (outcome.askUntil) return ASKING;
  const settled = outcome.askedUntil
    ? `Still unknown after ${hoursOf(UNKNOWN_OUTCOME.askForSeconds)} of asking the service: the bot does not ask again, and workspace admins see it under Needs attention on their Home.`
    : 'The bot does not try it again, and nothing checks it later.';
  if (outcome.reason === 'account-gone') return settled;
  const action = ChargeActionSchema.safeParse(confirmation.action);
  const command = action.success ? commandTextOf(action.data) : undefined;
  if (action.success && unlockOf(action.data) && command)
    return `${settled} To find out, run \`/events ${command}\`: if it went through, the bot says so, and what was unlocked is not charged again.`;
  // Every reason's words already say which balance to check.
  return `${settled} Running it again is charged again.`;
}

/**
 * Why a charge did not go through: the words stored with it, or, for a charge the reconciler could not
 * account for, its reason worded with what may have been spent. Undefined when nothing says why.
 */
export function failureWords(confirmation: Confirmation): string | undefined {
  const outcome = storedOutcome(confirmation);
  if (outcome.message) return outcome.message;
  const spent = () => mayHaveSpentWords(reservedPrice(confirmation));
  switch (outcome.reason) {
    case 'worker-died':
      return `The bot was interrupted while charging and the service cannot say whether it went through: ${spent()}. Check the balance with \`/events credits\`.`;
    case 'account-gone':
      return `The bot was interrupted while charging, and the service key it charged with is no longer connected, so the bot cannot ask the service whether the charge went through. On the service account that was connected when this was confirmed, ${spent()}. Check that account's balance and usage with the service.`;
    default:
      return undefined;
  }
}

/**
 * The card of a confirmation as stored: what the worker shows when a charge settles and what the
 * reconciler shows after a crash, so both say the same. A pending one is shown as running (the card
 * is only rebuilt from the store once the confirmation was decided or claimed).
 */
export function storedConfirmationCard(confirmation: Confirmation): SlackMessage {
  const base = {
    description: describeStoredAction(confirmation.action),
    price: cardPrice(confirmation),
    requestedBy: confirmation.requestedBy,
  };
  const confirmedBy = confirmation.confirmedBy ?? confirmation.requestedBy;
  const outcome = storedOutcome(confirmation);
  const action = ChargeActionSchema.safeParse(confirmation.action);
  const again = action.success ? askAgainValue(action.data) : undefined;
  const restart = again ? { restart: again } : {};
  switch (confirmation.status) {
    case 'pending':
    case 'running':
      return confirmationCard({ ...base, state: 'running', confirmedBy });
    case 'succeeded':
      return confirmationCard({
        ...base,
        state: 'succeeded',
        confirmedBy,
        outcome: chargeOutcomeLines(outcome),
        creditsSpent: outcome.creditsSpent ?? confirmation.price.credits,
        balanceAfter: outcome.balanceAfter,
        ...(outcome.resultsPending ? { resultsPending: true } : {}),
      });
    case 'failed':
      if (outcome.outcomeUnknown)
        return confirmationCard({
          ...base,
          price: reservedPrice(confirmation),
          state: 'unknown',
          explanation: [failureWords(confirmation), unknownNextWords(confirmation)].filter(Boolean).join(' '),
          ...(confirmation.confirmedBy ? { confirmedBy: confirmation.confirmedBy } : {}),
        });
      return confirmationCard({
        ...base,
        state: 'failed',
        errorMessage: failureWords(confirmation) ?? 'That did not work. Nothing more will be attempted.',
        ...(outcome.creditsSpent !== undefined ? { creditsSpent: outcome.creditsSpent } : {}),
        ...(confirmation.confirmedBy ? { confirmedBy: confirmation.confirmedBy } : {}),
      });
    case 'cancelled':
      return confirmationCard({
        ...base,
        state: 'cancelled',
        cancelledBy: confirmation.cancelledBy ?? confirmedBy,
        ...restart,
      });
    case 'expired':
      return confirmationCard({ ...base, state: 'expired', ...restart });
  }
}
