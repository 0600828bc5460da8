import { describe, expect, it } from 'vitest';
import { parseQuarter } from '../../../src/domain/periods.ts';
import {
  CREDIT_PRICE_LIMITS,
  creditRateOf,
  moneyCost,
  moneyOfCredits,
  planMoney,
  readCreditPrice,
  setCreditPrice,
  setMoneyBudget,
  showCostTotals,
  spentByShow,
} from '../../../src/domain/plan/index.ts';
import type { PlanContent } from '../../../src/domain/ports/index.ts';
import type { LedgerEntry, PlanShow } from '../../../src/domain/ports/records.ts';

const AT = new Date('2026-11-02T00:00:00.000Z');
const EUR = { code: 'EUR', setBy: 'U0ALICE', setAt: AT.toISOString() };
const show = (eventId: string, dateStart: string): PlanShow => ({
  eventId,
  name: `Show ${eventId}`,
  dateStart,
  dateEnd: dateStart,
  city: null,
  addedBy: 'U0ALICE',
  addedAt: AT.toISOString(),
});
const plan = (more: Partial<PlanContent> = {}): PlanContent => ({ shows: [], budgets: {}, ...more });
const quarter = (key: string) => {
  const period = parseQuarter(key);
  if (!period) throw new Error(key);
  return period;
};
const entry = (eventId: string, credits: number, status: LedgerEntry['status'] = 'charged') =>
  ({ channelId: 'C1', eventId, credits, status, at: AT.toISOString() }) as LedgerEntry;

describe('the price of a credit as typed', () => {
  it('reads up to the allowed decimals into ten-thousandths, exactly', () => {
    expect(readCreditPrice('0.12')).toEqual({ ok: true, tenThousandths: 1200 });
    expect(readCreditPrice('0.0125')).toEqual({ ok: true, tenThousandths: 125 });
    expect(readCreditPrice('0')).toEqual({ ok: true, tenThousandths: 0 });
    expect(readCreditPrice(String(CREDIT_PRICE_LIMITS.max))).toMatchObject({ ok: true });
  });

  it('refuses a negative, malformed, too fine or too large price', () => {
    expect(readCreditPrice('-0.12')).toEqual({ ok: false, reason: 'negative' });
    expect(readCreditPrice('0.12.1')).toEqual({ ok: false, reason: 'not-a-number' });
    expect(readCreditPrice('€0.12')).toEqual({ ok: false, reason: 'not-a-number' });
    expect(readCreditPrice(`0.${'1'.repeat(CREDIT_PRICE_LIMITS.decimals + 1)}`)).toEqual({
      ok: false,
      reason: 'decimals',
    });
    expect(readCreditPrice(`${CREDIT_PRICE_LIMITS.max}.0001`)).toEqual({ ok: false, reason: 'too-large' });
  });
});

describe('money of credits', () => {
  it('is credits × price, rounded once to the cent, half up', () => {
    expect(moneyOfCredits(2000, 1200)).toBe(24_000); // 2,000 × 0.12 = 240.00
    expect(moneyOfCredits(1, 50)).toBe(1); // 0.005 rounds up to 0.01
    expect(moneyOfCredits(1, 49)).toBe(0); // 0.0049 rounds down
    expect(moneyOfCredits(3, 125)).toBe(4); // 0.0375 → 0.04
    expect(moneyOfCredits(0, 1200)).toBe(0);
  });

  it('adds the costs beyond credits; without a price (or one in another currency) gives no total', () => {
    const price = { tenThousandths: 1200, code: 'EUR', setBy: 'U0BOSS', setAt: AT.toISOString() };
    const set = creditRateOf({ creditPrice: price, currency: EUR });
    expect(moneyCost(2000, 100_000, set)).toEqual({
      creditsSpent: 2000,
      ofCredits: 24_000,
      beyondCredits: 100_000,
      total: 124_000,
    });
    const other = creditRateOf({ creditPrice: { ...price, code: 'USD' }, currency: EUR });
    expect(other.state).toBe('other-currency');
    expect(moneyCost(2000, 100_000, other).total).toBeNull();
    expect(moneyCost(2000, 100_000, creditRateOf({ currency: EUR })).total).toBeNull();
    expect(moneyCost(null, 100_000, set).total).toBeNull();
  });
});

