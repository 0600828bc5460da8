import { describe, expect, it } from 'vitest';
import { PRICES } from '../../../src/domain/prices.ts';
import { budgetMonth, isValidWatchBudget, paidLookupAllowance } from '../../../src/domain/watch/index.ts';

const MAY = new Date('2031-05-14T10:00:00Z');
const PRICE = PRICES['exhibitor-search'].credits;

describe('a channel’s watch budget', () => {
  it('allows no paid look-up at the default budget of 0', () => {
    const allowance = paidLookupAllowance({ budgetCredits: 0, spentCredits: 0 }, 'exhibitor-search', MAY);

    expect(allowance).toMatchObject({ allowed: false, reason: 'free-only' });
  });

  it('allows a paid look-up at its listed price while it fits in what is left this month', () => {
    const settings = { budgetCredits: 2 * PRICE, spentMonth: '2031-05', spentCredits: PRICE };

    expect(paidLookupAllowance(settings, 'exhibitor-search', MAY)).toEqual({
      allowed: true,
      credits: PRICE,
      month: '2031-05',
    });
  });

  it('refuses one that would spend past the budget', () => {
    const settings = { budgetCredits: 2 * PRICE - 1, spentMonth: '2031-05', spentCredits: PRICE };

    expect(paidLookupAllowance(settings, 'exhibitor-events', MAY)).toEqual({
      allowed: false,
      reason: 'budget-spent',
      credits: PRICE,
      remaining: PRICE - 1,
    });
  });

  it('starts again each month: last month’s spend does not count', () => {
    const settings = { budgetCredits: PRICE, spentMonth: '2031-04', spentCredits: PRICE };

    expect(paidLookupAllowance(settings, 'exhibitor-search', MAY).allowed).toBe(true);
    expect(budgetMonth(new Date('2031-05-31T23:59:59Z'))).toBe('2031-05');
  });

  it('takes a whole number of credits, 0 or more', () => {
    expect([0, 500].map(isValidWatchBudget)).toEqual([true, true]);
    expect([-1, 1.5, Number.NaN].map(isValidWatchBudget)).toEqual([false, false, false]);
  });
});
