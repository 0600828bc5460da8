import { type Period, parseQuarter } from '../periods.ts';
import type { PlanContent, PlanEdit } from '../ports/plans.ts';
import type { PlanCreditPrice, PlanCurrency, PlanMoneyBudget, PlanShow } from '../ports/records.ts';
import type { ShowCostTotals } from './show-costs.ts';
import type { PlanSpend } from './spend.ts';

/**
 * A plan's money: a show's cost is the credits spent on it × the price of a credit, plus its costs
 * beyond credits, in the plan's currency. Every figure is computed when shown, from the stored charges,
 * costs and price: none is stored, so a new price changes every figure shown after it. All money is
 * whole hundredths of the currency (a price: ten-thousandths), never a float.
 */

export const CREDIT_PRICE_LIMITS = {
  /** A price per credit has at most 4 decimals (`0.0125`): finer than a cent, as bulk credit prices are. */
  decimals: 4,
  /** The highest price of one credit: more is a slip (credits cost cents, not thousands). */
  max: 1_000,
} as const;

export type CreditPriceReading =
  | { ok: true; tenThousandths: number }
  | { ok: false; reason: 'not-a-number' | 'negative' | 'decimals' | 'too-large' };

/** A price per credit as typed: digits, a point and at most 4 decimals (`0.12`, `0.0125`); 0 removes it. */
export function readCreditPrice(text: string): CreditPriceReading {
  const word = text.trim();
  if (/^-/.test(word) && readCreditPrice(word.slice(1)).ok) return { ok: false, reason: 'negative' };
  const shape = /^(\d+)(?:\.(\d+))?$/.exec(word);
  if (!shape) return { ok: false, reason: 'not-a-number' };
  const [, whole = '', decimals = ''] = shape;
  if (decimals.length > CREDIT_PRICE_LIMITS.decimals) return { ok: false, reason: 'decimals' };
  const units = Number(whole);
  const tenThousandths = units * 10_000 + Number(decimals.padEnd(CREDIT_PRICE_LIMITS.decimals, '0'));
  if (tenThousandths > CREDIT_PRICE_LIMITS.max * 10_000) return { ok: false, reason: 'too-large' };
  return { ok: true, tenThousandths };
}

/**
 * The one rounding rule: credits × price is exact in ten-thousandths; it is rounded once, to the
 * hundredth, half up, for each figure shown (a show's, a quarter's). A quarter's figure is rounded
 * from its own credits, so it may differ by a cent from the sum of its shows' rounded figures.
 */
export const moneyOfCredits = (credits: number, tenThousandthsPerCredit: number): number =>
  Math.floor((credits * tenThousandthsPerCredit + 50) / 100);

/** The price that prices the plan's credits now: only one set in the plan's currency. */
export type CreditRate =
  | { state: 'set'; price: PlanCreditPrice }
  | { state: 'not-set' }
  | { state: 'other-currency'; price: PlanCreditPrice };

export function creditRateOf(plan: {
  creditPrice?: PlanCreditPrice | undefined;
  currency?: PlanCurrency | null | undefined;
}): CreditRate {
  const { creditPrice } = plan;
  if (!creditPrice) return { state: 'not-set' };
  return creditPrice.code === plan.currency?.code
    ? { state: 'set', price: creditPrice }
    : { state: 'other-currency', price: creditPrice };
}

/**
 * A show's (or a quarter's) cost in money, in hundredths: `ofCredits` and `total` are null while credits
 * are not priced, or the credits spent could not be read (`creditsSpent` null).
 */
export interface MoneyCost {
  creditsSpent: number | null;
  ofCredits: number | null;
  beyondCredits: number;
  total: number | null;
}

export function moneyCost(creditsSpent: number | null, beyondCredits: number, rate: CreditRate): MoneyCost {
  const ofCredits =
    rate.state === 'set' && creditsSpent !== null
      ? moneyOfCredits(creditsSpent, rate.price.tenThousandths)
      : null;
  return {
    creditsSpent,
    ofCredits,
    beyondCredits,
    total: ofCredits === null ? null : ofCredits + beyondCredits,
  };
}

export type PlanMoneyRefusal = { outcome: 'no-currency' } | { outcome: 'other-currency'; planCode: string };

/** Money is in the plan's currency: none set, or another code, is refused and nothing changes. */
function refusedCurrency(current: PlanContent, code: string | undefined): PlanMoneyRefusal | undefined {
  if (!current.currency) return { outcome: 'no-currency' };
  if (code !== undefined && code !== current.currency.code)
    return { outcome: 'other-currency', planCode: current.currency.code };
  return undefined;
}

export type SetCreditPriceResult =
  | { outcome: 'set'; price: PlanCreditPrice; previous?: PlanCreditPrice }
  | { outcome: 'removed' }
  | PlanMoneyRefusal;

