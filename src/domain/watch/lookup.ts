import type {
  ToldShow,
  WatchAccount,
  WatchCandidate,
  WatchNameSearch,
  WatchResolution,
} from '../ports/records.ts';
import {
  WATCH_LIMITS,
  type WatchExhibitor,
  type WatchLookupOutcome,
  type WatchLookups,
  type WatchShow,
} from '../ports/watch.ts';
import { matchAccount, nearMatches } from './names.ts';

/**
 * Finding an account's exhibitor record and its shows, on the service's free look-ups only: a domain
 * through the company-context search, a name through keyword searches of upcoming shows' exhibitor
 * lists, and any record already seen in this run first. A record counts only when its company name or
 * domain is the account's after normalisation (`matchAccount`), never on description text. A name
 * found nowhere keeps the near matches those same searches returned (`nearMatches`), to be offered.
 */

/** Upcoming shows a name is searched in, per account and check (each search is one free call). */
export const RESOLVE_SHOWS = 20;

/**
 * A name not found yet is searched again in every upcoming show at most this often; between those
 * searches each check searches only the upcoming shows it has not searched yet (new ones, or later
 * ones moving into the first `RESOLVE_SHOWS`). So a name is ~20 calls a week plus one per new show,
 * not 20 a day; a company added to a show already searched is found within the week.
 */
export const NAME_SEARCH_REPEAT_DAYS = 7;

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
  /** The candidates of an ambiguous name, or a name not found's near matches, to choose from. */
  candidates: WatchExhibitor[];
  /** A resolved account's company name as its record has it (when this look-up read the record). */
  companyName?: string;
  /** Every show of the resolved exhibitor (past ones too); empty otherwise. */
  shows: WatchShow[];
  /** A name still not found: where it has been searched (for the next check). */
  nameSearch?: WatchNameSearch;
}

function remember(run: LookupRun, records: readonly WatchExhibitor[]) {
  for (const record of records) if (!run.seen.has(record.id)) run.seen.set(record.id, record);
}

/** The keyword a name is searched with: its normalised words (legal form and punctuation dropped). */
const keywordOf = (key: string) => key.slice('name:'.length);

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/**
 * The most service calls looking an account up may make, so a check's slice can plan its accounts:
 * none for an ambiguous one (it waits for a choice), one for a resolved one (its shows), two for a
 * domain (the search, the shows), and for a name the upcoming shows it has not been searched in this
 * week plus the shows of a match. A paid look-up (within a budget) comes on top.
 */
export function lookupCost(
  account: Pick<WatchAccount, 'key' | 'resolution' | 'exhibitorIds' | 'nameSearch'>,
  today: string,
): number {
  if (account.resolution === 'ambiguous') return 0;
  if (account.resolution === 'resolved' && account.exhibitorIds[0] !== undefined) return 1;
  if (account.key.startsWith('domain:')) return 2;
  const previous = account.nameSearch;
  const full = !previous || daysBetween(previous.fullOn, today) >= NAME_SEARCH_REPEAT_DAYS;
  return (full ? RESOLVE_SHOWS : Math.max(0, RESOLVE_SHOWS - previous.eventIds.length)) + 1;
}

/** What one name search found, where the name has now been searched, and its near matches. */
interface NameSearchResult {
  found: WatchExhibitor[];
  searched: WatchNameSearch;
  near: WatchExhibitor[];
}

/**
 * Searches the upcoming shows' exhibitor lists for a name, stopping at the first match: all of them
 * when `NAME_SEARCH_REPEAT_DAYS` have passed since the last full search, else only the ones not
 * searched since.
 */
async function searchByName(
  run: LookupRun,
  key: string,
  previous: WatchNameSearch | undefined,
): Promise<NameSearchResult> {
  run.upcoming ??= run.lookups.upcomingShows(run.today, RESOLVE_SHOWS);
  const upcoming = (await run.upcoming).map((show) => show.eventId);
  const full = !previous || daysBetween(previous.fullOn, run.today) >= NAME_SEARCH_REPEAT_DAYS;
  const already = new Set(full ? [] : previous.eventIds);
  const searched: WatchNameSearch = {
    fullOn: full ? run.today : previous.fullOn,
    // Only shows still upcoming are kept, so the list stays within `RESOLVE_SHOWS`.
    eventIds: upcoming.filter((eventId) => already.has(eventId)),
  };
  const seen: WatchExhibitor[] = [];
  for (const eventId of upcoming.filter((id) => !already.has(id))) {
    const found = await run.lookups.showExhibitorMatches(eventId, keywordOf(key));
    searched.eventIds.push(eventId);
    remember(run, found);
    if (matchAccount(key, found).kind !== 'none') return { found, searched, near: [] };
    seen.push(...found);
  }
  return { found: [], searched, near: nearMatches(key, seen, WATCH_LIMITS.candidatesShown) };
}

