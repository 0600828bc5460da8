import { type Period, parseQuarter } from '../periods.ts';
import type { PlanBudget, PlanShow } from '../ports/records.ts';
import { quarterOfShow } from './rules.ts';

/**
 * What unlocking a show would cost, as the service's precheck says: nothing (`unlocked`), a price
 * (`estimated` when the precheck could not be had and the list price stands in), or not offered
 * (the service gives its reason code: no contacts yet, an unlock in progress).
 */
export type UnlockCost =
  | { state: 'unlocked' }
  | { state: 'locked'; credits: number; estimated: boolean }
  | { state: 'not-offered'; reason: string };

/** The precheck's answer as the plan reads it (the service's reason codes). */
export interface UnlockPrecheck {
  reason_code: string;
  credits: number;
}

/**
 * What unlocking a show costs, from the service's precheck (its reason code has the last word):
 * `already_unlocked` is free; a price (payable now or not) is shown as is; other refusals are not
 * offered. Without a precheck, the list price stands in, marked estimated.
 */
export function unlockCostOf(precheck: UnlockPrecheck | null, listPrice: number): UnlockCost {
  if (!precheck || precheck.reason_code === 'unsupported_action')
    return { state: 'locked', credits: listPrice, estimated: true };
  if (precheck.reason_code === 'already_unlocked') return { state: 'unlocked' };
  if (precheck.reason_code === 'ok' || precheck.reason_code === 'insufficient_balance')
    return { state: 'locked', credits: precheck.credits, estimated: false };
  return { state: 'not-offered', reason: precheck.reason_code };
}

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
  /** Credits the channel has spent in the quarter (see `planSpend`), when read. */
  spent?: number;
}

/** The plan's cost line: each quarter's total against its budget, and the shows with no dates yet. */
export interface PlanCosts {
  quarters: QuarterCost[];
  undated: Omit<QuarterCost, 'quarter' | 'budget' | 'spent'>;
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
  spentByQuarter: Readonly<Record<string, number>> = {},
): PlanCosts {
  const quarters = new Map<string, QuarterCost>();
  const undated = emptyCost();
  const quarterCost = (quarter: Period): QuarterCost => {
    const known = quarters.get(quarter.key);
    if (known) return known;
    const budget = budgets[quarter.key];
    const spent = spentByQuarter[quarter.key];
    const created: QuarterCost = {
      quarter,
      ...emptyCost(),
      ...(budget ? { budget } : {}),
      ...(spent !== undefined ? { spent } : {}),
    };
    quarters.set(quarter.key, created);
    return created;
  };
  for (const show of shows) {
    const quarter = quarterOfShow(show);
    addShowCost(quarter ? quarterCost(quarter) : undated, show.cost);
  }
  for (const key of Object.keys(budgets)) {
    const quarter = parseQuarter(key);
    if (quarter) quarterCost(quarter);
  }
  const ordered = [...quarters.values()].sort((a, b) => a.quarter.from.localeCompare(b.quarter.from));
  const toUnlock = ordered.reduce((sum, q) => sum + q.toUnlock, undated.toUnlock);
  return { quarters: ordered, undated, toUnlock };
}