/** Sets the price of a credit in the plan's currency (`code`, when typed, must be it); 0 removes it. */
export function setCreditPrice(
  current: PlanContent,
  change: { tenThousandths: number; code?: string | undefined; setBy: string; at: Date },
): PlanEdit<SetCreditPriceResult> {
  const refused = refusedCurrency(current, change.code);
  if (refused || !current.currency) return { result: refused ?? { outcome: 'no-currency' } };
  const { creditPrice: previous, ...rest } = current;
  if (change.tenThousandths === 0) return { next: rest, result: { outcome: 'removed' } };
  const price: PlanCreditPrice = {
    tenThousandths: change.tenThousandths,
    code: current.currency.code,
    setBy: change.setBy,
    setAt: change.at.toISOString(),
  };
  return {
    next: { ...rest, creditPrice: price },
    result: { outcome: 'set', price, ...(previous ? { previous } : {}) },
  };
}

export type SetMoneyBudgetResult =
  | { outcome: 'set'; quarter: Period; budget: PlanMoneyBudget }
  | { outcome: 'removed'; quarter: Period }
  | PlanMoneyRefusal;

/** Sets a quarter's money budget, in the plan's currency only; 0 removes it. The credits budget stays. */
export function setMoneyBudget(
  current: PlanContent,
  change: { quarter: Period; hundredths: number; code: string; setBy: string; at: Date },
): PlanEdit<SetMoneyBudgetResult> {
  const refused = refusedCurrency(current, change.code);
  if (refused) return { result: refused };
  const { quarter } = change;
  const { [quarter.key]: _replaced, ...others } = current.moneyBudgets ?? {};
  const { moneyBudgets: _all, ...rest } = current;
  if (change.hundredths === 0)
    return {
      next: Object.keys(others).length > 0 ? { ...rest, moneyBudgets: others } : rest,
      result: { outcome: 'removed', quarter },
    };
  const budget: PlanMoneyBudget = {
    hundredths: change.hundredths,
    code: change.code,
    setBy: change.setBy,
    setAt: change.at.toISOString(),
  };
  return {
    next: { ...rest, moneyBudgets: { ...others, [quarter.key]: budget } },
    result: { outcome: 'set', quarter, budget },
  };
}

/** A money budget against the quarter's money cost: what is left (below 0: over), or null unpriced. */
export function moneyLeft(budget: PlanMoneyBudget, cost: MoneyCost): number | null {
  return cost.total === null ? null : budget.hundredths - cost.total;
}

/** The plan's money as the card, the canvas and the CSV show it. */
export interface PlanMoney {
  rate: CreditRate;
  /** Each show on the plan, by event id. */
  byShow: Map<string, MoneyCost>;
  /** Each quarter with shows, costs, spend on its shows or a money budget, in order, with its budget. */
  quarters: { key: string; cost: MoneyCost; budget?: PlanMoneyBudget }[];
}

/**
 * The plan's money from what is stored: each show's credits spent (`spentOnShows`, null when the
 * ledger could not be read) and costs beyond credits; each quarter's credits spent on its shows (as
 * its credits budget counts them, `planSpend`) and its costs beyond credits.
 */
export function planMoney(input: {
  plan: Pick<PlanContent, 'creditPrice' | 'currency' | 'moneyBudgets'>;
  shows: readonly Pick<PlanShow, 'eventId'>[];
  costs: ShowCostTotals;
  spentOnShows: ReadonlyMap<string, number> | null;
  spend: PlanSpend | null;
}): PlanMoney {
  const { plan, costs, spentOnShows, spend } = input;
  const rate = creditRateOf(plan);
  const byShow = new Map(
    input.shows.map(({ eventId }) => [
      eventId,
      moneyCost(
        spentOnShows ? (spentOnShows.get(eventId) ?? 0) : null,
        costs.byShow.get(eventId)?.total ?? 0,
        rate,
      ),
    ]),
  );
  const budgets = plan.moneyBudgets ?? {};
  const beyond = new Map(costs.quarters.map(({ quarter, totals }) => [quarter.key, totals.total]));
  const spentKeys = Object.entries(spend?.quarters ?? {}).filter(([, q]) => q.onShows > 0);
  const keys = [...new Set([...beyond.keys(), ...spentKeys.map(([key]) => key), ...Object.keys(budgets)])];
  const from = (key: string) => parseQuarter(key)?.from ?? key;
  const quarters = keys
    .sort((a, b) => from(a).localeCompare(from(b)))
    .map((key) => {
      const budget = budgets[key];
      const credits = spend ? (spend.quarters[key]?.onShows ?? 0) : null;
      return { key, cost: moneyCost(credits, beyond.get(key) ?? 0, rate), ...(budget ? { budget } : {}) };
    });
  return { rate, byShow, quarters };
}
