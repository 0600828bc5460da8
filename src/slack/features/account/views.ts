import type { KnownBlock } from '@slack/types';
import { isPastShow } from '../../../domain/past-show.ts';
import { eventButtons } from '../../kit/row-buttons.ts';
import { context, header, section } from '../../views/blocks.ts';
import {
  code,
  formatShowDates,
  formatLink,
  formatNumber,
  formatPlace,
  joinPresent,
  plural,
} from '../../views/format.ts';
import { fitToLimits } from '../../views/limits.ts';
import type { EventSummary, SlackMessage } from '../../views/types.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn, truncate } from '../../views/mrkdwn.ts';

/** Events shown on one account or LinkedIn card, each with its own row of buttons (two blocks). */
export const EVENTS_ON_A_CARD = 8;

/** The exhibitor profile members the card reads (OpenAPI ExhibitorProfile). */
export interface AccountProfile {
  id: string;
  companyName: string;
  description?: string | null;
  industry?: string | null;
  country?: string | null;
  employeeCount?: number | null;
  website?: string | null;
  domain?: string | null;
  linkedinUrl?: string | null;
  fundingRound?: string | null;
  categories?: readonly string[];
}

/** A page of a company's or a person's events: only the count and the rows are read. */
export interface RelatedEvents {
  items: readonly EventSummary[];
  total?: number;
}

/**
 * Upcoming events first, soonest first (an event still running counts as upcoming); then past events,
 * latest first; events without dates last. `today` is `YYYY-MM-DD` (UTC).
 */
export function upcomingFirst<T extends EventSummary>(events: readonly T[], today: string): T[] {
  const rank = (event: T) => (!event.dateStart ? 2 : isPastShow(event, today) ? 1 : 0);
  return [...events].sort((a, b) => {
    const byRank = rank(a) - rank(b);
    if (byRank !== 0) return byRank;
    const [x, y] = [a.dateStart ?? '', b.dateStart ?? ''];
    return rank(a) === 0 ? x.localeCompare(y) : y.localeCompare(x);
  });
}

/** One event: its name, dates and place, and Fit / Exhibitors / People for it. */
function eventBlocks(event: EventSummary, today: string): KnownBlock[] {
  const name = event.name?.trim() || `Event ${event.eventId}`;
  const title = formatLink(event.url, name) || escapeMrkdwn(name);
  const facts = [formatShowDates(event, today), formatPlace(event)];
  if (typeof event.exhibitorCount === 'number')
    facts.push(plural(event.exhibitorCount, 'exhibitor'));
  const row = eventButtons(event, today);
  const text = mk`*${title}*  ${code(event.eventId)}\n${joinMrkdwn(facts.filter(Boolean), ' · ')}`;
  return row ? [section(text), row] : [section(text)];
}

/** The events part of a card: the first `EVENTS_ON_A_CARD`, upcoming first, and how many more. */
export function eventSection(events: RelatedEvents, today: string, none: Mrkdwn): KnownBlock[] {
  const sorted = upcomingFirst(events.items, today);
  if (sorted.length === 0) return [section(none)];
  const total = Math.max(events.total ?? sorted.length, sorted.length);
  const shown = sorted.slice(0, EVENTS_ON_A_CARD);
  const upcoming = sorted.filter((event) => event.dateStart && !isPastShow(event, today)).length;
  const summary = mk`${formatNumber(total)} ${total === 1 ? 'event' : 'events'} · ${formatNumber(upcoming)} upcoming${
    total > shown.length ? mk` · the first ${shown.length} shown` : ''
  }`;
  return [context(summary), ...shown.flatMap((event) => eventBlocks(event, today))];
}

/** `/events account <exhibitor id>`: the company profile and the events it exhibits at, upcoming first. */
export function accountCard(profile: AccountProfile, events: RelatedEvents, today: string): SlackMessage {
  const facts = [
    joinPresent([profile.industry, profile.country], ' · '),
    typeof profile.employeeCount === 'number'
      ? plural(profile.employeeCount, 'employee')
      : undefined,
    profile.fundingRound ? escapeMrkdwn(profile.fundingRound) : undefined,
    formatLink(profile.website ?? profile.domain),
    formatLink(profile.linkedinUrl, 'LinkedIn'),
  ].filter(Boolean);
  const categories = profile.categories ?? [];
  const blocks: KnownBlock[] = [header(profile.companyName)];
  if (facts.length > 0) blocks.push(section(joinMrkdwn(facts, ' · ')));
  if (profile.description?.trim())
    blocks.push(section(escapeMrkdwn(truncate(profile.description.trim(), 600))));
  blocks.push(
    context(
      joinMrkdwn(
        [
          mk`Exhibitor ID ${code(profile.id)}`,
          categories.length > 0 ? joinPresent(categories.slice(0, 5)) : undefined,
        ].filter(Boolean),
        ' · ',
      ),
    ),
  );
  blocks.push(...eventSection(events, today, mk`No events on record for this company.`));
  const next = upcomingFirst(events.items, today)[0];
  const text = mk`${escapeMrkdwn(profile.companyName)}: ${formatNumber(Math.max(events.total ?? 0, events.items.length))} events${
    next ? mk`, next ${escapeMrkdwn(next.name?.trim() || next.eventId)}` : ''
  }.`;
  return fitToLimits({ text, blocks });
}

/** The person a LinkedIn address resolved to (OpenAPI ContactItem). */
export interface LinkedinPerson {
  id: string;
  fullName?: string | null;
  title?: string | null;
  companyName?: string | null;
  linkedinUrl?: string | null;
}

/** `/events linkedin <url>`: who the address is, and their events, upcoming first. */
export function linkedinCard(person: LinkedinPerson, events: RelatedEvents, today: string): SlackMessage {
  const name = person.fullName?.trim() || `Person ${person.id}`;
  const role = joinPresent([person.title, person.companyName]);
  const blocks: KnownBlock[] = [
    header(name),
    context(
      joinMrkdwn(
        [role, mk`ID ${code(person.id)}`, formatLink(person.linkedinUrl, 'LinkedIn')].filter(Boolean),
        ' · ',
      ),
    ),
    ...eventSection(events, today, mk`No events on record for this person.`),
  ];
  const total = Math.max(events.total ?? 0, events.items.length);
  return fitToLimits({ text: mk`${escapeMrkdwn(name)}: ${plural(total, 'event')}.`, blocks });
}
