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
  type WatchShowScan,
} from '../ports/watch.ts';
import { matchAccount, nearMatches, normaliseCompanyName } from './names.ts';
import { inPool } from '../pool.ts';

/**
 * Finding an account's exhibitor record and its shows, on the service's free look-ups only: a domain
 * through the company-context search, a name in the upcoming shows' exhibitor lists (each show read
 * once for every name: a name not in a show read whole is not there) and by keyword only in the shows
 * too big to read whole, and any record already seen in this run first. A record counts only when its company name or
 * domain is the account's after normalisation (`matchAccount`), never on description text. A name
 * found nowhere keeps the near matches those same searches returned (`nearMatches`), to be offered.
 */

/**
 * Look-ups a slice runs at once (accounts, or shows read): a workspace's two lanes of slices
 * (`WATCH_LANES_PER_WORKSPACE`) stay within the key's watch share (`WATCH_IN_FLIGHT_PER_KEY`, 6 of the
 * service's 10), the rest left for people using the bot.
 */
export const LOOKUP_CONCURRENCY = 3;

/** Upcoming shows a name is searched in, per account and check (each search is one free call). */
export const RESOLVE_SHOWS = 20;

/**
 * A name not found yet is searched again in every upcoming show at most this often; between those
 * searches each check searches only the upcoming shows it has not searched yet (new ones, or later
 * ones moving into the first `RESOLVE_SHOWS`). So a name is ~20 calls a week plus one per new show,
 * not 20 a day; a company added to a show already searched is found within the week.
 */
export const NAME_SEARCH_REPEAT_DAYS = 7;

/** What one run of look-ups shares: the records seen so far, the upcoming shows and their exhibitors, read once. */
export interface LookupRun {
  lookups: WatchLookups;
  today: string;
  /** Every exhibitor record seen in this run, by id. */
  seen: Map<string, WatchExhibitor>;
  upcoming?: Promise<WatchShow[]>;
  /** Upcoming shows' exhibitors as read (`showExhibitors`), by event id. */
  scans: Map<string, Promise<WatchShowScan>>;
  /** Names are looked for in the shows' lists first (set by `scanForNames` for enough names). */
  scanning?: boolean;
}

