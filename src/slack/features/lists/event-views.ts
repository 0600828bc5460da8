import { actions } from '../../views/blocks.ts';
import { eventLeadsOn, compareButton } from '../../kit/row-buttons.ts';
import {
  code,
  formatLink,
  formatNumber,
  formatPlace,
  formatShowDates,
  joinPresent,
} from '../../views/format.ts';
import { andMore } from '../../views/limits.ts';
import type { EventSummary, SlackMessage } from '../../views/types.ts';
import { type ListInput, listCard, titled } from './list-card.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn } from '../../views/mrkdwn.ts';

/** The cards of event lists: event search (events.ts) and a person's events (person-events.ts). */

/** A search of several words says which words each show matched (src/domain/event-search.ts). */
type ListedEvent = EventSummary & { matchedWords?: readonly string[] };

function eventRow(event: ListedEvent, today: string | undefined): Mrkdwn {
  const name = event.name?.trim() || `Event ${event.eventId}`;
  const title = formatLink(event.url, name) || escapeMrkdwn(name);
  const facts = [formatShowDates(event, today)];
  const place = formatPlace(event);
  if (place) facts.push(place);
  if (typeof event.exhibitorCount === 'number') {
    facts.push(
      mk`${formatNumber(event.exhibitorCount)} ${event.exhibitorCount === 1 ? 'exhibitor' : 'exhibitors'}`,
    );
  }
  const lines = [mk`*${title}*  ${code(event.eventId)}`, joinMrkdwn(facts, ' · ')];
  if (event.matchedWords?.length) lines.push(mk`Matches: ${escapeMrkdwn(event.matchedWords.join(', '))}`);
  const matched = event.matchedExhibitors ?? [];
  if (matched.length > 0) {
    const names = joinPresent(
      matched.slice(0, 5).map((exhibitor) => exhibitor.companyName),
      ', ',
    );
    lines.push(mk`Exhibiting: ${names}${matched.length > 5 ? mk` ${andMore(matched.length - 5)}` : ''}`);
  }
  return joinMrkdwn(lines, '\n');
}

/**
 * Event search results (`search`), each row with Fit / Exhibitors / People / Add to plan under it;
 * also company → events (`company`, pass `pageable: false`), whose rows have no buttons: a paid page
 * shows all its rows (40), and a row of buttons each would pass Slack's 50 blocks.
 */
export function eventList(input: ListInput<ListedEvent>): SlackMessage {
  const paid = input.pageable === false;
  return listCard({
    kind: 'events',
    title: titled('Events'),
    noun: 'events',
    input,
    row: (event) => eventRow(event, input.today),
    ...(paid ? {} : { rowActions: (event: EventSummary) => actions(eventLeadsOn(event, input.today)) }),
    // Company → events is charged per request: filtering it would charge again.
    filterable: !paid,
    exportable: !paid,
    // A paid page holds 40 rows: compare reads shows from a free list's page.
    ...(paid ? {} : { buttons: (events: readonly EventSummary[]) => [compareButton(events)] }),
  });
}

/** Events linked to one person (`person-events`), or people of one name (`who`, pass `pageable: false`). */
export function personEventList(input: ListInput<EventSummary>): SlackMessage {
  return listCard({
    kind: 'person-events',
    title: (label) => (label ? `Events for ${label}` : 'Events for this person'),
    noun: 'events',
    input,
    row: (event) => eventRow(event, input.today),
    // People of one name (`who`) is charged per request: exporting it would charge again.
    exportable: input.pageable !== false,
  });
}
