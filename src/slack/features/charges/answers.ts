import type { Answers, AnswerTools } from '../../kit/command-answers.ts';
import { creditsCard } from '../../views/messages.ts';
import type { CHARGE_COMMANDS } from './commands.ts';
import { type SpendDeps, spendAnswer } from './spend-jobs.ts';

/**
 * The charges room's free answers: the balance, and the spend by period. Its paid words have none: the
 * worker asks to confirm their `charge` (a card with the price) and the confirmation runs it.
 */
export function chargeAnswers({ deps, answer }: AnswerTools): Answers<typeof CHARGE_COMMANDS> {
  const spendDeps: SpendDeps = {
    ledger: deps.store.ledger,
    plans: deps.store.plans,
    eis: deps.eis,
    showNames: deps.showNames,
    slack: deps.slack,
    logger: deps.logger,
    now: deps.now,
  };
  return {
    credits: async (_command, context) => answer(context, creditsCard(await deps.eis.credits.balance())),
    spend: async (command, context) => {
      const { dailyCap } = await deps.policyIn(context.channelId);
      return answer(context, await spendAnswer(command, context, { ...spendDeps, dailyCap }));
    },
  };
}
