import { type Period, quarterContaining } from './periods.ts';
import { type CreditRate, type MoneyCost, moneyCost } from './plan/money.ts';
import { LEAD_GRADES, type LeadGrade, type OutcomeEntry } from './ports/outcome-records.ts';
import type { WatchAccount } from './ports/watch-records.ts';

/**
 * A show's return: what the entries logged for it add up to, against what it cost. All money is whole
 * hundredths of the plan's currency; every figure is computed when shown, from the stored entries.
 */

/** An entry counts for a show when logged from this many days before its start to this many after its end. */
export const RETURN_WINDOW = { beforeDays: 30, afterDays: 90 } as const;

/** A year as a return's period (`2027`); undefined for any other word. */
export function yearPeriod(word: string): Period | undefined {
  if (!/^(19|20)\d{2}$/.test(word)) return undefined;
  return { label: word, key: word, from: `${word}-01-01`, to: `${word}-12-31` };
}

/** The last quarter that has ended by `now` (UTC): what `return` alone reads. */
export function lastFullQuarter(now: Date): Period {
  const current = quarterContaining(now);
  return quarterContaining(new Date(Date.parse(`${current.from}T00:00:00Z`) - 1));
}

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Math.floor(Date.parse(`${date.slice(0, 10)}T00:00:00Z`) / DAY_MS);

/** A show a return is read for: its one public id, its name and dates (a show without a start counts nothing). */
export interface ReturnShow {
  eventId: string;
  name: string | null;
  dateStart: string | null;
  dateEnd: string | null;
}

/** Whether an entry logged at `loggedAt` (ISO time, its UTC day) falls in the show's window. */
export function inReturnWindow(show: Pick<ReturnShow, 'dateStart' | 'dateEnd'>, loggedAt: string): boolean {
  if (!show.dateStart) return false;
  const logged = dayNumber(loggedAt);
  return (
    logged >= dayNumber(show.dateStart) - RETURN_WINDOW.beforeDays &&
    logged <= dayNumber(show.dateEnd ?? show.dateStart) + RETURN_WINDOW.afterDays
  );
}

/** An account as entries name it: the watch's company when matched, else its name, case aside. */
const accountKey = (entry: OutcomeEntry) =>
  entry.company ? `company:${entry.company.exhibitorId}` : `name:${entry.account.trim().toLowerCase()}`;

/** Money split by whether the show sourced the account (its first entry of the team) or influenced it. */
export interface SourcedSplit {
  sourced: number;
  influenced: number;
}

export interface ReturnFigures {
  meetingsBooked: number;
  meetingsHeld: number;
  leads: Record<LeadGrade, number>;
  opportunities: number;
  /** The opportunities' amounts, in hundredths. */
  pipeline: SourcedSplit;
  deals: number;
  won: SourcedSplit;
  /** Distinct accounts with entries. */
  accountsMet: number;
  /** The channel's watched accounts known to exhibit, and how many of them have entries. */
  watched: { exhibiting: number; met: number };
  cost: MoneyCost;
  /** Each ratio only when its divisor is known and not 0 (see `returnRatios`). */
  ratios: ReturnRatios;
}

/**
 * Cost per meeting held and per opportunity (hundredths of money, or whole credits when credits are not
 * priced), and pipeline and won each ÷ the money cost (in hundredths: 425 is 4.25×).
 */
export interface ReturnRatios {
  unit: 'money' | 'credits' | null;
  perMeetingHeld?: number;
  perOpportunity?: number;
  pipelinePerCost?: number;
  wonPerCost?: number;
}

const roundedDivision = (dividend: number, divisor: number) =>
  Math.floor((2 * dividend + divisor) / (2 * divisor));
const total = (split: SourcedSplit) => split.sourced + split.influenced;

export function returnRatios(
  figures: Pick<ReturnFigures, 'meetingsHeld' | 'opportunities' | 'pipeline' | 'won' | 'cost'>,
): ReturnRatios {
  const { cost } = figures;
  const [unit, basis] =
    cost.total !== null
      ? (['money', cost.total] as const)
      : cost.creditsSpent !== null
        ? (['credits', cost.creditsSpent] as const)
        : [null, null];
  const ratios: ReturnRatios = { unit };
  if (basis === null) return ratios;
  if (figures.meetingsHeld > 0) ratios.perMeetingHeld = roundedDivision(basis, figures.meetingsHeld);
  if (figures.opportunities > 0) ratios.perOpportunity = roundedDivision(basis, figures.opportunities);
  if (unit === 'money' && basis > 0) {
    ratios.pipelinePerCost = roundedDivision(total(figures.pipeline) * 100, basis);
    ratios.wonPerCost = roundedDivision(total(figures.won) * 100, basis);
  }
  return ratios;
}

/** What a return is read from: the channel's shows, the team's entries, the channel's spend, costs and watch. */
export interface ReturnInput {
  channelId: string;
  /** The team's entries, every channel's and deleted ones too: sourcing looks across all of them. */
  entries: readonly OutcomeEntry[];
  /** Credits the channel spent on each show; null when the ledger could not be read. */
  spentOnShows: ReadonlyMap<string, number> | null;
  /** Each show's costs beyond credits, in hundredths. */
  beyondCredits: ReadonlyMap<string, number>;
  rate: CreditRate;
  watchAccounts: readonly WatchAccount[];
}

export interface ShowReturn {
  show: ReturnShow;
  figures: ReturnFigures;
}

export interface PeriodReturn {
  shows: ShowReturn[];
  total: ReturnFigures;
}

