import type { WatchAccount, WatchAccountKind } from '../ports/records.ts';
import type { WatchShow } from '../ports/watch.ts';
import { isInRegion, type Region } from '../regions.ts';
import { byDate } from './appearances.ts';
import { shownName } from './names.ts';

/**
 * Where the channel's watched accounts will be: the upcoming shows its accounts are known to exhibit
 * at, most accounts first. Read only from what the watch's checks stored (each account's told shows),
 * so it spends nothing; muted accounts count too (muting stops alerts, not the facts).
 */

/** The accounts of one kind at a show, by name. */
export interface AccountsAt {
  targets: string[];
  competitors: string[];
}

/** One upcoming show and the watched accounts exhibiting at it. */
export interface WatchedShow extends AccountsAt {
  show: WatchShow;
}

/** What narrows the ranking: a region (by the show's country) and the days a show starts in (inclusive). */
export interface WatchedShowFilter {
  region?: Region | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const accountsAt = (shown: WatchedShow) => shown.targets.length + shown.competitors.length;

/**
 * Most watched accounts first; then more targets (the accounts to meet), then the soonest show. A
 * show with no date comes last among equals; with `from` or `to` it is left out (its dates are unknown).
 */
export function compareWatchedShows(a: WatchedShow, b: WatchedShow): number {
  return accountsAt(b) - accountsAt(a) || b.targets.length - a.targets.length || byDate(a.show, b.show);
}

function inFilter(show: WatchShow, today: string, filter: WatchedShowFilter): boolean {
  const start = show.dateStart;
  if (start !== null && start < today) return false;
  if ((filter.from || filter.to) && start === null) return false;
  if (filter.from && start !== null && start < filter.from) return false;
  if (filter.to && start !== null && start > filter.to) return false;
  return !filter.region || isInRegion(show.country, filter.region);
}

const KIND_LIST: Record<WatchAccountKind, keyof AccountsAt> = {
  target: 'targets',
  competitor: 'competitors',
};

/**
 * The upcoming shows (`today` a `YYYY-MM-DD`: shows that started are past) where the accounts
 * exhibit, in the filter, ranked by `compareWatchedShows`. An account is counted once per show
 * however many exhibitor records it has; a show without a known country is in no region.
 */
export function rankWatchedShows(
  accounts: readonly Pick<WatchAccount, 'label' | 'kind' | 'told' | 'companyName'>[],
  today: string,
  filter: WatchedShowFilter = {},
): WatchedShow[] {
  const byEvent = new Map<string, WatchedShow & { seen: Set<string> }>();
  for (const account of accounts)
    for (const show of account.told ?? []) {
      if (!inFilter(show, today, filter)) continue;
      const { threadTs: _thread, ...seen } = show;
      const entry = byEvent.get(show.eventId) ?? {
        show: seen,
        targets: [],
        competitors: [],
        seen: new Set(),
      };
      byEvent.set(show.eventId, entry);
      const name = shownName(account);
      if (entry.seen.has(name)) continue;
      entry.seen.add(name);
      entry[KIND_LIST[account.kind]].push(name);
    }
  const ranked = [...byEvent.values()].map(({ seen: _seen, ...shown }) => ({
    ...shown,
    targets: shown.targets.sort((a, b) => a.localeCompare(b)),
    competitors: shown.competitors.sort((a, b) => a.localeCompare(b)),
  }));
  return ranked.sort(compareWatchedShows);
}

/** One page of a ranked list: its items, its number (past the last: the last) and how many there are. */
export interface Page<T> {
  items: T[];
  page: number;
  pages: number;
  total: number;
}

/** Page `wanted` (from 1) of `items`, `size` a page; a page past the end gives the last one. */
export function pageOf<T>(items: readonly T[], wanted: number, size: number): Page<T> {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const page = Math.min(Math.max(1, Math.floor(wanted)), pages);
  return { items: items.slice((page - 1) * size, page * size), page, pages, total: items.length };
}
