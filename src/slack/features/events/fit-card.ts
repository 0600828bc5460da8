import type { KnownBlock } from '@slack/types';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { actions, button, context, fieldsSection, header, section } from '../../views/blocks.ts';
import {
  code,
  formatShowDates,
  formatLink,
  formatNumber,
  formatPlace,
  outOfTen,
  plural,
} from '../../views/format.ts';
import { fitToLimits } from '../../views/limits.ts';
import { outcomeButton } from '../../kit/row-buttons.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn } from '../../views/mrkdwn.ts';
import type { FitScoreResult, SlackMessage } from '../../views/types.ts';
import { BAND_MARK, FIT_PROFILE_WORDS, fitBand, scoreBar } from '../../views/fit-band.ts';

type Level = 'high' | 'middle' | 'low';

/** A factor's level by the bands the service uses for the overall score (7–10, 4–<7, below 4). */
const levelOf = (value: number): Level => (value >= 7 ? 'high' : value >= 4 ? 'middle' : 'low');

/**
 * What each factor of the breakdown says about this show, in the words of the OpenAPI's definitions:
 * profile match is how the show fits the profile stored in the caller's account; matched exhibitor
 * density how many of its exhibitors match that profile (exhibitors, not verified buyers); event scale
 * its size by exhibitor count, capped at 10.
 */
const FACTOR_WORDS: Record<
  'profile_match' | 'matched_exhibitor_density' | 'event_scale',
  Record<Level, string>
> = {
  profile_match: {
    high: 'The profile in your account fits this show well',
    middle: 'The profile in your account fits this show in part',
    low: 'The profile in your account fits this show poorly',
  },
  matched_exhibitor_density: {
    high: 'Many of its exhibitors match that profile (exhibitors, not verified buyers)',
    middle: 'Some of its exhibitors match that profile (exhibitors, not verified buyers)',
    low: 'Few of its exhibitors match that profile',
  },
  event_scale: {
    high: 'A large show by exhibitor count',
    middle: 'A mid-sized show by exhibitor count',
    low: 'A small show by exhibitor count',
  },
};

/** One factor's field: its name, its value out of ten, and what that says about this show. */
function factorField(
  label: string,
  factor: keyof typeof FACTOR_WORDS,
  value: number | null | undefined,
  note: Mrkdwn = mk``,
): Mrkdwn {
  const name = escapeMrkdwn(label);
  if (typeof value !== 'number' || !Number.isFinite(value))
    return mk`*${name}*\n– (not given by the service)`;
  return mk`*${name}* ${outOfTen(value)}\n${escapeMrkdwn(FACTOR_WORDS[factor][levelOf(value)])}${note}.`;
}

/** The three factors of the fit score, each in words, from the service's numbers only. */
function breakdownFields(fit: FitScoreResult): Mrkdwn[] {
  const { breakdown, event } = fit;
  const count =
    typeof event.exhibitorCount === 'number' ? mk` (${plural(event.exhibitorCount, 'exhibitor')})` : mk``;
  return [
    factorField('Profile match', 'profile_match', breakdown?.profile_match),
    factorField(
      'Matched exhibitor density',
      'matched_exhibitor_density',
      breakdown?.matched_exhibitor_density,
    ),
    factorField('Event scale', 'event_scale', breakdown?.event_scale, count),
  ];
}

const clampScore = (score: number) => (Number.isFinite(score) ? Math.min(10, Math.max(0, score)) : 0);

export interface FitCardOptions {
  /** Visitor data availability from the event detail, when the caller fetched it. */
  hasVisitors?: boolean | null;
  /** The event's name from its detail, for a fit result whose event has none. */
  name?: string | null;
  /** `YYYY-MM-DD` (UTC): a show already over is marked past. */
  today?: string;
}

/** The fit score card for one event: score, band, breakdown, event facts and next steps. */
export function fitCard(fit: FitScoreResult, options: FitCardOptions = {}): SlackMessage {
  const { event } = fit;
  const score = clampScore(fit.score);
  const scoreText = mk`${escapeMrkdwn(score.toFixed(1))} / 10`;
  const band = fitBand(score, fit.recommendation);
  const name = event.name?.trim() || options.name?.trim() || `Event ${event.eventId}`;
  const dates = formatShowDates(event, options.today);
  const place = formatPlace(event);
  const hasVisitors = options.hasVisitors ?? event.hasVisitors;

  const facts = [mk`*When*\n${dates}`, mk`*Where*\n${place || 'Place not announced'}`];
  facts.push(
    mk`*Exhibitors*\n${typeof event.exhibitorCount === 'number' ? formatNumber(event.exhibitorCount) : 'Not known'}`,
  );
  if (typeof hasVisitors === 'boolean') {
    facts.push(mk`*Visitor data*\n${hasVisitors ? 'Available (separate unlock)' : 'Not available'}`);
  }

  const eventValue = { eventId: event.eventId };
  const website = formatLink(event.url, 'Event website');
  const blocks: KnownBlock[] = [
    header(name),
    section(
      mk`*Fit ${scoreText}*  \`${escapeMrkdwn(scoreBar(score))}\`\n${escapeMrkdwn(BAND_MARK[band])} *${band}* for the profile in your Event Intelligence account`,
    ),
    fieldsSection(breakdownFields(fit)),
    context(FIT_PROFILE_WORDS),
    fieldsSection(facts),
    context(joinMrkdwn([mk`Event ID ${code(event.eventId)}`, website].filter(Boolean), ' · ')),
  ];
  const buttons = actions([
    button('Unlock event', ACTION_IDS.fitUnlock, eventValue, { style: 'primary' }),
    button('Exhibitors', ACTION_IDS.fitExhibitors, eventValue),
    button('People', ACTION_IDS.fitPeople, eventValue),
    button('Recommended exhibitors', ACTION_IDS.fitRecommend, eventValue),
    // Over: log what it brought (Log for a show, with the show).
    outcomeButton(event, options.today),
  ]);
  if (buttons) blocks.push(buttons);

  const text = mk`Fit for ${escapeMrkdwn(name)}: ${scoreText}, ${band}. ${dates}${place ? mk`, ${place}` : ''}.`;
  return fitToLimits({ text, blocks });
}
