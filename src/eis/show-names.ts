import type { EventsApi } from './events.ts';

/** What naming a show takes: its name (or nickname), dates and city, as its detail gives them. */
export interface ShowNaming {
  name: string | null;
  nickname: string | null;
  dateStart: string | null;
  dateEnd: string | null;
  city: string | null;
}

/** Shows' names for the day: `detail` answers from what was read today, else reads it once. */
export interface ShowNames {
  detail(eventId: string): Promise<ShowNaming>;
}

/** Enough for a busy day's cards and exports; the oldest read goes first beyond it. */
export const SHOW_NAMES_KEPT = 2_000;

/**
 * The names of shows, read once a day (UTC) per service account: build one per client (one per
 * service key), so one account never answers another's. Only what naming needs is kept (never a
 * card's facts: a show's own card reads it afresh); a failed read is not kept, and reads of one
 * show under way at once are one.
 */
export function createShowNames(
  events: Pick<EventsApi, 'detail'>,
  { now = () => new Date(), kept = SHOW_NAMES_KEPT }: { now?: () => Date; kept?: number } = {},
): ShowNames {
  let day = '';
  const names = new Map<string, Promise<ShowNaming>>();
  return {
    detail(eventId) {
      const today = now().toISOString().slice(0, 10);
      if (today !== day) {
        names.clear();
        day = today;
      }
      const known = names.get(eventId);
      if (known) return known;
      const reading = events.detail(eventId).then((event): ShowNaming => ({
        name: event.name,
        nickname: event.nickname ?? null,
        dateStart: event.dateStart ?? null,
        dateEnd: event.dateEnd ?? null,
        city: event.city ?? null,
      }));
      names.set(eventId, reading);
      reading.catch(() => {
        if (names.get(eventId) === reading) names.delete(eventId);
      });
      // Bounded: beyond `kept`, the oldest read goes.
      const oldest = names.size > kept ? names.keys().next().value : undefined;
      if (oldest !== undefined) names.delete(oldest);
      return reading;
    },
  };
}
