import type { KnownBlock } from '@slack/types';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { actions, button, context, section } from '../../views/blocks.ts';
import { type FitBand, fitBand, scoreBar, FIT_PROFILE_SHORT } from '../../views/fit-band.ts';
import type { EventBriefInput } from '../events/index.ts';
import { code, formatPlace, formatShowDates, plural } from '../../views/format.ts';
import { fitToLimits } from '../../views/limits.ts';
import type { FitScoreResult, SlackMessage } from '../../views/types.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn } from '../../views/mrkdwn.ts';

const BAND_MARK: Record<FitBand, string> = {
  Recommended: ':large_green_circle:',
  Consider: ':large_yellow_circle:',
  'Not recommended': ':red_circle:',
};

/** "1,204 exhibitors · 35,000 attendees": the brief's counts the service knows. */
function countsOf({ event, summary }: EventBriefInput): Mrkdwn {
  const exhibitors = summary.exhibitorCount ?? event.exhibitorCount;
  return joinMrkdwn(
    [
      typeof exhibitors === 'number' ? plural(exhibitors, 'exhibitor') : undefined,
      typeof summary.attendeeCount === 'number' ? plural(summary.attendeeCount, 'attendee') : undefined,
    ].filter(Boolean),
    ' · ',
  );
}

/**
 * The compact fit card an event link unfolds into: name, dates, place and counts (from the brief,
 * when it came), score and band, and the fit card's own buttons (the same action ids, so a click does
 * what it does on `/events fit`). A show over by `today` (`YYYY-MM-DD`) is marked past.
 */
export function eventUnfurl(
  fit: FitScoreResult,
  brief: EventBriefInput | null = null,
  today?: string,
): SlackMessage {
  const event = { ...fit.event, ...brief?.event };
  const score = Number.isFinite(fit.score) ? Math.min(10, Math.max(0, fit.score)) : 0;
  const scoreText = mk`${escapeMrkdwn(score.toFixed(1))} / 10`;
  const band = fitBand(score, fit.recommendation);
  const name = event.name?.trim() || fit.event.name?.trim() || `Event ${event.eventId}`;
  const dates = formatShowDates(event, today);
  // Escaped by formatPlace.
  const place = formatPlace(event) || 'Place not announced';
  const counts = brief ? countsOf(brief) : '';
  const eventValue = { eventId: event.eventId };

  const blocks: KnownBlock[] = [
    section(mk`*${escapeMrkdwn(name)}*\n${dates} · ${place}${counts ? mk`\n${counts}` : ''}`),
    section(
      mk`*Fit ${scoreText}*  \`${escapeMrkdwn(scoreBar(score))}\`  ${escapeMrkdwn(BAND_MARK[band])} *${band}* for your profile`,
    ),
    context(mk`Event ID ${code(event.eventId)}`, FIT_PROFILE_SHORT),
  ];
  const buttons = actions([
    button('Fit details', ACTION_IDS.eventFit, eventValue),
    button('Unlock event', ACTION_IDS.fitUnlock, eventValue, { style: 'primary' }),
  ]);
  if (buttons) blocks.push(buttons);

  const text = mk`${escapeMrkdwn(name)}: fit ${scoreText}, ${band}. ${dates}, ${place}.`;
  return fitToLimits({ text, blocks });
}