async function findRecords(
  run: LookupRun,
  key: string,
  previous: WatchNameSearch | undefined,
): Promise<Partial<NameSearchResult> & { found: WatchExhibitor[] }> {
  const known = [...run.seen.values()];
  if (matchAccount(key, known).kind === 'one') return { found: known };
  if (key.startsWith('domain:')) {
    const found = await run.lookups.exhibitorsByDomain(key.slice('domain:'.length));
    remember(run, found);
    return { found };
  }
  return searchByName(run, key, previous);
}

/**
 * Looks an account up: a resolved one's exhibitor is kept (one call for its shows); an ambiguous one
 * waits for a user's choice (no call); a pending or not-found one is searched again.
 */
export async function lookUpAccount(
  run: LookupRun,
  account: Pick<WatchAccount, 'key' | 'resolution' | 'exhibitorIds' | 'nameSearch'>,
): Promise<AccountLookup> {
  const { resolution, exhibitorIds } = account;
  if (resolution === 'ambiguous') return { resolution, exhibitorIds, candidates: [], shows: [] };
  const known = resolution === 'resolved' ? exhibitorIds[0] : undefined;
  if (known !== undefined) {
    const shows = await run.lookups.exhibitorShows(known);
    return { resolution, exhibitorIds: [known], candidates: [], shows };
  }
  const { found, searched, near = [] } = await findRecords(run, account.key, account.nameSearch);
  const match = matchAccount(account.key, found);
  if (match.kind === 'none') {
    const nameSearch = searched ? { nameSearch: searched } : {};
    return { resolution: 'not-found', exhibitorIds: [], candidates: near, shows: [], ...nameSearch };
  }
  if (match.kind === 'ambiguous') {
    const ids = match.candidates.map((candidate) => candidate.id);
    return { resolution: 'ambiguous', exhibitorIds: ids, candidates: match.candidates, shows: [] };
  }
  const { id, companyName } = match.exhibitor;
  const shows = await run.lookups.exhibitorShows(id);
  return { resolution: 'resolved', exhibitorIds: [id], candidates: [], companyName, shows };
}

/**
 * What the channel counts as told of an account before this look-up. One resolved for the first time
 * (not found when added: found by the paid look-up, or later by the free one) takes the shows it is
 * on as known, as an account just added does: they are not news. Only a show its name was searched in
 * without a match has listed it since, and is announced.
 */
export function toldBefore(
  account: Pick<WatchAccount, 'resolution' | 'told' | 'nameSearch'>,
  lookup: Pick<AccountLookup, 'resolution' | 'shows'>,
): ToldShow[] | undefined {
  if (account.told === undefined || account.resolution === 'resolved' || lookup.resolution !== 'resolved')
    return account.told;
  const searched = new Set(account.nameSearch?.eventIds ?? []);
  return [...account.told, ...lookup.shows.filter((show) => !searched.has(show.eventId))];
}

/** An exhibitor record as the store keeps it (a candidate to choose from, or what a paid look-up found). */
export const keptRecord = (record: WatchExhibitor): WatchCandidate => ({
  id: record.id,
  companyName: record.companyName,
  domain: record.domain ?? null,
  website: record.website ?? null,
  country: record.country ?? null,
});

/** The candidates an ambiguous account keeps to be chosen from: the first few (the rest by domain). */
export const keptCandidates = (candidates: readonly WatchExhibitor[]): WatchCandidate[] =>
  candidates.slice(0, WATCH_LIMITS.candidatesShown).map(keptRecord);

/**
 * What to store of a look-up, with the shows the channel will have been told: an ambiguous one's
 * candidates too, when it found them (not on a re-check), and where a name not found was searched.
 */
export function lookupOutcome(lookup: AccountLookup, told: ToldShow[]): WatchLookupOutcome {
  const { resolution, exhibitorIds, nameSearch, companyName } = lookup;
  return {
    resolution,
    exhibitorIds,
    told,
    ...(nameSearch ? { nameSearch } : {}),
    ...(companyName ? { companyName } : {}),
    ...(lookup.candidates.length > 0 ? { candidates: keptCandidates(lookup.candidates) } : {}),
  };
}

/** Whether the stored account's name search differs from the look-up's (then it is saved). */
export const nameSearchChanged = (before: WatchNameSearch | undefined, now: WatchNameSearch | undefined) =>
  before?.fullOn !== now?.fullOn || before?.eventIds.join() !== now?.eventIds.join();

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
