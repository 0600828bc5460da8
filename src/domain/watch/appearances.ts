import type { EventItem } from '../../eis/index.ts';
import type { ToldShow } from '../ports/records.ts';

/** A show an account exhibits at, as a check sees it now (the event's public id, dates, city). */
export type SeenShow = Omit<ToldShow, 'threadTs'>;

/** A service event as a seen show (its public `eventId`, the one requests take). */
export function seenShowOf(
  event: Pick<EventItem, 'eventId' | 'name' | 'dateStart' | 'dateEnd' | 'city' | 'country'>,
): SeenShow {
  return {
    eventId: event.eventId,
    name: event.name,
    dateStart: event.dateStart ?? null,
    dateEnd: event.dateEnd ?? null,
    city: event.city ?? null,
    country: event.country ?? null,
  };
}

/** A show told before whose dates or city are no longer as told. */
export interface ShowChange {
  before: ToldShow;
  now: SeenShow;
  /** Dates changed: the show was postponed (or brought forward). */
  datesChanged: boolean;
  cityChanged: boolean;
}

/** What changed for one account since the channel was last told. */
export interface AppearanceComparison {
  /** Shows not told before: the alert's rows. */
  appeared: SeenShow[];
  changed: ShowChange[];
  /** Told shows still ahead that no longer list the account (or were cancelled and left the list). */
  dropped: ToldShow[];
  /** What the channel will have been told once this is said: store it (when `toldChanged`). */
  told: ToldShow[];
  /** False when the stored told state is already right (nothing to write). */
  toldChanged: boolean;
}

const isAhead = (show: SeenShow, today: string) => show.dateStart === null || show.dateStart >= today;

/** Earliest first, shows without a date last, then by name and id (a stable order for equal dates). */
export function byDate(a: SeenShow, b: SeenShow): number {
  if (a.dateStart !== b.dateStart) {
    if (a.dateStart === null) return 1;
    if (b.dateStart === null) return -1;
    return a.dateStart < b.dateStart ? -1 : 1;
  }
  return (a.name ?? '').localeCompare(b.name ?? '') || a.eventId.localeCompare(b.eventId);
}

function upcoming(seen: readonly SeenShow[], today: string): SeenShow[] {
  const byEvent = new Map<string, SeenShow>();
  for (const show of seen)
    if (isAhead(show, today) && !byEvent.has(show.eventId)) byEvent.set(show.eventId, show);
  return [...byEvent.values()].sort(byDate);
}

const sameShow = (a: ToldShow, b: ToldShow) =>
  a.eventId === b.eventId &&
  a.name === b.name &&
  a.dateStart === b.dateStart &&
  a.dateEnd === b.dateEnd &&
  a.city === b.city &&
  // A show told before its country was kept is stored again with it (no alert: not a change to say).
  (a.country ?? null) === (b.country ?? null) &&
  a.threadTs === b.threadTs;

/**
 * Compares an account's shows as seen now (exhibitor evidence; `today` a `YYYY-MM-DD`: shows that
 * started before it are past) with what the channel was last told. `told` undefined: the account was
 * never looked up (just added or imported), so what it shows now becomes the told state without an
 * alert. A told show that has started is forgotten quietly, never "dropped". A change or a drop is
 * said once: the returned told state holds the show as now seen, or no longer holds it. Pass only
 * the look-ups that succeeded: an empty `seen` means the account is on no show.
 */
export function compareAppearances(
  seen: readonly SeenShow[],
  told: readonly ToldShow[] | undefined,
  today: string,
): AppearanceComparison {
  const now = upcoming(seen, today);
  if (told === undefined) return { appeared: [], changed: [], dropped: [], told: now, toldChanged: true };
  const toldById = new Map(told.map((show) => [show.eventId, show]));
  const appeared: SeenShow[] = [];
  const changed: ShowChange[] = [];
  const nextTold = now.map((show): ToldShow => {
    const before = toldById.get(show.eventId);
    if (!before) {
      appeared.push(show);
      return show;
    }
    const datesChanged = before.dateStart !== show.dateStart || before.dateEnd !== show.dateEnd;
    const cityChanged = before.city !== show.city;
    if (datesChanged || cityChanged) changed.push({ before, now: show, datesChanged, cityChanged });
    return before.threadTs === undefined ? show : { ...show, threadTs: before.threadTs };
  });
  const stillSeen = new Set(now.map((show) => show.eventId));
  const dropped = told.filter((show) => !stillSeen.has(show.eventId) && isAhead(show, today));
  const toldChanged =
    nextTold.length !== told.length ||
    nextTold.some((show) => {
      const before = toldById.get(show.eventId);
      return before === undefined || !sameShow(show, before);
    });
  return { appeared, changed, dropped, told: nextTold, toldChanged };
}

/** The told state once the alert (message `threadTs`) announced these events: their changes go to its thread. */
export function announcedIn(
  told: readonly ToldShow[],
  eventIds: readonly string[],
  threadTs: string,
): ToldShow[] {
  const announced = new Set(eventIds);
  return told.map((show) => (announced.has(show.eventId) ? { ...show, threadTs } : show));
}
