import type { Button, KnownBlock } from '@slack/types';
import type { ListKind, ListPageValue, ListQuery } from './buttons.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { exportButton } from './export-views.ts';
import { actions, button, context, header, section } from '../../views/blocks.ts';
import {
  code,
  formatCredits,
  formatDateRange,
  formatLink,
  formatNumber,
  formatPlace,
  joinPresent,
} from '../../views/format.ts';
import { andMore, capRows, escapeMrkdwn, fitToLimits, LIMITS, truncate } from '../../views/limits.ts';
import type {
  EventSummary,
  ExhibitorSummary,
  ListPage,
  PersonnelItem,
  RecommendedExhibitor,
  Semantics,
  SlackMessage,
} from '../../views/types.ts';
import { NAMED_ON_A_CARD, plural } from '../charges/charge-words.ts';

export interface ListInput<T> {
  /** A service page; `pageSize` places its rows (`rows 11–20`), else the page is taken as full. */
  page: ListPage<T> & { pageSize?: number };
  /** Embedded as given in the Previous / Next buttons, for the page listener to run again. */
  query: ListQuery;
  /** The query in words for the title (`fintech country:Germany`); defaults to the query's values. */
  label?: string;
  /** Names for ids in the query (`{ eventId: 'Fintech Expo' }`), shown instead of the id in the title. */
  names?: Readonly<Record<string, string | undefined>>;
  /** `false` for searches charged per request: no Previous / Next, which would charge again. */
  pageable?: boolean;
}

/** Event-scoped lists: `eventId` is what the unlock button unlocks. */
export interface EventScopedListInput<T> extends ListInput<T> {
  eventId: string;
}

/** `contacts` pages through a set of people named on a card (see `showAllPeopleButton`). */

interface ListSpec<T> {
  kind: ListKind;
  /** The title, with the query in words when there is one. */
  title: (label: string) => string;
  noun: string;
  input: ListInput<T>;
  row: (item: T) => string;
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
  const label = typeof credits === 'number' ? `Unlock event · ${formatCredits(credits)}` : 'Unlock event';
  return button(label, ACTION_IDS.listUnlock, { eventId }, { style: 'primary' });
}

/** "Page 4 is beyond the free preview (pages 1–3). Unlock the event to see all 312 matches." */
function inaccessibleMessage(requestedPage: number, semantics: Semantics): string {
  const max = semantics.pageState?.maxAccessiblePage;
  const window =
    typeof max === 'number' && max >= 2
      ? `pages 1–${max}`
      : max === 1
        ? 'page 1'
        : `the first ${semantics.previewLimit ?? 50} records`;
  const actual = semantics.counts?.actualTotal;
  const all =
    typeof actual === 'number' && actual > 0 ? `all ${formatNumber(actual)} matches` : 'all matches';
  return `Page ${requestedPage} is beyond the free preview (${window}). Unlock the event to see ${all}.`;
}

/**
 * What this message shows: "Page 1 of 5 · rows 1–10 of 340 (50 free, 290 locked)" while the service
 * reports locked rows, else "Page 2 of 3 · rows 11–20 of 25".
 */
function pageSummary(page: ListInput<unknown>['page']): string {
  const shown = page.items.length;
  const first = (page.page - 1) * (page.pageSize ?? shown) + 1;
  const rows =
    shown === 1
      ? `row ${formatNumber(first)}`
      : `rows ${formatNumber(first)}–${formatNumber(first + shown - 1)}`;
  const counts = page.semantics?.counts;
  const locked = counts?.remainingLockedCount ?? 0;
  const total = locked > 0 ? counts?.actualTotal : (page.total ?? counts?.actualTotal);
  const parts = [
    page.totalPages
      ? `Page ${formatNumber(page.page)} of ${formatNumber(page.totalPages)}`
      : `Page ${formatNumber(page.page)}`,
    typeof total === 'number' ? `${rows} of ${formatNumber(total)}` : rows,
  ];
  const split =
    locked > 0 && typeof counts?.visibleTotal === 'number'
      ? ` (${formatNumber(counts.visibleTotal)} free, ${formatNumber(locked)} locked)`
      : '';
  return `${parts.join(' · ')}${split}`;
}

