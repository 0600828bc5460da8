import { CREDIT_PRICE_LIMITS } from '../../../domain/plan/money.ts';
import { PLAN_COST_MAX } from '../../../domain/plan/show-costs.ts';

/** How `plan credit-price` and a money budget are written, as their refusals say it. */

export const creditPriceUsage = () =>
  `Give the price of one credit in the plan's currency: \`plan credit-price 0.12\` (or \`plan credit-price 0.12 EUR\`, the plan's currency only). At most ${CREDIT_PRICE_LIMITS.decimals} decimals, up to ${CREDIT_PRICE_LIMITS.max.toLocaleString('en-US')}; 0 removes it. \`plan credit-price\` alone says it.`;

export const moneyBudgetUsage = () =>
  `A quarter's budget in credits: \`plan budget 20000 Q2-2027\`; in money, in the plan's currency: \`plan budget 50000 EUR Q2-2027\` (up to ${PLAN_COST_MAX.toLocaleString('en-US')}, at most 2 decimals). 0 removes that budget.`;

/** Money needs the plan's currency: none set, or another one typed. */
export function currencyRefusal(refusal: { outcome: 'no-currency' } | { planCode: string }, usage: string) {
  return 'planCode' in refusal
    ? `This plan's money is in ${refusal.planCode}: amounts in another currency are refused (nothing is converted), so nothing changed. ${usage}`
    : `This plan has no currency yet, so nothing changed: set it first with \`/events plan currency EUR\`. ${usage}`;
}
