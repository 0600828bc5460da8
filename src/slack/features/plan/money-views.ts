import {
  CREDIT_PRICE_LIMITS,
  moneyLeft,
  type MoneyCost,
  type PlanMoney,
} from '../../../domain/plan/money.ts';
import { parseQuarter } from '../../../domain/periods.ts';
import type { PlanCreditPrice, PlanCurrency } from '../../../domain/ports/records.ts';
import { formatCredits } from '../../views/format.ts';
import { formatAmount } from './cost-views.ts';

export { formatAmount };

/** The plan's money as the card, the canvas and `plan budget` show it (plain text; the card escapes it). */

const perCredit = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 2,
  maximumFractionDigits: CREDIT_PRICE_LIMITS.decimals,
});

type Price = Pick<PlanCreditPrice, 'tenThousandths' | 'code'>;

/** `0.12 EUR`, `0.0125 EUR`: a price as typed, with its code. */
const formatPrice = (price: Price) => `${perCredit.format(price.tenThousandths / 10_000)} ${price.code}`;

/** `0.12 EUR per credit`. */
export const formatCreditPrice = (price: Price) => `${formatPrice(price)} per credit`;

const SET_PRICE = '`/events plan credit-price <price>` sets it';

/** Why credits have no money figure, or the price that gives them one. */
export function rateWords(rate: PlanMoney['rate'], currency: PlanCurrency | null): string {
  switch (rate.state) {
    case 'set':
      return `Price of a credit: ${formatCreditPrice(rate.price)}.`;
    case 'not-set':
      return `The money cost of credits is not set (${SET_PRICE}): costs in money count the costs beyond credits only where said.`;
    default:
      return `The price of a credit was set in ${rate.price.code}, not in the plan’s ${currency?.code ?? 'currency'}: credits are not priced until it is set again (${SET_PRICE}).`;
  }
}

/** `1,240 EUR (2,000 credits × 0.12 EUR = 240 EUR, plus 1,000 EUR beyond credits)`, or why there is no total. */
export function moneyCostWords(cost: MoneyCost, money: PlanMoney, currency: PlanCurrency | null): string {
  const beyond = `${formatAmount(cost.beyondCredits, currency)} beyond credits`;
  if (cost.creditsSpent === null) return `credits spent could not be read; ${beyond}`;
  const credits = formatCredits(cost.creditsSpent);
  if (cost.total === null || cost.ofCredits === null || money.rate.state !== 'set')
    return `${credits} spent (money cost of credits not set), plus ${beyond}`;
  const price = formatPrice(money.rate.price);
  return `${formatAmount(cost.total, currency)} (${credits} spent × ${price} = ${formatAmount(cost.ofCredits, currency)}, plus ${beyond})`;
}

/** A show's line on the card and the canvas: `Cost: …`. */
export function showMoneyWords(eventId: string, money: PlanMoney | undefined, currency: PlanCurrency | null) {
  const cost = money?.byShow.get(eventId);
  return money && cost ? `Cost: ${moneyCostWords(cost, money, currency)}` : undefined;
}

type MoneyQuarter = PlanMoney['quarters'][number];

/** A money budget against the quarter's cost: what is left or over, or why it cannot be compared. */
function moneyBudgetWords(q: MoneyQuarter, currency: PlanCurrency | null): string {
  const { budget } = q;
  if (!budget) return 'no money budget';
  const amount = `money budget ${formatAmount(budget.hundredths, budget)}`;
  if (budget.code !== currency?.code)
    return `${amount}, set in another currency than the plan’s ${currency?.code ?? 'currency'}: not compared`;
  const left = moneyLeft(budget, q.cost);
  if (left === null) return `${amount}: not compared until credits are priced`;
  return left >= 0
    ? `${amount}, ${formatAmount(left, currency)} left`
    : `${amount}, ${formatAmount(-left, currency)} over the budget`;
}

const labelOf = (key: string) => parseQuarter(key)?.label ?? key;

/** A quarter's cost in money against its money budget. */
export const quarterMoneyWords = (q: MoneyQuarter, money: PlanMoney, currency: PlanCurrency | null) =>
  `${labelOf(q.key)} cost: ${moneyCostWords(q.cost, money, currency)}; ${moneyBudgetWords(q, currency)}.`;

/** The price of a credit, then each quarter's cost against its money budget. */
export function moneyLines(money: PlanMoney | undefined, currency: PlanCurrency | null): string[] {
  if (!money) return [];
  return [
    rateWords(money.rate, currency),
    ...money.quarters.map((q) => quarterMoneyWords(q, money, currency)),
  ];
}
