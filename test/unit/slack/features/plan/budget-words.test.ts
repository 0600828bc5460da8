import { describe, expect, it } from 'vitest';
import { planCosts } from '../../../../../src/domain/plan/index.ts';
import { costLines } from '../../../../../src/slack/features/plan/views.ts';

/* The plan's budget line, as the card and the canvas say it: true and plain in each case. */

const budget = (credits: number) => ({
  'Q2-2027': { credits, setBy: 'U1', setAt: '2026-11-01T00:00:00.000Z' },
});
const locked = { state: 'locked', credits: 2000, estimated: false } as const;
const lineOf = (credits: number, onShows: number, other = 0) =>
  costLines({
    costs: planCosts([{ dateStart: '2027-05-10', cost: locked }], budget(credits), {
      quarters: { 'Q2-2027': { onShows, onRemovedShows: 0, other } },
      undated: 0,
    }),
    balance: 50_000,
    spendCapped: false,
  })[0];

describe('the plan’s budget line', () => {
  it('says nothing is spent and that unlocking the rest would go over, not that the budget is already over', () => {
    expect(lineOf(1000, 0)).toBe(
      'Q2 2027: 1 show, unlocking 1 would cost 2,000 credits; budget 1,000 credits, spent on these shows 0 credits, 1,000 credits left. Unlocking the rest (2,000 credits) would put the quarter 1,000 credits over its budget.',
    );
  });

  it('says what was spent and what is left, and the channel’s other spend apart', () => {
    expect(lineOf(5000, 2500, 300)).toBe(
      'Q2 2027: 1 show, unlocking 1 would cost 2,000 credits; budget 5,000 credits, spent on these shows 2,500 credits, 2,500 credits left. Unlocking the rest fits in what is left. This channel’s other spend in Q2 2027: 300 credits (not counted against the plan’s budget).',
    );
  });

  it('says a budget already passed is over, and by how much the rest would take it', () => {
    expect(lineOf(1000, 1500)).toContain(
      'spent on these shows 1,500 credits, 500 credits over the budget. Unlocking the rest (2,000 credits) would put the quarter 2,500 credits over its budget.',
    );
  });
});
