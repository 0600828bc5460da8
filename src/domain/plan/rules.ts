import { type Period, quarterContaining } from '../periods.ts';
import type { PlanContent, PlanEdit } from '../ports/plans.ts';
import type { PlanShow, RemovedPlanShow } from '../ports/records.ts';

/** A channel's plan: the shows it considers (a few dozen at most) and a budget per quarter. */
export const PLAN_LIMITS = {
  /** Shows on one plan: enough for a season, few enough for one card and to price each show at once. */
  shows: 20,
  /** The largest budget one quarter may have, in credits. */
  budgetCredits: 10_000_000,
  /**
   * Shows taken off the plan that are remembered for their spend (the latest removals); an older one's
   * spend then counts as the channel's other spend, in the quarter it was charged in.
   */
  removedShows: 100,
} as const;

export const EMPTY_PLAN: PlanContent = { shows: [], budgets: {} };

/** The share of a quarter's budget at which the channel is warned, once per budget. */
export const BUDGET_WARNING_SHARE = 0.8;

export type AddShowResult =
  | { outcome: 'added'; show: PlanShow }
  | { outcome: 'already'; show: PlanShow }
  | { outcome: 'full'; limit: number };

/** Adds a show (its facts as the service told them); a show already there or a full plan is left as it is. */
export function addShow(current: PlanContent, show: PlanShow): PlanEdit<AddShowResult> {
  const existing = current.shows.find((s) => s.eventId === show.eventId);
  if (existing) return { result: { outcome: 'already', show: existing } };
  if (current.shows.length >= PLAN_LIMITS.shows)
    return { result: { outcome: 'full', limit: PLAN_LIMITS.shows } };
  return {
    next: withRemoved(
      { ...current, shows: [...current.shows, show] },
      removedOtherThan(current, show.eventId),
    ),
    result: { outcome: 'added', show },
  };
}

const removedOtherThan = (current: PlanContent, eventId: string) =>
  (current.removed ?? []).filter((removed) => removed.eventId !== eventId);

/** The content with these removed shows, the latest `PLAN_LIMITS.removedShows` of them (none: absent). */
function withRemoved(content: PlanContent, removed: readonly RemovedPlanShow[]): PlanContent {
  const { removed: _replaced, ...rest } = content;
  const kept = removed.slice(-PLAN_LIMITS.removedShows);
  return kept.length > 0 ? { ...rest, removed: kept } : rest;
}

export type RemoveShowResult = { outcome: 'removed'; show: PlanShow } | { outcome: 'absent' };

export function removeShow(current: PlanContent, eventId: string): PlanEdit<RemoveShowResult> {
  const show = current.shows.find((s) => s.eventId === eventId);
  if (!show) return { result: { outcome: 'absent' } };
  const { name, dateStart, dateEnd } = show;
  const shows = current.shows.filter((s) => s !== show);
  return {
    // Remembered with its dates, so what was spent on it stays in its quarter.
    next: withRemoved({ ...current, shows }, [
      ...removedOtherThan(current, eventId),
      { eventId, name, dateStart, dateEnd },
    ]),
    result: { outcome: 'removed', show },
  };
}

export const isValidPlanBudget = (credits: number): boolean =>
  Number.isInteger(credits) && credits >= 0 && credits <= PLAN_LIMITS.budgetCredits;

/** Sets a quarter's budget; 0 removes it (no budget, no warning). */
export function setBudget(
  current: PlanContent,
  quarter: Period,
  credits: number,
  setBy: string,
  at: Date,
): PlanEdit<{ quarter: Period; credits: number }> {
  const { [quarter.key]: _replaced, ...others } = current.budgets;
  const budgets =
    credits === 0 ? others : { ...others, [quarter.key]: { credits, setBy, setAt: at.toISOString() } };
  return { next: { ...current, budgets }, result: { quarter, credits } };
}

type ShowDates = Pick<PlanShow, 'dateStart' | 'dateEnd'>;

/**
 * The shows' dates as the service tells them now (by event id): a show it moved changes quarter, and
 * takes its spend with it. Dates it no longer gives are kept. Nothing is written when none moved.
 */
export function withServiceDates(
  current: PlanContent,
  dates: ReadonlyMap<string, ShowDates>,
): PlanEdit<{ moved: number }> {
  let moved = 0;
  const shows = current.shows.map((show) => {
    const told = dates.get(show.eventId);
    if (!told?.dateStart || (told.dateStart === show.dateStart && told.dateEnd === show.dateEnd)) return show;
    moved += 1;
    return { ...show, dateStart: told.dateStart, dateEnd: told.dateEnd };
  });
  return moved === 0 ? { result: { moved } } : { next: { ...current, shows }, result: { moved } };
}

/** A show's quarter: the one its first day falls in (undefined while its dates are not announced). */
export function quarterOfShow(show: Pick<PlanShow, 'dateStart'>): Period | undefined {
  return show.dateStart ? quarterContaining(new Date(`${show.dateStart}T00:00:00Z`)) : undefined;
}

type Dated = Pick<PlanShow, 'dateStart' | 'addedAt'>;

/** Shows' order: by date, the ones without dates last (then by when they were added). */
export const compareByDate = (a: Dated, b: Dated): number =>
  (a.dateStart ?? '9999').localeCompare(b.dateStart ?? '9999') || a.addedAt.localeCompare(b.addedAt);

/** Shows by date (see `compareByDate`). */
export const byDate = <S extends Dated>(shows: readonly S[]): S[] => [...shows].sort(compareByDate);

/** Whether `spend` is at or past the warning share of a (non-zero) budget. */
export const pastWarningLine = (budgetCredits: number, spend: number): boolean =>
  budgetCredits > 0 && spend >= budgetCredits * BUDGET_WARNING_SHARE;
