import type { WatchAccount, WatchResolution } from '../ports/records.ts';
import type { WatchExhibitor, WatchLookups, WatchShow } from '../ports/watch.ts';
import { matchAccount } from './names.ts';

/**
 * Finding an account's exhibitor record and its shows, on the service's free look-ups only: a domain
 * through the company-context search, a name through keyword searches of upcoming shows' exhibitor
 * lists, and any record already seen in this run first. A record counts only when its company name or
 * domain is the account's after normalisation (`matchAccount`), never on description text.
 */

/** Upcoming shows a name is searched in, per account and check (each search is one free call). */
export const RESOLVE_SHOWS = 20;

/** What one run of look-ups shares: the records seen so far and the upcoming shows, read once. */
export interface LookupRun {
  lookups: WatchLookups;
  today: string;
  /** Every exhibitor record seen in this run, by id. */
  seen: Map<string, WatchExhibitor>;
  upcoming?: Promise<WatchShow[]>;
}

export function lookupRun(lookups: WatchLookups, today: string): LookupRun {
  return { lookups, today, seen: new Map() };
}

/** What the look-ups say of an account now: its resolution, exhibitor ids, and (resolved) its shows. */
export interface AccountLookup {
  resolution: WatchResolution;
  exhibitorIds: string[];
  /** The candidates of an ambiguous name, to choose from. */
  candidates: WatchExhibitor[];
  /** Every show of the resolved exhibitor (past ones too); empty otherwise. */
  shows: WatchShow[];
}

function remember(run: LookupRun, records: readonly WatchExhibitor[]) {
  for (const record of records) if (!run.seen.has(record.id)) run.seen.set(record.id, record);
}

/** The keyword a name is searched with: its normalised words (legal form and punctuation dropped). */
const keywordOf = (key: string) => key.slice('name:'.length);

async function searchByName(run: LookupRun, key: string): Promise<WatchExhibitor[]> {
  run.upcoming ??= run.lookups.upcomingShows(run.today, RESOLVE_SHOWS);
  for (const show of await run.upcoming) {
    const found = await run.lookups.showExhibitorMatches(show.eventId, keywordOf(key));
    remember(run, found);
    if (matchAccount(key, found).kind !== 'none') return found;
  }
  return [];
}

async function findRecords(run: LookupRun, key: string): Promise<WatchExhibitor[]> {
  const known = [...run.seen.values()];
  if (matchAccount(key, known).kind === 'one') return known;
  if (key.startsWith('domain:')) {
    const found = await run.lookups.exhibitorsByDomain(key.slice('domain:'.length));
    remember(run, found);
    return found;
  }
  return searchByName(run, key);
}

/**
 * Looks an account up: a resolved one's exhibitor is kept (one call for its shows); an ambiguous one
 * waits for a user's choice (no call); a pending or not-found one is searched again.
 */
export async function lookUpAccount(
  run: LookupRun,
  account: Pick<WatchAccount, 'key' | 'resolution' | 'exhibitorIds'>,
): Promise<AccountLookup> {
  const { resolution, exhibitorIds } = account;
  const none = { candidates: [], shows: [] };
  if (resolution === 'ambiguous') return { resolution, exhibitorIds, ...none };
  let exhibitorId = resolution === 'resolved' ? exhibitorIds[0] : undefined;
  if (exhibitorId === undefined) {
    const match = matchAccount(account.key, await findRecords(run, account.key));
    if (match.kind === 'none') return { resolution: 'not-found', exhibitorIds: [], ...none };
    if (match.kind === 'ambiguous') {
      const ids = match.candidates.map((candidate) => candidate.id);
      return { resolution: 'ambiguous', exhibitorIds: ids, candidates: match.candidates, shows: [] };
    }
    exhibitorId = match.exhibitor.id;
  }
  const shows = await run.lookups.exhibitorShows(exhibitorId);
  return { resolution: 'resolved', exhibitorIds: [exhibitorId], candidates: [], shows };
}

/** Counts the calls made through look-ups (a check's summary says how many it made). */
export function countingLookups(lookups: WatchLookups): { lookups: WatchLookups; calls: () => number } {
  let calls = 0;
  const counted =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A) => {
      calls += 1;
      return call(...args);
    };
  return {
    lookups: {
      exhibitorShows: counted(lookups.exhibitorShows),
      upcomingShows: counted(lookups.upcomingShows),
      showExhibitorMatches: counted(lookups.showExhibitorMatches),
      exhibitorsByDomain: counted(lookups.exhibitorsByDomain),
      peopleAt: counted(lookups.peopleAt),
      fitScore: counted(lookups.fitScore),
    },
    calls: () => calls,
  };
}
