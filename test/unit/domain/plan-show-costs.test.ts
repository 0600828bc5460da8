import { describe, expect, it } from 'vitest';
import {
  readAmount,
  readCostKind,
  readCurrency,
  setCurrency,
  setShowCosts,
  showCostTotals,
  withoutCostsOfRemoved,
  removeShow,
} from '../../../src/domain/plan/index.ts';
import type { PlanContent } from '../../../src/domain/ports/index.ts';
import type { PlanShow, PlanShowCost } from '../../../src/domain/ports/records.ts';

const show = (eventId: string, dateStart: string | null): PlanShow => ({
  eventId,
  name: `Show ${eventId}`,
  dateStart,
  dateEnd: dateStart,
  city: null,
  addedBy: 'U0ALICE',
  addedAt: '2026-11-01T00:00:00.000Z',
});
const cost = (eventId: string, kind: PlanShowCost['kind'], hundredths: number): PlanShowCost => ({
  eventId,
  kind,
  hundredths,
  setBy: 'U0ALICE',
  setAt: '2026-11-02T00:00:00.000Z',
});
const AT = new Date('2026-11-28T12:00:00Z');

describe('readAmount', () => {
  it.each([
    ['12000', 1_200_000],
    ['12,000', 1_200_000],
    ['12000.5', 1_200_050],
    ['12,000.05', 1_200_005],
    ['0', 0],
    ['10,000,000', 1_000_000_000],
  ])('reads %s as %i hundredths', (text, hundredths) => {
    expect(readAmount(text)).toEqual({ ok: true, hundredths });
  });

  it.each([
    ['-5', 'negative'],
    ['-12,000.50', 'negative'],
    ['12.345', 'decimals'],
    ['10000000.01', 'too-large'],
    ['99999999999', 'too-large'],
    ['1e5', 'not-a-number'],
    ['12,00', 'not-a-number'],
    ['€12000', 'not-a-number'],
    ['12000.', 'not-a-number'],
    ['', 'not-a-number'],
    ['NaN', 'not-a-number'],
    ['Infinity', 'not-a-number'],
  ])('refuses %s as %s', (text, reason) => {
    expect(readAmount(text)).toEqual({ ok: false, reason });
  });
});

describe('cost kinds and currencies', () => {
  it('reads the four kinds in any case, and nothing else', () => {
    expect(['Booth', 'sponsorship', 'TRAVEL', 'other'].map(readCostKind)).toEqual([
      'booth',
      'sponsorship',
      'travel',
      'other',
    ]);
    expect(readCostKind('yacht')).toBeUndefined();
    expect(readCostKind('constructor')).toBeUndefined();
  });

  it('reads ISO 4217 codes, upper-cased, and refuses others', () => {
    expect(readCurrency('eur')).toBe('EUR');
    expect(readCurrency('USD')).toBe('USD');
    for (const word of ['EURO', 'EU', 'XQZ', '€', '<!here>']) expect(readCurrency(word)).toBeUndefined();
  });
});

describe('setShowCosts', () => {
  const plan: PlanContent = {
    shows: [show('1', '2027-04-10'), show('2', '2027-05-01')],
    budgets: {},
    costs: [cost('1', 'booth', 100), cost('1', 'travel', 200), cost('2', 'booth', 300)],
  };

  it('sets the kinds given, keeps the others, and removes a kind at 0, all in one change', () => {
    const { next, result } = setShowCosts(plan, {
      eventId: '1',
      amounts: { booth: 500, travel: 0, other: 50 },
      setBy: 'U0BOB',
      at: AT,
    });

    expect(result.outcome).toBe('set');
    expect(next?.costs?.map((c) => [c.eventId, c.kind, c.hundredths, c.setBy])).toEqual([
      ['2', 'booth', 300, 'U0ALICE'],
      ['1', 'booth', 500, 'U0BOB'],
      ['1', 'other', 50, 'U0BOB'],
    ]);
    expect(next?.costs?.find((c) => c.kind === 'other')?.setAt).toBe(AT.toISOString());
  });

  it('refuses a show not on the plan and changes nothing', () => {
    const edit = setShowCosts(plan, { eventId: '9', amounts: { booth: 100 }, setBy: 'U0BOB', at: AT });
    expect(edit).toEqual({ result: { outcome: 'not-on-plan' } });
  });

  it('drops a removed show’s costs with it', () => {
    const edit = withoutCostsOfRemoved(removeShow(plan, '1'), '1');
    expect(edit.next?.costs).toEqual([cost('2', 'booth', 300)]);
  });

  it('sets the currency without touching the amounts, saying the one it replaces', () => {
    const first = setCurrency(plan, 'USD', 'U0BOB', AT);
    const second = setCurrency(first.next ?? plan, 'EUR', 'U0BOB', AT);
    expect(first.result).toEqual({ code: 'USD', costs: 3 });
    expect(second.result).toEqual({ code: 'EUR', previous: 'USD', costs: 3 });
    expect(second.next?.costs).toEqual(plan.costs);
  });
});

describe('showCostTotals', () => {
  it('totals per show, per quarter in order, for undated shows and in all, leaving out shows not on the plan', () => {
    const shows = [
      show('3', '2027-07-02'),
      show('1', '2027-04-10'),
      show('2', '2027-05-01'),
      show('4', null),
    ];
    const costs = [
      cost('1', 'booth', 1_200_000),
      cost('1', 'travel', 30_050),
      cost('2', 'sponsorship', 500_000),
      cost('3', 'other', 1),
      cost('4', 'travel', 700),
      cost('9', 'booth', 999_999),
    ];

    const totals = showCostTotals(shows, costs);

    expect(totals.byShow.get('1')).toEqual({
      booth: 1_200_000,
      sponsorship: 0,
      travel: 30_050,
      other: 0,
      total: 1_230_050,
    });
    expect(totals.byShow.has('9')).toBe(false);
    expect(totals.quarters.map((q) => [q.quarter.key, q.totals.total])).toEqual([
      ['Q2-2027', 1_730_050],
      ['Q3-2027', 1],
    ]);
    expect(totals.quarters[0]?.totals.sponsorship).toBe(500_000);
    expect(totals.undated.travel).toBe(700);
    expect(totals.all).toEqual({
      booth: 1_200_000,
      sponsorship: 500_000,
      travel: 30_750,
      other: 1,
      total: 1_730_751,
    });
  });

  it('has nothing for a plan without costs', () => {
    const totals = showCostTotals([show('1', '2027-04-10')], []);
    expect(totals.byShow.size).toBe(0);
    expect(totals.quarters).toEqual([]);
    expect(totals.all.total).toBe(0);
  });
});
