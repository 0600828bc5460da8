import { type Period, parseQuarter } from '../periods.ts';
import type { PlanBudget, PlanShow } from '../ports/records.ts';
import { quarterOfShow } from './rules.ts';
import type { UnlockCost } from '../unlock-cost.ts';
import type { PlanSpend } from './spend.ts';

/** A quarter the plan has shows or a budget in: what unlocking its locked shows would cost. */
export interface QuarterCost {
  quarter: Period;
  shows: number;
  /** Shows still to unlock, and their total price. */
  locked: number;
  toUnlock: number;
  /** Some price in the total is the list price (the precheck could not be had). */
  estimated: boolean;
  budget?: PlanBudget;
  /** Credits spent on the quarter's shows, and the channel's other spend in it (see `planSpend`), when read. */
  spent?: number;
  /** Of `spent`, the credits spent on shows since removed from the plan. */
  spentOnRemoved?: number;
  otherSpent?: number;
}

/** The plan's cost line: each quarter's total against its budget, and the shows with no dates yet. */
export interface PlanCosts {
  quarters: QuarterCost[];
  undated: Omit<QuarterCost, 'quarter' | 'budget' | 'spent' | 'spentOnRemoved' | 'otherSpent'> & {
    spent?: number;
  };
  /** Everything still to unlock, across the plan. */
  toUnlock: number;
}

const emptyCost = () => ({ shows: 0, locked: 0, toUnlock: 0, estimated: false });

function addShowCost(total: ReturnType<typeof emptyCost>, cost: UnlockCost): void {
  total.shows += 1;
  if (cost.state !== 'locked') return;
  total.locked += 1;
  total.toUnlock += cost.credits;
  total.estimated ||= cost.estimated;
}

/** Totals by quarter (in order), with each quarter's budget and spend; a budget with no shows is listed too. */
export function planCosts(
  shows: readonly (Pick<PlanShow, 'dateStart'> & { cost: UnlockCost })[],
  budgets: Readonly<Record<string, PlanBudget>>,
  spend?: PlanSpend,
): PlanCosts {
  const quarters = new Map<string, QuarterCost>();
  const undated = { ...emptyCost(), ...(spend?.undated ? { spent: spend.undated } : {}) };
  const quarterCost = (quarter: Period): QuarterCost => {
    const known = quarters.get(quarter.key);
    if (known) return known;
    const budget = budgets[quarter.key];
    const spent = spend && (spend.quarters[quarter.key] ?? { onShows: 0, onRemovedShows: 0, other: 0 });
    const created: QuarterCost = {
      quarter,
      ...emptyCost(),
      ...(budget ? { budget } : {}),
      ...(spent
        ? { spent: spent.onShows, spentOnRemoved: spent.onRemovedShows, otherSpent: spent.other }
        : {}),
    };
    quarters.set(quarter.key, created);
    return created;
  };
  for (const show of shows) {
    const quarter = quarterOfShow(show);
    addShowCost(quarter ? quarterCost(quarter) : undated, show.cost);
  }
  // A quarter with a budget, or with spend on shows since removed, is listed even with no show left.
  const removedSpend = Object.entries(spend?.quarters ?? {}).filter(([, q]) => q.onRemovedShows > 0);
  for (const key of [...Object.keys(budgets), ...removedSpend.map(([key]) => key)]) {
    const quarter = parseQuarter(key);
    if (quarter) quarterCost(quarter);
  }
  const ordered = [...quarters.values()].sort((a, b) => a.quarter.from.localeCompare(b.quarter.from));
  const toUnlock = ordered.reduce((sum, q) => sum + q.toUnlock, undated.toUnlock);
  return { quarters: ordered, undated, toUnlock };
}
