import { PRICES } from '../prices.ts';
import type { WatchSettings } from '../ports/records.ts';

/** A channel watches on free look-ups only until someone sets a budget. */
export const DEFAULT_WATCH_BUDGET = 0;

/** The most credits a month a channel's budget may allow (a typo's guard, not a price). */
export const MAX_WATCH_BUDGET = 1_000_000;

/** Every channel is checked at least this often; a changed watch at once. */
export const WATCH_CHECK_INTERVAL_MS = 24 * 60 * 60_000;

/** The paid look-ups a watch may run: the service's two name searches. */
export type PaidWatchLookup = 'exhibitor-search' | 'exhibitor-events';

export function isValidWatchBudget(credits: number): boolean {
  return Number.isInteger(credits) && credits >= 0 && credits <= MAX_WATCH_BUDGET;
}

/** The UTC month a spend counts in, `YYYY-MM`. */
export function budgetMonth(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** Credits the channel's paid look-ups spent in the month of `at` (0 once a new month starts). */
export function spentThisMonth(
  settings: Pick<WatchSettings, 'spentMonth' | 'spentCredits'>,
  at: Date,
): number {
  return settings.spentMonth === budgetMonth(at) ? settings.spentCredits : 0;
}

export type PaidLookupAllowance =
  | { allowed: true; credits: number; month: string }
  | { allowed: false; reason: 'free-only' | 'budget-spent'; credits: number; remaining: number };

/**
 * Whether a scheduled paid name look-up may run now: only when its price (from the one price table;
 * charged only when it finds something, so the price is what it may cost) fits in what is left of
 * the month's budget. The store's `reserveSpend` then takes the credits atomically.
 */
export function paidLookupAllowance(
  settings: Pick<WatchSettings, 'budgetCredits' | 'spentMonth' | 'spentCredits'>,
  lookup: PaidWatchLookup,
  at: Date,
): PaidLookupAllowance {
  const credits = PRICES[lookup].credits;
  if (settings.budgetCredits === 0) return { allowed: false, reason: 'free-only', credits, remaining: 0 };
  const remaining = Math.max(0, settings.budgetCredits - spentThisMonth(settings, at));
  if (credits > remaining) return { allowed: false, reason: 'budget-spent', credits, remaining };
  return { allowed: true, credits, month: budgetMonth(at) };
}

/** When a channel checked at `checkedAt` is next due. */
export function nextWatchCheck(checkedAt: Date): Date {
  return new Date(checkedAt.getTime() + WATCH_CHECK_INTERVAL_MS);
}
