import type { Button, KnownBlock } from '@slack/types';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { actions, button, context, header, section } from '../../views/blocks.ts';
import { formatCredits, formatNumber } from '../../views/format.ts';
import { capRows, fitToLimits, LIMITS } from '../../views/limits.ts';
import type { ListPage, Semantics, SlackMessage } from '../../views/types.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn } from '../../views/mrkdwn.ts';
import type { ListKind, ListPageValue, ListQuery } from '../../kit/job-values.ts';
import { exportButton } from '../../kit/row-buttons.ts';

/**
 * The card every list is shown on: its title with the query in words, the page summary, the rows
 * (cut to Slack's block limit), the Unlock / Filter… / Export CSV buttons and Previous / Next. What
 * one list shows in a row is in its own views (event-views.ts, exhibitor-views.ts, people-views.ts,
 * recommended-events-views.ts).
 */

export interface ListInput<T> {
  /**
   * A service page; `pageSize` places its rows (`rows 11–20`), else the page is taken as full.
   * `capped`: the bot read only the first rows of what matched (a search of several words), so the
   * total is a floor.
   */
  page: ListPage<T> & { pageSize?: number; capped?: boolean };
  /** Embedded as given in the Previous / Next buttons, for the page listener to run again. */
  query: ListQuery;
  /** The query in words for the title (`fintech country:Germany`); defaults to the query's values. */
  label?: string;
  /** Names for ids in the query (`{ eventId: 'Fintech Expo' }`), shown instead of the id in the title. */
  names?: Readonly<Record<string, string | undefined>>;
  /** `false` for searches charged per request: no Previous / Next, which would charge again. */
  pageable?: boolean;
  /** `YYYY-MM-DD` (UTC): a list of shows marks those already over as past, and offers no Add to plan. */
  today?: string;
}

/** Event-scoped lists: `eventId` is what the unlock button unlocks. */
export interface EventScopedListInput<T> extends ListInput<T> {
  eventId: string;
}

export interface ListSpec<T> {
  kind: ListKind;
  /** The title, with the query in words when there is one. */
  title: (label: string) => string;
  noun: string;
  input: ListInput<T>;
  row: (item: T) => Mrkdwn;
  /** A row's own buttons, shown under it (`shows-for`): rows are then cut two blocks at a time. */
  rowActions?: (item: T) => KnownBlock | undefined;
  /** One button beside each row, in the row's own block: a paid page shows all its rows (40). */
  rowButton?: (item: T) => Button | undefined;
  eventId?: string;
  buttons?: (items: readonly T[]) => (Button | undefined)[];
  /** A "Filter…" button opening the list's filter modal (only lists that have one). */
  filterable?: boolean;
  /** An "Export CSV" button: only lists whose every page is free to read again (never a paid search). */
  exportable?: boolean;
}

const SEARCH_WORD_KEYS = new Set(['keywords', 'keyword', 'query', 'text', 'companyUrl', 'targetAudience']);
const KEY_WORDS: Record<string, string> = { eventId: 'event', personnelId: 'person' };

/** `fintech country:Germany` from `{ keywords: 'fintech', country: 'Germany' }`; `Fintech Expo · cto`. */
function describeQuery(query: ListQuery, names: ListInput<unknown>['names'] = {}): string {
  return Object.entries(query)
    .filter(([, value]) => typeof value === 'string' || typeof value === 'number')
    .map(([key, value]) => {
      const name = names[key]?.trim();
      if (name) return name;
      if (SEARCH_WORD_KEYS.has(key)) return String(value);
      const word = KEY_WORDS[key];
      return word ? `${word} ${String(value)}` : `${key}:${String(value)}`;
    })
    .join(' · ');
}

function isPreview(semantics: Semantics | undefined): boolean {
  return semantics?.accessMode === 'preview' || typeof semantics?.previewLimit === 'number';
}

function unlockButton(eventId: string | undefined, semantics: Semantics | undefined) {
  if (!eventId) return undefined;
  const credits = semantics?.unlock?.credits;
  const label = typeof credits === 'number' ? mk`Unlock event · ${formatCredits(credits)}` : 'Unlock event';
  return button(label, ACTION_IDS.listUnlock, { eventId }, { style: 'primary' });
}

/** "Page 4 is beyond the free preview (pages 1–3). Unlock the event to see all 312 matches." */
function inaccessibleMessage(requestedPage: number, semantics: Semantics): Mrkdwn {
  const max = semantics.pageState?.maxAccessiblePage;
  const window =
    typeof max === 'number' && max >= 2
      ? mk`pages 1–${max}`
      : max === 1
        ? 'page 1'
        : mk`the first ${semantics.previewLimit ?? 50} records`;
  const actual = semantics.counts?.actualTotal;
  const all =
    typeof actual === 'number' && actual > 0 ? mk`all ${formatNumber(actual)} matches` : 'all matches';
  return mk`Page ${requestedPage} is beyond the free preview (${window}). Unlock the event to see ${all}.`;
}

/**
 * What this message shows: "Page 1 of 5 · rows 1–10 of 340 (50 free, 290 locked)" while the service
 * reports locked rows, else "Page 2 of 3 · rows 11–20 of 25", or "Page 1 · rows 1–10 of at least 40"
 * when only the first rows of what matched were read.
 */
