import type { KnownBlock } from '@slack/types';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { actions, button, context, fieldsSection, header, section } from '../../views/blocks.ts';
import { code, formatLink, formatNumber, formatPlace, formatShowDates } from '../../views/format.ts';
import { fitToLimits } from '../../views/limits.ts';
import type { EventSummary, SlackMessage } from '../../views/types.ts';
import { escapeMrkdwn, joinMrkdwn, mk, truncate } from '../../views/mrkdwn.ts';

export interface EventDetailInput extends EventSummary {
  description?: string | null;
  nickname?: string | null;
}

/** `/events show`: the event's facts and what to do next; a show over by `today` (`YYYY-MM-DD`) is marked past. */
export function eventCard(event: EventDetailInput, today?: string): SlackMessage {
  const name = event.name?.trim() || event.nickname?.trim() || `Event ${event.eventId}`;
  const dates = formatShowDates(event, today);
  const place = formatPlace(event);
  const facts = [
    mk`*When*\n${dates}`,
    mk`*Where*\n${place || 'Place not announced'}`,
    mk`*Exhibitors*\n${typeof event.exhibitorCount === 'number' ? formatNumber(event.exhibitorCount) : 'Not known'}`,
  ];
  if (typeof event.hasVisitors === 'boolean') {
    facts.push(mk`*Visitor data*\n${event.hasVisitors ? 'Available (separate unlock)' : 'Not available'}`);
  }
  const value = { eventId: event.eventId };
  const blocks: (KnownBlock | undefined)[] = [
    header(name),
    event.description ? section(escapeMrkdwn(truncate(event.description, 1500))) : undefined,
    fieldsSection(facts),
    context(
      joinMrkdwn(
        [mk`Event ID ${code(event.eventId)}`, formatLink(event.url, 'Event website')].filter(Boolean),
        ' · ',
      ),
    ),
    actions([
      button('Fit score', ACTION_IDS.eventFit, value, { style: 'primary' }),
      button('Exhibitors', ACTION_IDS.fitExhibitors, value),
      button('People', ACTION_IDS.fitPeople, value),
      button('Unlock event', ACTION_IDS.fitUnlock, value),
    ]),
  ];
  const text = mk`${escapeMrkdwn(name)}: ${dates}${place ? mk`, ${place}` : ''}.`;
  return fitToLimits({ text, blocks: blocks.filter((block) => block !== undefined) });
}
