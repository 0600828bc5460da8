import { ACTION_IDS } from '../../views/action-ids.ts';
import { button } from '../../views/blocks.ts';
import { code, formatLink, joinPresent, plural } from '../../views/format.ts';
import type { ExhibitorSummary, RecommendedExhibitor, SlackMessage } from '../../views/types.ts';
import { type EventScopedListInput, type ListInput, listCard, titled } from './list-card.ts';
import { reasonLine } from './recommended-events-views.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn } from '../../views/mrkdwn.ts';
import { ExhibitorValueSchema } from '../../kit/row-buttons.ts';

/**
 * The cards of exhibitor lists: an event's exhibitors (exhibitors.ts), exhibitor records by company
 * name, exhibitors like a company (similar.ts) and recommended exhibitors (recommend.ts). Each row
 * of the first three shows its exhibitor id, with Account beside it.
 */

function employees(count: number | null | undefined): Mrkdwn | undefined {
  return typeof count === 'number' ? plural(count, 'employee') : undefined;
}

/** An exhibitor row, ending in its id (the id `/events account` takes). */
function exhibitorRow(exhibitor: ExhibitorSummary): Mrkdwn {
  const facts = [
    joinPresent([exhibitor.industry, exhibitor.country], ' · '),
    employees(exhibitor.employeeCount),
    formatLink(exhibitor.website ?? exhibitor.domain),
  ].filter(Boolean);
  const star = exhibitor.isRecommended ? '  :star: Recommended for you' : '';
  return joinMrkdwn(
    [
      mk`*${escapeMrkdwn(exhibitor.companyName)}*${star}`,
      joinMrkdwn(facts, ' · '),
      mk`Exhibitor ID ${code(exhibitor.id)}`,
    ].filter(Boolean),
    '\n',
  );
}

/**
 * Account beside an exhibitor row: the free `/events account <id>`, the way from a row to the
 * company's profile. None for an id the command would refuse.
 */
function accountButton({ id }: ExhibitorSummary) {
  const value = ExhibitorValueSchema.safeParse({ exhibitorId: id });
  return value.success ? button('Account', ACTION_IDS.accountOpen, value.data) : undefined;
}

function recommendedRow(exhibitor: RecommendedExhibitor): Mrkdwn {
  const size =
    employees(exhibitor.employeeCount) ??
    (exhibitor.companySize ? escapeMrkdwn(exhibitor.companySize) : undefined);
  const facts = [
    joinPresent([exhibitor.industry, exhibitor.country], ' · '),
    size,
    formatLink(exhibitor.website),
  ].filter(Boolean);
  const lines = [mk`*${escapeMrkdwn(exhibitor.companyName)}*`, joinMrkdwn(facts, ' · ')];
  const categories = exhibitor.categories ?? [];
  if (categories.length > 0) lines.push(mk`Tags: ${joinPresent(categories.slice(0, 4))}`);
  const given = exhibitor.reason?.trim();
  // The service gives a reason once its matching is ready; while it still matches, the row says so.
  const matching = !given && exhibitor.matchStatus === 'processing';
  lines.push(matching ? mk`_No reason given by the service yet: it is still matching._` : reasonLine(given));
  return joinMrkdwn(lines.filter(Boolean), '\n');
}

/** Exhibitors of one event, preview-gated until the event is unlocked. */
export function exhibitorList(input: EventScopedListInput<ExhibitorSummary>): SlackMessage {
  return listCard({
    kind: 'exhibitors',
    title: titled('Exhibitors'),
    noun: 'exhibitors',
    input,
    row: exhibitorRow,
    rowButton: accountButton,
    eventId: input.eventId,
    filterable: true,
    exportable: true,
  });
}

/** Exhibitor records by company name (`exhibitor`, charged: pass `pageable: false`). */
export function companyExhibitorList(input: ListInput<ExhibitorSummary>): SlackMessage {
  return listCard({
    kind: 'exhibitors',
    title: titled('Exhibitor records'),
    noun: 'exhibitors',
    input,
    row: exhibitorRow,
    rowButton: accountButton,
  });
}

/** Exhibitors like a company or audience (`similar`). */
export function similarExhibitorList(input: ListInput<ExhibitorSummary>): SlackMessage {
  return listCard({
    kind: 'similar',
    title: (label) => (label ? `Exhibitors like ${label}` : 'Similar exhibitors'),
    noun: 'exhibitors',
    input,
    row: exhibitorRow,
    rowButton: accountButton,
    exportable: true,
  });
}

/** Recommended exhibitors of one event for the caller's profile (`recommend`). */
export function recommendedExhibitorList(input: ListInput<RecommendedExhibitor>): SlackMessage {
  return listCard({
    kind: 'recommend',
    title: titled('Recommended exhibitors'),
    noun: 'exhibitors',
    input,
    row: recommendedRow,
    exportable: true,
  });
}
