import * as z from 'zod';
import type { ExhibitorsApi } from './exhibitors.ts';
import { parseInput } from './input.ts';
import { iteratePages } from './pagination.ts';
import type { ExhibitorItem, ExhibitorListPage, RelatedEventItem } from './schemas.ts';

/*
 * The free look-ups account watch is built on, each walking every page it needs. None is priced
 * (`EIS_OPERATIONS`: exhibitors.events, exhibitors.list and exhibitors.searchByContext are `free`);
 * each call goes through the core, so a 429 waits out its Retry-After like every other read.
 */

/** The service's largest page: fewer calls per account. */
const MAX_PAGE_SIZE = 100;
/** An event's exhibitors list shows a locked event's first 50 matches; one page of 50 holds them. */
const PREVIEW_PAGE_SIZE = 50;

export interface PagingOptions {
  /** Page size asked for (default 100; tests use small pages to walk several). */
  pageSize?: number;
  /** Stop after this many pages (default 1000, the page iterator's safety net). */
  maxPages?: number;
}

/**
 * Every event where a known exhibitor shows exhibitor evidence (`attendance_scope=exhibitor`), past and
 * upcoming, across all pages, in the service's order. Free. An unknown id throws `EisNotFoundError`.
 */
export async function listExhibitorEventsAll(
  exhibitors: ExhibitorsApi,
  exhibitorId: string,
  options: PagingOptions = {},
): Promise<RelatedEventItem[]> {
  const pageSize = options.pageSize ?? MAX_PAGE_SIZE;
  const events: RelatedEventItem[] = [];
  const pages = iteratePages(
    (page) => exhibitors.events({ exhibitorId, attendanceScope: 'exhibitor', page, pageSize }),
    options.maxPages === undefined ? {} : { maxPages: options.maxPages },
  );
  for await (const page of pages) events.push(...page.items);
  return events;
}

export interface EventExhibitorMatches {
  /** The matches the caller can see: all of them on an unlocked event, the first 50 on a locked one. */
  exhibitors: ExhibitorItem[];
  /** Matches past the preview window (`semantics.counts.remainingLockedCount`; 0 when absent). */
  hiddenCount: number;
}

/**
 * One event's exhibitors whose company matches `keyword` (the service also matches "related company
 * text", so callers must still compare names). Free. On a locked event only the first 50 matches are
 * visible; `hiddenCount` says how many more there are, so a caller knows when its keyword was too broad.
 */
export async function listEventExhibitorMatches(
  exhibitors: ExhibitorsApi,
  eventId: string,
  keyword: string,
  options: PagingOptions = {},
): Promise<EventExhibitorMatches> {
  const pageSize = options.pageSize ?? PREVIEW_PAGE_SIZE;
  const found: ExhibitorItem[] = [];
  let hiddenCount = 0;
  const pages = iteratePages(
    (page) => exhibitors.list({ eventId, keyword, page, pageSize }),
    options.maxPages === undefined ? {} : { maxPages: options.maxPages },
  );
  for await (const page of pages) {
    found.push(...page.items);
    hiddenCount = page.semantics?.counts?.remainingLockedCount ?? 0;
  }
  return { exhibitors: found, hiddenCount };
}

/** One event's exhibitors as the caller can see them, and whether that is all of them. */
export interface EventExhibitorScan {
  exhibitors: ExhibitorItem[];
  /** Every exhibitor is in `exhibitors`: none hidden past the preview window, no page left unread. */
  complete: boolean;
  /** Exhibitors not in `exhibitors` (hidden or unread); unknown counts as infinite. */
  unseen: number;
}

/** An unlocked show is read this many pages of 100 at most; past them the scan says it is not complete. */
const SCAN_MAX_PAGES = 5;

/**
 * One event's exhibitors, no keyword: a locked event's first 50 (one call), an unlocked one's pages up
 * to `SCAN_MAX_PAGES`. Free. `complete` is true only when nothing is hidden or left unread, so a name
 * not in a complete scan is not at the event, and a name not in an incomplete one must still be
 * searched by keyword.
 */
export async function scanEventExhibitors(
  exhibitors: ExhibitorsApi,
  eventId: string,
  options: PagingOptions = {},
): Promise<EventExhibitorScan> {
  const pageSize = options.pageSize ?? MAX_PAGE_SIZE;
  const found: ExhibitorItem[] = [];
  let hidden = Number.POSITIVE_INFINITY;
  let unread = false;
  const pages = iteratePages((page) => exhibitors.list({ eventId, page, pageSize }), {
    maxPages: options.maxPages ?? SCAN_MAX_PAGES,
  });
  let last: ExhibitorListPage | undefined;
  for await (const page of pages) {
    last = page;
    found.push(...page.items);
    // No counts: what is hidden cannot be told, so the scan is not taken as complete.
    hidden = page.semantics?.counts?.remainingLockedCount ?? Number.POSITIVE_INFINITY;
    unread = page.hasMore;
  }
  const total = last?.semantics?.counts?.actualTotal;
  const unseen = total === undefined ? Number.POSITIVE_INFINITY : Math.max(0, total - found.length);
  return {
    exhibitors: found,
    complete: hidden === 0 && !unread,
    unseen: hidden === 0 && !unread ? 0 : unseen,
  };
}

/** A bare domain (`globex.com`, `www.globex.com`); a URL or an address is refused before any call. */
const DomainInput = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'expected a domain such as globex.com')
  .max(253);

/**
 * Exhibitor records found from a company's domain through the company-context search
 * (`company_url` = `https://<domain>`): one page of the service's contextual matches, in its order.
 * Free. Contextual matching also returns related companies: callers keep only the records whose
 * `domain` or `website` is the company's (the watch's name and domain rule decides).
 */
export async function searchExhibitorsByDomain(
  exhibitors: ExhibitorsApi,
  domain: string,
  options: Pick<PagingOptions, 'pageSize'> = {},
): Promise<ExhibitorItem[]> {
  const host = parseInput('exhibitors.searchByContext', DomainInput, domain);
  const page = await exhibitors.searchByContext({
    companyUrl: `https://${host}`,
    pageSize: options.pageSize ?? MAX_PAGE_SIZE,
  });
  return page.items;
}
