import {
  type AmountReading,
  PLAN_COST_MAX,
  readAmount,
  readCostKind,
  readCurrency,
} from '../../../domain/plan/show-costs.ts';
import type { CostKind } from '../../../domain/ports/records.ts';
import { didYouMeanAmount } from '../../kit/amount-words.ts';
import { eventIdOf, shown } from '../../kit/command-arguments.ts';
import type { CommandArgs, Parsed } from '../../kit/command-types.ts';
import { costUsage, currencyUsage } from './cost-words.ts';

/** `plan cost <event id> <amount> <kind> …` and `plan currency [<code>]` read: a plan's costs as typed. */

export type PlanCostCommand =
  | { name: 'plan-cost'; eventId: string; amounts: Partial<Record<CostKind, number>> }
  | { name: 'plan-currency'; code: string }
  | { name: 'plan-currency-show' };

const AMOUNT_PROBLEMS: Record<Extract<AmountReading, { ok: false }>['reason'], string> = {
  'not-a-number': 'is not an amount',
  negative: 'is below 0; a cost is 0 or more',
  decimals: 'has more than 2 decimals',
  'too-large': `is more than ${PLAN_COST_MAX.toLocaleString('en-US')}`,
};

/** Amount and kind pairs, each kind once; the first wrong word refuses the whole command. */
function readPairs(words: readonly string[], fail: CommandArgs['fail']) {
  const amounts: Partial<Record<CostKind, number>> = {};
  if (words.length === 0) return fail(`Say the amount and its kind. ${costUsage()}`);
  for (let at = 0; at < words.length; at += 2) {
    const [amountWord = '', kindWord] = words.slice(at, at + 2);
    const amount = readAmount(amountWord);
    if (!amount.ok)
      return fail(
        `${shown(amountWord)} ${AMOUNT_PROBLEMS[amount.reason]}.${didYouMeanAmount(amountWord, { whole: false })} ${costUsage()}`,
      );
    if (kindWord === undefined) return fail(`Say what ${shown(amountWord)} is for. ${costUsage()}`);
    const kind = readCostKind(kindWord);
    if (!kind) return fail(`${shown(kindWord)} is not a kind of cost. ${costUsage()}`);
    if (amounts[kind] !== undefined) return fail(`${shown(kind)} is given twice. ${costUsage()}`);
    amounts[kind] = amount.hundredths;
  }
  return amounts;
}

export function parseCost({ words, fail }: CommandArgs): Parsed<PlanCostCommand> {
  if (words.length === 0) return fail(`Say which show. ${costUsage()}`);
  const eventId = eventIdOf(words, fail);
  if (typeof eventId !== 'string') return eventId;
  const amounts = readPairs(words.slice(1), fail);
  if ('ok' in amounts) return amounts;
  return { ok: true, command: { name: 'plan-cost', eventId, amounts } };
}

export function parseCurrency({ words, fail }: CommandArgs): Parsed<PlanCostCommand> {
  const [word, ...extra] = words;
  if (word === undefined) return { ok: true, command: { name: 'plan-currency-show' } };
  if (extra.length > 0) return fail(`${shown(extra.join(' '))} is extra. ${currencyUsage()}`);
  const code = readCurrency(word);
  if (!code) return fail(`${shown(word)} is not a currency code. ${currencyUsage()}`);
  return { ok: true, command: { name: 'plan-currency', code } };
}
