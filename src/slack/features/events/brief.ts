import type { KnownBlock } from '@slack/types';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { actions, button, context, fieldsSection, header, section } from '../../views/blocks.ts';
import {
  code,
  formatLink,
  formatNumber,
  formatPlace,
  formatShowDates,
  joinPresent,
} from '../../views/format.ts';
import { fitToLimits } from '../../views/limits.ts';
import type { EventSummary, SlackMessage } from '../../views/types.ts';
import { escapeMrkdwn, joinMrkdwn, mk } from '../../views/mrkdwn.ts';

/** The event brief (OpenAPI getEventBrief): the summary plus coverage counts. */
export interface EventBriefInput {
  event: EventSummary & { nickname?: string | null };
  summary: {
    attendeeCount?: number | null;
    exhibitorCount?: number;
    topCategories?: readonly string[];
    dataFreshness?: string;
  };
}

const count = (value: number | null | undefined) =>
  typeof value === 'number' ? formatNumber(value) : 'Not known';

/**
 * `/events brief <event_id>`: the lightweight summary, with Fit / Exhibitors / People; a show over by
 * `today` (`YYYY-MM-DD`) is marked past.
 */
export function briefCard({ event, summary }: EventBriefInput, today?: string): SlackMessage {
  const name = event.name?.trim() || event.nickname?.trim() || `Event ${event.eventId}`;
  const dates = formatShowDates(event, today);
  const place = formatPlace(event);
  const categories = summary.topCategories ?? [];
  const value = { eventId: event.eventId };
  const blocks: (KnownBlock | undefined)[] = [
    header(name),
    fieldsSection([
      mk`*When*\n${dates}`,
      mk`*Where*\n${place || 'Place not announced'}`,
      mk`*Exhibitors*\n${count(summary.exhibitorCount ?? event.exhibitorCount)}`,
      mk`*Attendees*\n${count(summary.attendeeCount)}`,
    ]),
    categories.length > 0 ? section(mk`*Top categories:* ${joinPresent(categories.slice(0, 8))}`) : undefined,
    context(
      joinMrkdwn(
        [
          mk`Event ID ${code(event.eventId)}`,
          summary.dataFreshness ? mk`Data: ${escapeMrkdwn(summary.dataFreshness.replace(/_/g, ' '))}` : mk``,
          formatLink(event.url, 'Event website'),
        ].filter(Boolean),
        ' · ',
      ),
    ),
    actions([
      button('Fit score', ACTION_IDS.eventFit, value, { style: 'primary' }),
      button('Exhibitors', ACTION_IDS.fitExhibitors, value),
      button('People', ACTION_IDS.fitPeople, value),
    ]),
  ];
  const text = mk`${escapeMrkdwn(name)}: ${dates}${place ? mk`, ${place}` : ''}.`;
  return fitToLimits({ text, blocks: blocks.filter((block) => block !== undefined) });
}