/** The shows a return covers: one show by id, or the plan's shows and the shows with entries starting in a period. */
export function returnShows(
  planShows: readonly ReturnShow[],
  input: Pick<ReturnInput, 'channelId' | 'entries'>,
  of: { eventId: string } | { period: Period },
): ReturnShow[] {
  const shows = new Map(planShows.map((show) => [show.eventId, show]));
  for (const entry of input.entries)
    if (entry.channelId === input.channelId && !entry.deletedAt && !shows.has(entry.eventId))
      shows.set(entry.eventId, {
        eventId: entry.eventId,
        name: entry.showName,
        dateStart: entry.showDateStart,
        dateEnd: entry.showDateEnd,
      });
  const wanted = [...shows.values()].filter((show) =>
    'eventId' in of
      ? show.eventId === of.eventId
      : show.dateStart !== null && show.dateStart >= of.period.from && show.dateStart <= of.period.to,
  );
  return wanted.sort((a, b) => (a.dateStart ?? '').localeCompare(b.dateStart ?? ''));
}

/** Each account's first entry of the team (not deleted), by when it was logged: the show that sourced it. */
function sourcingShows(entries: readonly OutcomeEntry[]): Map<string, string> {
  const first = new Map<string, OutcomeEntry>();
  for (const entry of entries) {
    if (entry.deletedAt) continue;
    const known = first.get(accountKey(entry));
    if (
      !known ||
      entry.loggedAt < known.loggedAt ||
      (entry.loggedAt === known.loggedAt && entry.id < known.id)
    )
      first.set(accountKey(entry), entry);
  }
  return new Map([...first].map(([key, entry]) => [key, entry.eventId]));
}

const noLeads = () => Object.fromEntries(LEAD_GRADES.map((grade) => [grade, 0])) as Record<LeadGrade, number>;

/** Sums the counting entries of some shows (each entry is of one show), with their summed cost. */
function figuresOf(
  counted: readonly OutcomeEntry[],
  sourcedBy: ReadonlyMap<string, string>,
  cost: MoneyCost,
  watched: ReturnFigures['watched'],
): ReturnFigures {
  const figures = {
    meetingsBooked: 0,
    meetingsHeld: 0,
    leads: noLeads(),
    opportunities: 0,
    pipeline: { sourced: 0, influenced: 0 },
    deals: 0,
    won: { sourced: 0, influenced: 0 },
    accountsMet: new Set(counted.map(accountKey)).size,
    watched,
    cost,
  };
  for (const entry of counted) {
    const side = sourcedBy.get(accountKey(entry)) === entry.eventId ? 'sourced' : 'influenced';
    if (entry.kind === 'meeting-booked') figures.meetingsBooked += 1;
    else if (entry.kind === 'meeting-held') figures.meetingsHeld += 1;
    else if (entry.kind === 'lead' && entry.grade) figures.leads[entry.grade] += 1;
    else if (entry.kind === 'opportunity') {
      figures.opportunities += 1;
      figures.pipeline[side] += entry.hundredths ?? 0;
    } else if (entry.kind === 'won') {
      figures.deals += 1;
      figures.won[side] += entry.hundredths ?? 0;
    }
  }
  return { ...figures, ratios: returnRatios(figures) };
}

/** The watched accounts known to exhibit at a show, and which of them the counted entries met. */
function watchedAt(accounts: readonly WatchAccount[], eventId: string, counted: readonly OutcomeEntry[]) {
  const exhibiting = accounts.filter((account) => account.told?.some((show) => show.eventId === eventId));
  const metIds = new Set(counted.flatMap((entry) => (entry.company ? [entry.company.exhibitorId] : [])));
  return {
    exhibiting,
    met: exhibiting.filter((account) => account.exhibitorIds.some((id) => metIds.has(id))),
  };
}

/** The return of each show and of them all: the channel's entries (not deleted) in each show's window. */
export function showsReturn(shows: readonly ReturnShow[], input: ReturnInput): PeriodReturn {
  const sourcedBy = sourcingShows(input.entries);
  const live = input.entries.filter((entry) => entry.channelId === input.channelId && !entry.deletedAt);
  const creditsOf = (eventId: string) => (input.spentOnShows ? (input.spentOnShows.get(eventId) ?? 0) : null);
  const beyondOf = (eventId: string) => input.beyondCredits.get(eventId) ?? 0;
  const allCounted: OutcomeEntry[] = [];
  const exhibiting = new Set<WatchAccount>();
  const met = new Set<WatchAccount>();
  const perShow = shows.map((show) => {
    const counted = live.filter((e) => e.eventId === show.eventId && inReturnWindow(show, e.loggedAt));
    allCounted.push(...counted);
    const watched = watchedAt(input.watchAccounts, show.eventId, counted);
    for (const account of watched.exhibiting) exhibiting.add(account);
    for (const account of watched.met) met.add(account);
    const cost = moneyCost(creditsOf(show.eventId), beyondOf(show.eventId), input.rate);
    const counts = { exhibiting: watched.exhibiting.length, met: watched.met.length };
    return { show, figures: figuresOf(counted, sourcedBy, cost, counts) };
  });
  // The total's money is rounded once from its own credits (as a quarter's cost is: money.ts).
  const credits = input.spentOnShows
    ? shows.reduce((sum, show) => sum + (creditsOf(show.eventId) ?? 0), 0)
    : null;
  const beyond = shows.reduce((sum, show) => sum + beyondOf(show.eventId), 0);
  const totalCost = moneyCost(credits, beyond, input.rate);
  const watched = { exhibiting: exhibiting.size, met: met.size };
  return { shows: perShow, total: figuresOf(allCounted, sourcedBy, totalCost, watched) };
}
