import { setCreditPrice, setMoneyBudget } from '../../../domain/plan/index.ts';
import type { Period } from '../../../domain/periods.ts';
import type { JobContext } from '../../kit/jobs.ts';
import { mentionUser } from '../../views/format.ts';
import { escapeMrkdwn, mk } from '../../views/mrkdwn.ts';
import type { MoneyBudgetAmount, PlanMoneyCommand } from './money-reading.ts';
import { formatAmount, formatCreditPrice } from './money-views.ts';
import { creditPriceUsage, currencyRefusal, moneyBudgetUsage } from './money-words.ts';
import type { Changed, PlanCommandDeps } from './plan-deps.ts';

/** `plan credit-price …` and a money `plan budget`: the plan's money changed, or the price told. */

export async function changeCreditPrice(
  deps: PlanCommandDeps,
  context: JobContext,
  command: PlanMoneyCommand,
): Promise<Changed> {
  const { teamId, channelId, userId } = context;
  if (command.name === 'plan-credit-price-show') {
    const plan = await deps.plans.get(teamId, channelId);
    const price = plan?.creditPrice;
    const notice = price
      ? mk`A credit costs ${escapeMrkdwn(formatCreditPrice(price))} in this plan (set by ${mentionUser(price.setBy)}).${price.code === plan.currency?.code ? mk`` : mk` The plan’s currency is ${escapeMrkdwn(plan.currency?.code ?? 'not set')} now, so credits are not priced: set the price again.`}`
      : mk`The money cost of credits is not set: the plan shows credits without a price. Set it with \`/events plan credit-price 0.12\`.`;
    return { plan, notice };
  }
  const { result, plan } = await deps.plans.update(teamId, channelId, (current) =>
    setCreditPrice(current, {
      tenThousandths: command.tenThousandths,
      code: command.code,
      setBy: userId,
      at: deps.now(),
    }),
  );
  if (result.outcome === 'no-currency' || result.outcome === 'other-currency')
    return { refusal: currencyRefusal(result, creditPriceUsage()) };
  if (result.outcome === 'removed')
    return {
      plan,
      notice: mk`The price of a credit is removed: the plan shows credits without a price.`,
      wrote: true,
    };
  return {
    plan,
    notice: mk`A credit costs ${escapeMrkdwn(formatCreditPrice(result.price))} now: each show’s cost is its credits spent × this price plus its costs beyond credits. Every money figure of the plan is read with it from now on.`,
    wrote: true,
  };
}

export async function changeMoneyBudget(
  deps: PlanCommandDeps,
  context: JobContext,
  command: { quarter: Period; money: MoneyBudgetAmount },
): Promise<Changed> {
  const { teamId, channelId, userId } = context;
  const { quarter, money } = command;
  const { result, plan } = await deps.plans.update(teamId, channelId, (current) =>
    setMoneyBudget(current, { quarter, ...money, setBy: userId, at: deps.now() }),
  );
  if (result.outcome === 'no-currency' || result.outcome === 'other-currency')
    return { refusal: currencyRefusal(result, moneyBudgetUsage()) };
  const label = escapeMrkdwn(quarter.label);
  if (result.outcome === 'removed')
    return { plan, notice: mk`${label} has no money budget now.`, wrote: true };
  return {
    plan,
    notice: mk`The money budget for ${label} is ${escapeMrkdwn(formatAmount(result.budget.hundredths, result.budget))}, against the cost of its shows: their credits spent × the price of a credit plus their costs beyond credits.`,
    wrote: true,
  };
}
