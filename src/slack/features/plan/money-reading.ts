import { parseQuarter, type Period } from '../../../domain/periods.ts';
import { type CreditPriceReading, CREDIT_PRICE_LIMITS, readCreditPrice } from '../../../domain/plan/money.ts';
import {
  type AmountReading,
  PLAN_COST_MAX,
  readAmount,
  readCurrency,
} from '../../../domain/plan/show-costs.ts';
import { didYouMeanAmount } from '../../kit/amount-words.ts';
import { shown } from '../../kit/command-arguments.ts';
import type { CommandArgs, Fail, Parsed, Refusal } from '../../kit/command-types.ts';
import { creditPriceUsage, moneyBudgetUsage } from './money-words.ts';

/** `plan credit-price [<price> [<code>]]` and `plan budget <amount> <code> <quarter>` read. */

export type PlanMoneyCommand =
  { name: 'plan-credit-price'; tenThousandths: number; code?: string } | { name: 'plan-credit-price-show' };

export interface MoneyBudgetAmount {
  hundredths: number;
  code: string;
}

const PRICE_PROBLEMS: Record<Extract<CreditPriceReading, { ok: false }>['reason'], string> = {
  'not-a-number': 'is not a price',
  negative: 'is below 0; a price is 0 or more',
  decimals: `has more than ${CREDIT_PRICE_LIMITS.decimals} decimals`,
  'too-large': `is more than ${CREDIT_PRICE_LIMITS.max.toLocaleString('en-US')} per credit`,
};

const AMOUNT_PROBLEMS: Record<Extract<AmountReading, { ok: false }>['reason'], string> = {
  'not-a-number': 'is not an amount',
  negative: 'is below 0; a budget is 0 or more',
  decimals: 'has more than 2 decimals',
  'too-large': `is more than ${PLAN_COST_MAX.toLocaleString('en-US')}`,
};

export function parseCreditPrice({ words, fail }: CommandArgs): Parsed<PlanMoneyCommand> {
  const [priceWord, codeWord, ...extra] = words;
  if (priceWord === undefined) return { ok: true, command: { name: 'plan-credit-price-show' } };
  if (extra.length > 0) return fail(`${shown(extra.join(' '))} is extra. ${creditPriceUsage()}`);
  const price = readCreditPrice(priceWord);
  if (!price.ok) return fail(`${shown(priceWord)} ${PRICE_PROBLEMS[price.reason]}. ${creditPriceUsage()}`);
  if (codeWord === undefined)
    return { ok: true, command: { name: 'plan-credit-price', tenThousandths: price.tenThousandths } };
  const code = readCurrency(codeWord);
  if (!code) return fail(`${shown(codeWord)} is not a currency code. ${creditPriceUsage()}`);
  return { ok: true, command: { name: 'plan-credit-price', tenThousandths: price.tenThousandths, code } };
}

/**
 * `plan budget 50000 EUR Q2-2027`: a money budget, when the word after the amount is a currency code
 * (three letters; a quarter there is a credits budget, read by the caller). Undefined: not money.
 */
export function readMoneyBudget(
  words: readonly string[],
  fail: Fail,
): { money: MoneyBudgetAmount; quarter: Period } | Refusal | undefined {
  const [amountWord = '', codeWord = '', quarterWord = '', ...extra] = words;
  if (parseQuarter(codeWord) || !/^[A-Za-z]{3}$/.test(codeWord)) return undefined;
  const code = readCurrency(codeWord);
  if (!code) return fail(`${shown(codeWord)} is not a currency code. ${moneyBudgetUsage()}`);
  const amount = readAmount(amountWord);
  if (!amount.ok)
    return fail(
      `${shown(amountWord)} ${AMOUNT_PROBLEMS[amount.reason]}.${didYouMeanAmount(amountWord, { whole: false })} ${moneyBudgetUsage()}`,
    );
  const quarter = parseQuarter(quarterWord);
  if (!quarter)
    return fail(
      quarterWord
        ? `${shown(quarterWord)} is not a quarter; quarters look like \`Q2-2027\`.`
        : `Say which quarter the budget is for. ${moneyBudgetUsage()}`,
    );
  if (extra.length > 0) return fail(`${shown(extra.join(' '))} is extra. ${moneyBudgetUsage()}`);
  return { money: { hundredths: amount.hundredths, code }, quarter };
}
