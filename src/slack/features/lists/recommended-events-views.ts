import type { RecommendedEvent } from '../../../eis/index.ts';
import {
  code,
  formatLink,
  formatNumber,
  formatPlace,
  formatShowDates,
  outOfTen,
  plural,
} from '../../views/format.ts';
import { type ListInput, listCard } from './list-card.ts';
import type { SlackMessage } from '../../views/types.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn, truncate } from '../../views/mrkdwn.ts';
import { eventButtons, compareButton } from '../../kit/row-buttons.ts';

/** A match score as the service gives it (0–1, as in the OpenAPI's examples), out of 10. */
function matchOutOfTen(score: number | null): Mrkdwn | undefined {
  if (score === null) return undefined;
  return mk`Match *${outOfTen(score <= 1 ? score * 10 : score)}*`;
}

/** The service's reason for a recommendation, as it gave it; where it gave none, the row says so. */
export function reasonLine(reason: string | null | undefined): Mrkdwn {
  const given = reason?.trim();
  return given ? mk`Why: ${escapeMrkdwn(truncate(given, 300))}` : mk`_No reason given by the service._`;
}

/**
 * One recommended event: its rank and match score, when and where, what matched (exhibitors and
 * people like you), whether this account has unlocked it, and the service's reason.
 */
function recommendedEventRow(event: RecommendedEvent, today: string | undefined): Mrkdwn {
  const name = event.name?.trim() || `Event ${event.eventId}`;
  const title = formatLink(event.url, name) || escapeMrkdwn(name);
  const scored = [mk`#${formatNumber(event.rank)}`, matchOutOfTen(event.match_score)].filter(Boolean);
  const dates = formatShowDates(event, today);
  const facts = [dates, formatPlace(event)].filter(Boolean);
  const matched = [
    plural(event.matched_exhibitor_count, 'matching exhibitor'),
    plural(event.matched_personnel_count, 'matching person', 'matching people'),
  ];
  if (event.unlocked) matched.push(mk`Unlocked`);
  const lines = [
    mk`${joinMrkdwn(scored, ' · ')}  *${title}*  ${code(event.eventId)}`,
    joinMrkdwn(facts, ' · '),
    joinMrkdwn(matched, ' · '),
  ];
  lines.push(reasonLine(event.relevanceReason));
  return joinMrkdwn(lines.filter(Boolean), '\n');
}

/**
 * Trade shows recommended for a company or an audience (`shows-for`), best first, paged, each with
 * Fit / Exhibitors / People. Free.
 */
export function recommendedEventList(input: ListInput<RecommendedEvent>): SlackMessage {
  return listCard({
    kind: 'shows-for',
    title: (label) => (label ? `Shows for ${label}` : 'Recommended shows'),
    noun: 'events',
    input,
    row: (event) => recommendedEventRow(event, input.today),
    rowActions: (event) => eventButtons(event, input.today),
    buttons: (events) => [compareButton(events)],
  });
}
