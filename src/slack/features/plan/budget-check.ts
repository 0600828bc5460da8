import type { ChargeBooked } from '../../../domain/charge-booked.ts';
import { type BudgetWarningDeps, warnIfPastBudget } from '../../../domain/plan/index.ts';
import type { SlackMessage } from '../../views/types.ts';
import { budgetWarningMessage } from './views.ts';

/**
 * After any charge is booked (see `bookingCharges`): the channel of the charge hears once per budget
 * when the spend on its plan's shows of a quarter reached the warning share (80%) of that quarter's
 * budget. Posted in the channel, for everyone (not in the card's thread nor to a response URL).
 */
export function planBudgetCheck(
  deps: Omit<BudgetWarningDeps, 'post'> & {
    postInChannel: (
      charge: { teamId: string; channelId: string; userId: string },
      message: SlackMessage,
    ) => Promise<unknown>;
  },
): ChargeBooked {
  return async (confirmation) => {
    const { teamId, channelId } = confirmation;
    const userId = confirmation.confirmedBy ?? confirmation.requestedBy;
    await warnIfPastBudget(
      {
        ...deps,
        post: async (warning) => {
          await deps.postInChannel(
            { teamId, channelId, userId },
            budgetWarningMessage({
              quarterLabel: warning.quarter.label,
              quarterKey: warning.quarter.key,
              budget: warning.budget.credits,
              spent: warning.spent,
            }),
          );
        },
      },
      { teamId, channelId },
    );
  };
}
