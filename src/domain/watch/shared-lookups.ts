import type { WatchLookups } from '../ports/watch.ts';

/*
 * The free look-ups the scheduled checks of one service account share to find its names: the upcoming
 * shows, a show's exhibitors, a name's search in a show, a domain's search are the same for every
 * channel of the account, so each is asked once per period, not once per channel and account; and a
 * show's fit. An exhibitor's shows (what an alert is made of) are never shared: each check reads them
 * fresh, so a new appearance is seen by the next check. Kept per service account (what a key can see is
 * its own: tenants stay apart), per period, bounded.
 */

/** How long an answer is shared: a name added to a show is found by the checks after it within this. */
export const SHARED_LOOKUP_MS = 4 * 60 * 60_000;
/** Answers kept per service account and period; past it, look-ups are asked without being kept. */
export const SHARED_LOOKUP_ENTRIES = 20_000;
/** Service accounts kept at once (the least recently used is dropped). */
export const SHARED_LOOKUP_ACCOUNTS = 100;

/** One service account's shared answers. */
export interface LookupMemo {
  /** The answer under `key`, asked once per period; a failed one is forgotten, so the next asks again. */
  once: <T>(key: string, ask: () => Promise<T>) => Promise<T>;
}

interface AccountAnswers {
  period: number;
  answers: Map<string, Promise<unknown>>;
}

/** Every service account's shared answers in this process (built once, by the composition root). */
export function createLookupMemos(now: () => Date) {
  const byAccount = new Map<string, AccountAnswers>();
  const answersOf = (accountId: string): Map<string, Promise<unknown>> => {
    const period = Math.floor(now().getTime() / SHARED_LOOKUP_MS);
    const held = byAccount.get(accountId);
    byAccount.delete(accountId);
    const current = held?.period === period ? held : { period, answers: new Map<string, Promise<unknown>>() };
    byAccount.set(accountId, current);
    const oldest = byAccount.keys().next().value;
    if (byAccount.size > SHARED_LOOKUP_ACCOUNTS && oldest !== undefined) byAccount.delete(oldest);
    return current.answers;
  };
  return {
    forAccount: (accountId: string): LookupMemo => ({
      once: <T>(key: string, ask: () => Promise<T>): Promise<T> => {
        const answers = answersOf(accountId);
        const held = answers.get(key);
        if (held) return held as Promise<T>;
        const asked = ask();
        if (answers.size >= SHARED_LOOKUP_ENTRIES) return asked;
        answers.set(key, asked);
        asked.catch(() => answers.delete(key));
        return asked;
      },
    }),
  };
}

export type LookupMemos = ReturnType<typeof createLookupMemos>;

/** The look-ups that find names, each answer shared through `memo` (an exhibitor's shows and people are not). */
export function sharedLookups(lookups: WatchLookups, memo: LookupMemo | undefined): WatchLookups {
  if (!memo) return lookups;
  const key = (...parts: (string | number)[]) => JSON.stringify(parts);
  const { showExhibitors } = lookups;
  return {
    ...lookups,
    upcomingShows: (fromDay, limit) =>
      memo.once(key('upcoming', fromDay, limit), () => lookups.upcomingShows(fromDay, limit)),
    showExhibitorMatches: (eventId, keyword) =>
      memo.once(key('matches', eventId, keyword), () => lookups.showExhibitorMatches(eventId, keyword)),
    exhibitorsByDomain: (domain) =>
      memo.once(key('domain', domain), () => lookups.exhibitorsByDomain(domain)),
    fitScore: (eventId) => memo.once(key('fit', eventId), () => lookups.fitScore(eventId)),
    ...(showExhibitors
      ? {
          showExhibitors: (eventId: string) => memo.once(key('scan', eventId), () => showExhibitors(eventId)),
        }
      : {}),
  };
}