function pageSummary(page: ListInput<unknown>['page']): Mrkdwn {
  const shown = page.items.length;
  const first = (page.page - 1) * (page.pageSize ?? shown) + 1;
  const rows =
    shown === 1
      ? mk`row ${formatNumber(first)}`
      : mk`rows ${formatNumber(first)}–${formatNumber(first + shown - 1)}`;
  const counts = page.semantics?.counts;
  const locked = counts?.remainingLockedCount ?? 0;
  const total = locked > 0 ? counts?.actualTotal : (page.total ?? counts?.actualTotal);
  const parts = [
    // Of a floor of the rows, the pages are a floor too: not said.
    page.totalPages && !page.capped
      ? mk`Page ${formatNumber(page.page)} of ${formatNumber(page.totalPages)}`
      : mk`Page ${formatNumber(page.page)}`,
    typeof total === 'number' ? mk`${rows} of ${page.capped ? 'at least ' : ''}${formatNumber(total)}` : rows,
  ];
  const split =
    locked > 0 && typeof counts?.visibleTotal === 'number'
      ? mk` (${formatNumber(counts.visibleTotal)} free, ${formatNumber(locked)} locked)`
      : '';
  return mk`${joinMrkdwn(parts, ' · ')}${split}`;
}

/** The card of one page of a list. */
export function listCard<T>(spec: ListSpec<T>): SlackMessage {
  const { input } = spec;
  const { semantics } = input.page;
  const label = input.label ?? describeQuery(input.query, input.names);
  const inaccessible = semantics?.pageState?.accessible === false;
  const pageNumber = inaccessible
    ? (semantics?.pageState?.requestedPage ?? input.page.page)
    : input.page.page;
  const shown = input.page.items.length;
  const summary = !inaccessible && shown > 0 ? pageSummary(input.page) : undefined;

  const title = spec.title(label);
  const head: KnownBlock[] = [header(title)];
  if (summary) head.push(context(summary));

  // Footer first: the rows get whatever room is left under the 50-block limit.
  const footer: KnownBlock[] = [];
  const footerButtons: (Button | undefined)[] = [];
  let body: KnownBlock[] = [];
  if (inaccessible && semantics) {
    body = [section(mk`:lock: ${inaccessibleMessage(pageNumber, semantics)}`)];
    footerButtons.push(unlockButton(spec.eventId, semantics));
  } else if (shown === 0) {
    body = [section(label ? mk`No matches for “${escapeMrkdwn(label)}”.` : 'No matches.')];
  } else if (semantics?.unlock?.requiredForMoreResults) {
    footerButtons.push(unlockButton(spec.eventId, semantics));
  }
  if (!inaccessible) footerButtons.push(...(spec.buttons?.(input.page.items) ?? []));
  if (spec.exportable && !inaccessible && shown > 0)
    footerButtons.push(exportButton({ list: spec.kind, query: input.query, page: pageNumber }));
  if (spec.filterable)
    footerButtons.push(
      button('Filter…', ACTION_IDS.listFilter, { list: spec.kind, query: input.query, page: 1 }),
    );
  const buttonRow = actions(footerButtons, 'list-actions');
  if (buttonRow) footer.push(buttonRow);
  footer.push(...pagingBlocks(spec, pageNumber, inaccessible));

  if (body.length === 0) {
    const budget = LIMITS.blocksPerMessage - head.length - footer.length;
    const { items } = input.page;
    const rows = capRows(
      items.map((item) => {
        const accessory = spec.rowButton?.(item);
        return accessory ? { ...section(spec.row(item)), accessory } : section(spec.row(item));
      }),
      spec.rowActions ? Math.floor(budget / 2) : budget,
      `${spec.noun} on this page`,
    );
    body = rows.flatMap((block, index) => {
      const item = items[index];
      // The last block is the "and N more" note when rows were cut: it has no buttons.
      const buttons = block.type === 'section' && item !== undefined ? spec.rowActions?.(item) : undefined;
      return buttons ? [block, buttons] : [block];
    });
  }

  const text =
    inaccessible && semantics
      ? inaccessibleMessage(pageNumber, semantics)
      : summary
        ? mk`${escapeMrkdwn(title)}: ${summary}.`
        : mk`${escapeMrkdwn(title)}: no matches.`;
  return fitToLimits({ text, blocks: [...head, ...body, ...footer] });
}

/** A `list.page.<suffix>` button: ids must differ within one row, and the `^list\.page` listener takes any. */
function pageButton(label: string, suffix: string, value: ListPageValue): Button | undefined {
  const element = button(label, ACTION_IDS.listPage, value);
  return element && { ...element, action_id: `${ACTION_IDS.listPage}.${suffix}` };
}

/** One row with Previous and / or Next, only those that lead somewhere; none for a single page. */
function pagingBlocks<T>(spec: ListSpec<T>, pageNumber: number, inaccessible: boolean): KnownBlock[] {
  const { input } = spec;
  if (input.pageable === false) return [];
  const { semantics } = input.page;
  const maxAccessible = semantics?.pageState?.maxAccessiblePage;
  const previewBound = isPreview(semantics) && typeof maxAccessible === 'number' ? maxAccessible : undefined;
  const value = (page: number) => ({ list: spec.kind, query: input.query, page });

  const buttons: (Button | undefined)[] = [];
  if (pageNumber > 1) {
    const target =
      inaccessible && previewBound ? Math.min(pageNumber - 1, Math.max(1, previewBound)) : pageNumber - 1;
    buttons.push(pageButton('← Previous', 'previous', value(target)));
  }
  if (input.page.hasMore && !inaccessible && (previewBound === undefined || pageNumber + 1 <= previewBound)) {
    buttons.push(pageButton('Next →', 'next', value(pageNumber + 1)));
  }
  if (buttons.length === 0) return [];
  const row = actions(buttons, 'list-paging');
  // A button is missing only when its value (the query) is over Slack's limit.
  if (row && !buttons.includes(undefined)) return [row];
  const note = context('The query is too long to page through from here; narrow it and run it again.');
  return row ? [row, note] : [note];
}

/** A title with the query in words after it, when there is one (`Events: fintech`). */
export const titled = (title: string) => (label: string) => (label ? `${title}: ${label}` : title);