describe('setting the price and money budgets', () => {
  it('sets the price in the plan’s currency, refuses another or none, and 0 removes it', () => {
    const change = { tenThousandths: 1200, setBy: 'U0BOSS', at: AT };
    expect(setCreditPrice(plan(), change)).toEqual({ result: { outcome: 'no-currency' } });
    expect(setCreditPrice(plan({ currency: EUR }), { ...change, code: 'USD' })).toEqual({
      result: { outcome: 'other-currency', planCode: 'EUR' },
    });
    const set = setCreditPrice(plan({ currency: EUR }), { ...change, code: 'EUR' });
    expect(set.next?.creditPrice).toEqual({
      tenThousandths: 1200,
      code: 'EUR',
      setBy: 'U0BOSS',
      setAt: AT.toISOString(),
    });
    const removed = setCreditPrice(set.next ?? plan(), { ...change, tenThousandths: 0 });
    expect(removed.result).toEqual({ outcome: 'removed' });
    expect(removed.next?.creditPrice).toBeUndefined();
  });

  it('keeps a money budget beside the credits budget; another currency is refused and changes nothing', () => {
    const q = quarter('Q2-2027');
    const credits = { Q2: { credits: 20_000, setBy: 'U0BOSS', setAt: AT.toISOString() } };
    const current = plan({ currency: EUR, budgets: { [q.key]: credits.Q2 } });
    const change = { quarter: q, hundredths: 5_000_000, code: 'EUR', setBy: 'U0BOSS', at: AT };

    const set = setMoneyBudget(current, change);

    expect(set.next?.budgets).toEqual(current.budgets);
    expect(set.next?.moneyBudgets?.[q.key]).toMatchObject({ hundredths: 5_000_000, code: 'EUR' });
    expect(setMoneyBudget(current, { ...change, code: 'USD' })).toEqual({
      result: { outcome: 'other-currency', planCode: 'EUR' },
    });
    const removed = setMoneyBudget(set.next ?? current, { ...change, hundredths: 0 });
    expect(removed.next?.moneyBudgets).toBeUndefined();
  });
});

describe('the plan’s money', () => {
  it('gives each show and quarter its cost from the stored charges, costs and price', () => {
    const a = show('1', '2027-04-10');
    const b = show('2', '2027-05-10');
    const costs = showCostTotals(
      [a, b],
      [{ eventId: '1', kind: 'booth', hundredths: 100_000, setBy: 'U0ALICE', setAt: AT.toISOString() }],
    );
    const entries = [entry('1', 2000), entry('1', 500, 'pending'), entry('2', 333), entry('2', 7, 'refused')];
    const spent = spentByShow('C1', entries);
    const price = { tenThousandths: 1200, code: 'EUR', setBy: 'U0BOSS', setAt: AT.toISOString() };
    const budget = { hundredths: 5_000_000, code: 'EUR', setBy: 'U0BOSS', setAt: AT.toISOString() };

    const money = planMoney({
      plan: { currency: EUR, creditPrice: price, moneyBudgets: { 'Q2-2027': budget } },
      shows: [a, b],
      costs,
      spentOnShows: spent,
      spend: { quarters: { 'Q2-2027': { onShows: 2333, onRemovedShows: 0, other: 0 } }, undated: 0 },
    });

    expect(spent).toEqual(
      new Map([
        ['1', 2000],
        ['2', 333],
      ]),
    );
    expect(money.byShow.get('1')?.total).toBe(moneyOfCredits(2000, 1200) + 100_000);
    expect(money.byShow.get('2')?.total).toBe(moneyOfCredits(333, 1200));
    expect(money.quarters).toEqual([
      {
        key: 'Q2-2027',
        cost: moneyCost(2333, 100_000, creditRateOf({ creditPrice: price, currency: EUR })),
        budget,
      },
    ]);
  });

  it('lists a quarter with a money budget alone, in calendar order', () => {
    const budget = { hundredths: 100, code: 'EUR', setBy: 'U0BOSS', setAt: AT.toISOString() };
    const money = planMoney({
      plan: { currency: EUR, moneyBudgets: { 'Q1-2028': budget, 'Q3-2027': budget } },
      shows: [],
      costs: showCostTotals([], []),
      spentOnShows: null,
      spend: null,
    });
    expect(money.quarters.map((q) => q.key)).toEqual(['Q3-2027', 'Q1-2028']);
    expect(money.quarters[0]?.cost).toEqual({
      creditsSpent: null,
      ofCredits: null,
      beyondCredits: 0,
      total: null,
    });
  });
});
