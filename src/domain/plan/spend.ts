import { quarterContaining } from '../periods.ts';
import type { LedgerEntry, PlanShow } from '../ports/records.ts';
import { quarterOfShow } from './rules.ts';

/** A quarter's spend as the plan's budget sees it. */
export interface QuarterSpend {
  /** Credits this channel spent on the plan's shows of the quarter, whenever they were spent. */
  onShows: number;
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

/**
 * The plan's budget rule, one place for the card, the canvas, Home and the warning: a quarter's budget
 * counts every charge this channel made that names one of the plan's shows in that quarter (the show's
 * unlock, visitors, full access, contacts unlocked from its lists), whatever day it was charged; the
 * channel's other charges are counted apart, in the quarter they were charged in. Computed from the
 * plan's current shows, so a show removed or moved to another quarter takes its spend with it. An
 * entry whose outcome the service did not confirm counts at its quoted price, as the ledger books it.
 */
export function planSpend(
  plan: { channelId: string; shows: readonly Pick<PlanShow, 'eventId' | 'dateStart'>[] },
  entries: readonly LedgerEntry[],
): PlanSpend {
  const shows = new Map(plan.shows.map((show) => [show.eventId, show]));
  const spend: PlanSpend = { quarters: {}, undated: 0 };
  const quarter = (key: string) => (spend.quarters[key] ??= { onShows: 0, other: 0 });
  for (const entry of entries) {
    if (entry.channelId !== plan.channelId || !isSpent(entry)) continue;
    const show = entry.eventId === undefined ? undefined : shows.get(entry.eventId);
    if (!show) {
      quarter(quarterContaining(new Date(entry.at)).key).other += entry.credits;
      continue;
    }
    const showQuarter = quarterOfShow(show);
    if (showQuarter) quarter(showQuarter.key).onShows += entry.credits;
    else spend.undated += entry.credits;
  }
  return spend;
}