export function lookupRun(lookups: WatchLookups, today: string): LookupRun {
  return { lookups, today, seen: new Map(), scans: new Map() };
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

/**
 * The keyword a name is searched with: its normalised words (legal form and punctuation dropped), the
 * last one without its last letters, so the search also returns the records a letter or a plural away
 * (`globex payme` finds `Globex Payments` for `Globex Payment`, and `Globex Payment` itself).
 */
function keywordOf(key: string): string {
  const words = key.slice('name:'.length).split(' ');
  const last = words.pop() ?? '';
  const kept = last.length >= 5 ? last.slice(0, -2) : last.length === 4 ? last.slice(0, -1) : last;
  return [...words, kept].join(' ');
}

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** Whether a name's last search is a week old (or it was never searched): then every show is searched again. */
const searchesAll = (previous: WatchNameSearch | undefined, today: string): previous is undefined =>
  !previous || daysBetween(previous.fullOn, today) >= NAME_SEARCH_REPEAT_DAYS;

/** The upcoming shows a name is searched in now: all of them weekly, else those not searched yet. */
const showsToSearch = (upcoming: readonly string[], previous: WatchNameSearch | undefined, today: string) => {
  if (searchesAll(previous, today)) return [...upcoming];
  const already = new Set(previous.eventIds);
  return upcoming.filter((eventId) => !already.has(eventId));
};

/** Whether an account is looked for by name now (not resolved, not waiting for a choice). */
const searchedByName = (account: Pick<WatchAccount, 'key' | 'resolution' | 'exhibitorIds'>) =>
  account.key.startsWith('name:') &&
  account.resolution !== 'ambiguous' &&
  !(account.resolution === 'resolved' && account.exhibitorIds[0] !== undefined);

const upcomingIds = async (run: LookupRun) => {
  run.upcoming ??= run.lookups.upcomingShows(run.today, RESOLVE_SHOWS);
  return (await run.upcoming).map((show) => show.eventId);
};

/** The shows' exhibitors, each read once in the run (none when the look-ups cannot read them). */
async function scansOf(run: LookupRun, eventIds: readonly string[]): Promise<Map<string, WatchShowScan>> {
  const read = run.lookups.showExhibitors;
  if (!read) return new Map();
  const scans = new Map<string, WatchShowScan>();
  await inPool(eventIds, LOOKUP_CONCURRENCY, async (eventId) => {
    const scan = run.scans.get(eventId) ?? read(eventId);
    run.scans.set(eventId, scan);
    const done = await scan;
    remember(run, done.exhibitors);
    scans.set(eventId, done);
  });
  // In the shows' order, so a name is searched (and found) in the same order every time.
  return new Map(
    eventIds.flatMap((eventId) => {
      const scan = scans.get(eventId);
      return scan ? [[eventId, scan] as const] : [];
    }),
  );
}

/**
 * Names to look for before the shows' lists are read for them: reading 20 lists costs about what a
 * name's keyword searches do, so fewer names are searched by keyword alone, as before.
 */
export const SCAN_FROM_NAMES = 3;

/** What a slice knows before planning: the upcoming shows, those not read whole, the names they list. */
export interface PlannedScans {
  upcoming: string[];
  partial: Set<string>;
  names: Set<string>;
}

/**
 * Reads the upcoming shows the slice's names are to be searched in (once per run, shared further by
 * the look-ups' memo), so the slice plans each name's cost from what is left to search by keyword.
 */
export async function scanForNames(
  run: LookupRun,
  accounts: readonly Pick<WatchAccount, 'key' | 'resolution' | 'exhibitorIds' | 'nameSearch'>[],
): Promise<PlannedScans | undefined> {
  const names = accounts.filter(searchedByName);
  run.scanning = run.lookups.showExhibitors !== undefined && names.length >= SCAN_FROM_NAMES;
  if (!run.scanning) return undefined;
  const upcoming = await upcomingIds(run);
  const wanted = new Set(names.flatMap((account) => showsToSearch(upcoming, account.nameSearch, run.today)));
  const scans = await scansOf(run, [...wanted]);
  return {
    upcoming,
    partial: new Set([...scans].filter(([, scan]) => !scan.complete).map(([eventId]) => eventId)),
    names: new Set(
      [...run.seen.values()].map((record) => `name:${normaliseCompanyName(record.companyName)}`),
    ),
  };
}

/**
 * The most service calls looking an account up may make, so a check's slice can plan its accounts:
 * none for an ambiguous one (it waits for a choice), one for a resolved one (its shows; two while its
 * company name is not kept: see `learnedName`), two for a
 * domain (the search, the shows), and for a name the upcoming shows it has not been searched in this
 * week plus the shows of a match. A paid look-up (within a budget) comes on top.
 */
export function lookupCost(
  account: Pick<WatchAccount, 'key' | 'resolution' | 'exhibitorIds' | 'nameSearch' | 'companyName'>,
  today: string,
  scans?: PlannedScans,
): number {
  if (account.resolution === 'ambiguous') return 0;
  if (account.resolution === 'resolved' && account.exhibitorIds[0] !== undefined)
    return account.companyName ? 1 : 2;
  if (account.key.startsWith('domain:')) return 2;
  const previous = account.nameSearch;
  // The shows were read: a name they list costs its shows; another, a keyword search per show not read whole.
  if (scans) {
    if (scans.names.has(account.key)) return 1;
    const left = showsToSearch(scans.upcoming, previous, today);
    return left.filter((eventId) => scans.partial.has(eventId)).length + 1;
  }
  return (
    (searchesAll(previous, today) ? RESOLVE_SHOWS : Math.max(0, RESOLVE_SHOWS - previous.eventIds.length)) + 1
  );
}

/** What one name search found, where the name has now been searched, and its near matches. */
interface NameSearchResult {
  found: WatchExhibitor[];
  searched: WatchNameSearch;
  near: WatchExhibitor[];
}

/**
 * The shows not read whole, those with the most exhibitors not seen first (where a company missing
 * from every scan most likely is), else in the upcoming order.
 */
const byUnseen = (eventIds: readonly string[], scans: ReadonlyMap<string, WatchShowScan>) =>
  eventIds
    .filter((eventId) => !scans.get(eventId)?.complete)
    .map((eventId, order) => ({
      eventId,
      order,
      unseen: scans.get(eventId)?.unseen ?? Number.POSITIVE_INFINITY,
    }))
    .sort((a, b) => (b.unseen === a.unseen ? a.order - b.order : b.unseen > a.unseen ? 1 : -1))
    .map(({ eventId }) => eventId);

/**
 * Searches the upcoming shows for a name, stopping at the first match: all of them when
 * `NAME_SEARCH_REPEAT_DAYS` have passed since the last full search, else only the ones not searched
 * since. Each show's exhibitors are read first (once for every name); a keyword search is made only
 * in the shows not read whole.
 */
async function searchByName(
  run: LookupRun,
  key: string,
  previous: WatchNameSearch | undefined,
): Promise<NameSearchResult> {
  const upcoming = await upcomingIds(run);
  const toSearch = showsToSearch(upcoming, previous, run.today);
  const done = new Set(upcoming.filter((eventId) => !toSearch.includes(eventId)));
  // Only shows still upcoming are kept (in their order), so the list stays within `RESOLVE_SHOWS`.
  const searched = (): WatchNameSearch => ({
    fullOn: searchesAll(previous, run.today) ? run.today : previous.fullOn,
    eventIds: upcoming.filter((eventId) => done.has(eventId)),
  });
  const scans = run.scanning ? await scansOf(run, toSearch) : new Map<string, WatchShowScan>();
  const listed = [...scans.values()].flatMap((scan) => scan.exhibitors);
  if (matchAccount(key, listed).kind !== 'none') return { found: listed, searched: searched(), near: [] };
  const seen: WatchExhibitor[] = [...listed];
  for (const eventId of toSearch) if (scans.get(eventId)?.complete) done.add(eventId);
  for (const eventId of byUnseen(toSearch, scans)) {
    done.add(eventId);
    const found = await run.lookups.showExhibitorMatches(eventId, keywordOf(key));
    remember(run, found);
    if (matchAccount(key, found).kind !== 'none') return { found, searched: searched(), near: [] };
    seen.push(...found);
  }
  return { found: [], searched: searched(), near: nearMatches(key, seen, WATCH_LIMITS.candidatesShown) };
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
 * The company name of a resolved account that has none kept (resolved before names were kept): from
 * a record this run has seen, else the exhibitor's free profile, so it is learned once and then
 * stored. A failed read learns nothing: the name is words, not the watch, and the next check asks again.
 */
async function learnedName(run: LookupRun, exhibitorId: string): Promise<string | undefined> {
  const seen = run.seen.get(exhibitorId)?.companyName;
  if (seen) return seen;
  return (await run.lookups.exhibitorName?.(exhibitorId).catch(() => undefined)) || undefined;
}

/**
 * Looks an account up: a resolved one's exhibitor is kept (one call for its shows, and its company
 * name if none is kept); an ambiguous one waits for a user's choice (no call); a pending or
 * not-found one is searched again.
 */
export async function lookUpAccount(
  run: LookupRun,
  account: Pick<WatchAccount, 'key' | 'resolution' | 'exhibitorIds' | 'nameSearch' | 'companyName'>,
): Promise<AccountLookup> {
  const { resolution, exhibitorIds } = account;
  if (resolution === 'ambiguous') return { resolution, exhibitorIds, candidates: [], shows: [] };
  const known = resolution === 'resolved' ? exhibitorIds[0] : undefined;
  if (known !== undefined) {
    const [shows, companyName] = await Promise.all([
      run.lookups.exhibitorShows(known),
      account.companyName ? undefined : learnedName(run, known),
    ]);
    return {
      resolution,
      exhibitorIds: [known],
      candidates: [],
      shows,
      ...(companyName ? { companyName } : {}),
    };
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
      ...(lookups.exhibitorName ? { exhibitorName: counted(lookups.exhibitorName) } : {}),
      upcomingShows: counted(lookups.upcomingShows),
      showExhibitorMatches: counted(lookups.showExhibitorMatches),
      ...(lookups.showExhibitors ? { showExhibitors: counted(lookups.showExhibitors) } : {}),
      exhibitorsByDomain: counted(lookups.exhibitorsByDomain),
      peopleAt: counted(lookups.peopleAt),
      fitScore: counted(lookups.fitScore),
    },
    calls: () => calls,
  };
}
