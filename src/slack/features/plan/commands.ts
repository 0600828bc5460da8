import type { Audience } from '../../../domain/audience.ts';
import { type Period, parseQuarter } from '../../../domain/periods.ts';
import { isValidPlanBudget, PLAN_LIMITS } from '../../../domain/plan/rules.ts';
import { didYouMeanAmount } from '../../kit/amount-words.ts';
import { bareWord, oneEventId, subWords, shown } from '../../kit/command-arguments.ts';
import type { CommandArgs, Parsed } from '../../kit/command-types.ts';
import { parseCost, parseCurrency, type PlanCostCommand } from './cost-reading.ts';
import {
  type MoneyBudgetAmount,
  parseCreditPrice,
  type PlanMoneyCommand,
  readMoneyBudget,
} from './money-reading.ts';
import { moneyBudgetUsage } from './money-words.ts';

/**
 * The plan room's `/events` word: `plan`, `plan add <id>`, `plan remove <id>`, `plan budget [<credits> <quarter>]`,
 * `plan cost <id> <amount> <kind>`, `plan currency [<code>]`, `plan credit-price [<price>]`, `plan export`.
 */

export type PlanCommand =
  | { name: 'plan-show' | 'plan-budgets' | 'plan-export' }
  | PlanCostCommand
  | PlanMoneyCommand
  | { name: 'plan-add' | 'plan-remove'; eventId: string }
  /** A quarter's budget: in credits, or in money (`money`, in the plan's currency). */
  | ({ name: 'plan-budget'; quarter: Period } & ({ credits: number } | { money: MoneyBudgetAmount }));

const budgetUsage = () =>
  `Give the credits, then the quarter: \`plan budget 20000 Q2-2027\` (0 removes that quarter's budget; at most ${PLAN_LIMITS.budgetCredits.toLocaleString('en-US')}). ${moneyBudgetUsage()}`;

function parseBudget({ words, fail }: CommandArgs): Parsed<PlanCommand> {
  if (words.length === 0) return { ok: true, command: { name: 'plan-budgets' } };
  const money = readMoneyBudget(words, fail);
  if (money) return 'ok' in money ? money : { ok: true, command: { name: 'plan-budget', ...money } };
  const [amount = '', quarterWord = '', ...extra] = words;
  const credits = Number(amount.replace(/,/g, ''));
  if (!/^[\d,]+$/.test(amount) || !isValidPlanBudget(credits))
    return fail(
      `${shown(amount)} is not a number of credits.${didYouMeanAmount(amount, { whole: true })} ${budgetUsage()}`,
    );
  const quarter = parseQuarter(quarterWord);
  if (!quarter)
    return fail(
      quarterWord
        ? `${shown(quarterWord)} is not a quarter; quarters look like \`Q2-2027\`.`
        : `Say which quarter the budget is for. ${budgetUsage()}`,
    );
  if (extra.length > 0) return fail(`${shown(extra.join(' '))} is extra. ${budgetUsage()}`);
  return { ok: true, command: { name: 'plan-budget', credits, quarter } };
}

const readPlan = subWords('plan', {
  add: oneEventId('plan-add'),
  remove: oneEventId('plan-remove'),
  budget: parseBudget,
  cost: parseCost,
  currency: parseCurrency,
  'credit-price': parseCreditPrice,
  export: bareWord('plan-export', 'plan export'),
});

export const PLAN_COMMANDS = {
  plan: {
    usage:
      'plan | plan add <event id> | plan remove <event id> | plan budget [<credits> <quarter>] | ' +
      'plan cost <event id> <amount> <kind> | plan currency [<code>] | plan credit-price [<price>] | plan export',
    example: 'plan add 26855',
    summary: "The channel's plan: the shows it is considering, their fit and what unlocking them would cost",
    details:
      `Up to ${PLAN_LIMITS.shows} shows per channel, listed by date with their fit, the watched accounts at each ` +
      'and the price of unlocking each against the quarter’s budget and the balance. ' +
      '`plan budget 20000 Q2-2027` sets a quarter’s budget (`plan budget` alone lists them): it counts what the ' +
      'channel spends on the plan’s shows of that quarter, whenever it is spent, and the channel is warned once when ' +
      'that reaches 80% of it. ' +
      '`plan cost 26855 12000 booth` sets a show’s cost beyond credits (kinds: booth, sponsorship, travel, other; ' +
      'several at once: `plan cost 26855 12000 booth 3000 travel`; 0 removes one), shown per show and per quarter; ' +
      '`plan currency EUR` sets the one currency of the plan’s costs (none until set: amounts are shown without one). ' +
      '`plan credit-price 0.12` sets the price of a credit in that currency (approvers; at most 4 decimals), so each ' +
      'show’s cost is its credits spent × the price plus its costs beyond credits; `plan budget 50000 EUR Q2-2027` ' +
      'sets a quarter’s money budget beside its credits budget. ' +
      '`plan export` sends the plan with its credits and costs as a CSV to your direct messages. ' +
      'The bot keeps the plan in a canvas of the channel. Free.',
    // Guests read the channel's plan (its canvas is in the channel); members change it; budgets are the
    // approvers' (as the watch's).
    audience: {
      'plan-show': 'guests',
      'plan-budgets': 'guests',
      'plan-currency-show': 'guests',
      'plan-credit-price-show': 'guests',
      'plan-add': 'members',
      'plan-remove': 'members',
      'plan-cost': 'members',
      'plan-currency': 'members',
      'plan-export': 'members',
      'plan-budget': 'approvers',
      // The price of a credit sets every money figure of the plan: the budgets' people set it.
      'plan-credit-price': 'approvers',
    } satisfies Record<PlanCommand['name'], Audience>,
    parse: (args: CommandArgs): Parsed<PlanCommand> =>
      args.words.length === 0 ? bareWord('plan-show', 'plan')(args) : readPlan(args),
  },
};