function renderList<T>(spec: ListSpec<T>): SlackMessage {
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
    body = [section(`:lock: ${inaccessibleMessage(pageNumber, semantics)}`)];
    footerButtons.push(unlockButton(spec.eventId, semantics));
  } else if (shown === 0) {
    body = [section(label ? `No matches for “${escapeMrkdwn(label)}”.` : 'No matches.')];
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
        ? `${escapeMrkdwn(title)}: ${summary}.`
        : `${escapeMrkdwn(title)}: no matches.`;
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

/**
 * "Show all" for a card that names a large set of people: opens, privately, a list that pages through
 * every one of them by name, so no card falls back to bare ids.
 */
export function showAllPeopleButton(personnelIds: readonly string[]): Button | undefined {
  if (personnelIds.length <= NAMED_ON_A_CARD) return undefined;
  const value = { list: 'contacts', query: { personnelIds: [...personnelIds] }, page: 1 };
  return button(`Show all ${formatNumber(personnelIds.length)}`, ACTION_IDS.showAllPeople, value);
}

// ---------- rows ----------

function eventRow(event: EventSummary): string {
  const name = event.name?.trim() || `Event ${event.eventId}`;
  const title = formatLink(event.url, name) || escapeMrkdwn(name);
  const facts = [formatDateRange(event.dateStart, event.dateEnd)];
  const place = formatPlace(event);
  if (place) facts.push(place);
  if (typeof event.exhibitorCount === 'number') {
    facts.push(
      `${formatNumber(event.exhibitorCount)} ${event.exhibitorCount === 1 ? 'exhibitor' : 'exhibitors'}`,
    );
  }
  const lines = [`*${title}*  ${code(event.eventId)}`, facts.join(' · ')];
  const matched = event.matchedExhibitors ?? [];
  if (matched.length > 0) {
    const names = joinPresent(
      matched.slice(0, 5).map((exhibitor) => exhibitor.companyName),
      ', ',
    );
    lines.push(`Exhibiting: ${names}${matched.length > 5 ? ` ${andMore(matched.length - 5)}` : ''}`);
  }
  return lines.join('\n');
}

function employees(count: number | null | undefined): string | undefined {
  return typeof count === 'number' ? `${formatNumber(count)} employees` : undefined;
}

function exhibitorRow(exhibitor: ExhibitorSummary): string {
  const facts = [
    joinPresent([exhibitor.industry, exhibitor.country], ' · '),
    employees(exhibitor.employeeCount),
    formatLink(exhibitor.website ?? exhibitor.domain),
  ].filter(Boolean);
  const star = exhibitor.isRecommended ? '  :star: Recommended for you' : '';
  return [`*${escapeMrkdwn(exhibitor.companyName)}*${star}`, facts.join(' · ')].filter(Boolean).join('\n');
}

function recommendedRow(exhibitor: RecommendedExhibitor): string {
  const size =
    employees(exhibitor.employeeCount) ?? (exhibitor.companySize ? escapeMrkdwn(exhibitor.companySize) : '');
  const facts = [
    joinPresent([exhibitor.industry, exhibitor.country], ' · '),
    size,
    formatLink(exhibitor.website),
  ].filter(Boolean);
  const lines = [`*${escapeMrkdwn(exhibitor.companyName)}*`, facts.join(' · ')];
  const categories = exhibitor.categories ?? [];
  if (categories.length > 0) lines.push(`Tags: ${joinPresent(categories.slice(0, 4))}`);
  if (exhibitor.reason?.trim()) lines.push(`Why: ${escapeMrkdwn(truncate(exhibitor.reason.trim(), 300))}`);
  return lines.filter(Boolean).join('\n');
}

const SOURCE_LABELS: Record<string, string> = {
  exhibitor: 'Exhibitor',
  social: 'Social Signals',
  visitors: 'Visitor',
};

function sourceLabels(sourceType: PersonnelItem['sourceType']): string {
  const sources = typeof sourceType === 'string' ? sourceType.split(',') : (sourceType ?? []);
  return sources
    .map((source) => source.trim())
    .filter(Boolean)
    .map((source) => SOURCE_LABELS[source] ?? escapeMrkdwn(source))
    .join(', ');
}

function emailStatus(person: PersonnelItem): string {
  if (person.email?.trim()) return `:email: ${escapeMrkdwn(person.email.trim())}`;
  switch (person.contactUnlockStatus) {
    case 'unlocked':
      return 'Email unlocked (none on file)';
    case 'unlocking':
      return ':hourglass_flowing_sand: Email unlocking…';
    case 'failed':
      return 'Email unlock failed';
    case 'locked':
    case undefined:
      return ':lock: Email locked';
    default:
      return `Email ${escapeMrkdwn(person.contactUnlockStatus)}`;
  }
}

function personRow(person: PersonnelItem): string {
  const role = joinPresent([person.title, person.companyName]);
  const facts = [sourceLabels(person.sourceType), `ID ${code(person.id)}`, emailStatus(person)].filter(
    Boolean,
  );
  return [`*${escapeMrkdwn(person.fullName)}*${role ? ` — ${role}` : ''}`, facts.join(' · ')].join('\n');
}

// ---------- builders ----------

const titled = (title: string) => (label: string) => (label ? `${title}: ${label}` : title);

/** Event search results (`search`); also company → events (`company`, pass `pageable: false`). */
export function eventList(input: ListInput<EventSummary>): SlackMessage {
  return renderList({
    kind: 'events',
    title: titled('Events'),
    noun: 'events',
    input,
    row: eventRow,
    // Company → events is charged per request: filtering it would charge again.
    filterable: input.pageable !== false,
    exportable: input.pageable !== false,
  });
}

/** Events linked to one person (`person-events`), or people of one name (`who`, pass `pageable: false`). */
export function personEventList(input: ListInput<EventSummary>): SlackMessage {
  return renderList({
    kind: 'person-events',
    title: (label) => (label ? `Events for ${label}` : 'Events for this person'),
    noun: 'events',
    input,
    row: eventRow,
    // People of one name (`who`) is charged per request: exporting it would charge again.
    exportable: input.pageable !== false,
  });
}

/** Exhibitors of one event, preview-gated until the event is unlocked. */
export function exhibitorList(input: EventScopedListInput<ExhibitorSummary>): SlackMessage {
  return renderList({
    kind: 'exhibitors',
    title: titled('Exhibitors'),
    noun: 'exhibitors',
    input,
    row: exhibitorRow,
    eventId: input.eventId,
    filterable: true,
    exportable: true,
  });
}

/** Exhibitor records by company name (`exhibitor`, charged: pass `pageable: false`). */
export function companyExhibitorList(input: ListInput<ExhibitorSummary>): SlackMessage {
  return renderList({
    kind: 'exhibitors',
    title: titled('Exhibitor records'),
    noun: 'exhibitors',
    input,
    row: (exhibitor) => `${exhibitorRow(exhibitor)}\nExhibitor ID ${code(exhibitor.id)}`,
    // The way from a company name to its profile: Account runs the free `/events account <id>`.
    rowButton: ({ id }) => button('Account', ACTION_IDS.accountOpen, { exhibitorId: id }),
  });
}

/** Exhibitors like a company or audience (`similar`). */
export function similarExhibitorList(input: ListInput<ExhibitorSummary>): SlackMessage {
  return renderList({
    kind: 'similar',
    title: (label) => (label ? `Exhibitors like ${label}` : 'Similar exhibitors'),
    noun: 'exhibitors',
    input,
    row: exhibitorRow,
    exportable: true,
  });
}

/** Recommended exhibitors of one event for the caller's profile (`recommend`). */
export function recommendedExhibitorList(input: ListInput<RecommendedExhibitor>): SlackMessage {
  return renderList({
    kind: 'recommend',
    title: titled('Recommended exhibitors'),
    noun: 'exhibitors',
    input,
    row: recommendedRow,
    exportable: true,
  });
}

/** People of one event, preview-gated, with contact unlock buttons for the people shown. */
export function peopleList(input: EventScopedListInput<PersonnelItem>): SlackMessage {
  return renderList({
    kind: 'people',
    title: titled('People'),
    noun: 'people',
    input,
    row: personRow,
    eventId: input.eventId,
    filterable: true,
    exportable: true,
    buttons: (people) => {
      const lockedEmails = people
        .filter((person) => person.contactUnlockStatus !== 'unlocked')
        .map(({ id }) => id);
      // Personnel items carry no phone status, so every person shown can be asked for. No price on the
      // button: only the precheck knows it (some contacts are free or not linked), and the confirmation
      // card shows that one price.
      const phones = people.map(({ id }) => id);
      return contactUnlockButtons({ emails: lockedEmails, phones, eventId: input.eventId });
    },
  });
}

/**
 * Unlock emails… / Unlock phone numbers… for the people given, each only when someone is left to
 * unlock; `eventId` rides along when the people came from an event's list.
 */
export function contactUnlockButtons(people: {
  emails: readonly string[];
  phones: readonly string[];
  eventId?: string;
}): (Button | undefined)[] {
  const { emails, phones, eventId } = people;
  const scope = eventId === undefined ? {} : { eventId };
  return [
    emails.length > 0
      ? button(`Unlock ${plural(emails.length, 'email', 'emails')}…`, ACTION_IDS.peopleEmails, {
          personnelIds: emails,
          ...scope,
        })
      : undefined,
    phones.length > 0
      ? button(`Unlock ${plural(phones.length, 'phone number', 'phone numbers')}…`, ACTION_IDS.peoplePhones, {
          personnelIds: phones,
          ...scope,
        })
      : undefined,
  ];
}

/** The people a card named, all of them, page by page (`showAllPeopleButton`). */
export function contactList(input: ListInput<PersonnelItem>): SlackMessage {
  return renderList({
    kind: 'contacts',
    title: () => 'Contacts',
    noun: 'people',
    input,
    row: personRow,
    exportable: true,
  });
}

/** The list card builder, for list views kept in their own files (`recommended-events.ts`). */
export type { ListSpec };
export const listCard = <T>(spec: ListSpec<T>): SlackMessage => renderList(spec);
