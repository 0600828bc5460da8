import { quarterContaining } from '../periods.ts';
import type { LedgerEntry, PlanShow, RemovedPlanShow } from '../ports/records.ts';
import { quarterOfShow } from './rules.ts';

/** A quarter's spend as the plan's budget sees it. */
export interface QuarterSpend {
  /** Credits this channel spent on the plan's shows of the quarter, whenever they were spent. */
  onShows: number;
  /** Of `onShows`, the credits spent on shows since removed from the plan. */
  onRemovedShows: number;
  /** The channel's other credits charged in the quarter (shows not on the plan, searches…): shown apart. */
  other: number;
}

/** The plan's spend: by quarter key, and on its shows whose dates are not announced yet. */
export interface PlanSpend {
  quarters: Record<string, QuarterSpend>;
  undated: number;
}

/** Settled spend: a charge still pending is not counted yet, a refused one spent nothing. */
const isSpent = (entry: LedgerEntry) => entry.status !== 'pending' && entry.status !== 'refused';

type DatedShow = Pick<PlanShow, 'eventId' | 'dateStart'>;

/**
 * The plan's budget rule, one place for the card, the canvas, Home and the warning: a quarter's budget
 * counts every charge this channel made that names one of the plan's shows in that quarter (the show's
 * unlock, visitors, full access, contacts unlocked from its lists), whatever day it was charged; the
 * channel's other charges are counted apart, in the quarter they were charged in. A show removed from
 * the plan keeps its spend in its quarter (marked apart), so a quarter's spend on its shows never goes
 * down; a show the service moves to another quarter takes its spend with it. An entry whose outcome the
 * service did not confirm counts at its quoted price, as the ledger books it.
 */
export function planSpend(
  plan: {
    channelId: string;
    shows: readonly DatedShow[];
    removed?: readonly Pick<RemovedPlanShow, 'eventId' | 'dateStart'>[] | undefined;
  },
  entries: readonly LedgerEntry[],
): PlanSpend {
  const shows = new Map<string, DatedShow & { removed: boolean }>();
  for (const show of plan.removed ?? []) shows.set(show.eventId, { ...show, removed: true });
  for (const show of plan.shows) shows.set(show.eventId, { ...show, removed: false });
  const spend: PlanSpend = { quarters: {}, undated: 0 };
  const quarter = (key: string) => (spend.quarters[key] ??= { onShows: 0, onRemovedShows: 0, other: 0 });
  for (const entry of entries) {
    if (entry.channelId !== plan.channelId || !isSpent(entry)) continue;
    const show = entry.eventId === undefined ? undefined : shows.get(entry.eventId);
    if (!show) {
      quarter(quarterContaining(new Date(entry.at)).key).other += entry.credits;
      continue;
    }
    const showQuarter = quarterOfShow(show);
    if (!showQuarter) {
      spend.undated += entry.credits;
      continue;
    }
    const spent = quarter(showQuarter.key);
    spent.onShows += entry.credits;
    if (show.removed) spent.onRemovedShows += entry.credits;
  }
  return spend;
}

/**
 * Credits this channel spent on each show (by event id), whenever charged, by the same rule as
 * `planSpend`: what a show's money cost counts.
 */
export function spentByShow(channelId: string, entries: readonly LedgerEntry[]): Map<string, number> {
  const spent = new Map<string, number>();
  for (const entry of entries)
    if (entry.channelId === channelId && isSpent(entry) && entry.eventId !== undefined)
      spent.set(entry.eventId, (spent.get(entry.eventId) ?? 0) + entry.credits);
  return spent;
}
