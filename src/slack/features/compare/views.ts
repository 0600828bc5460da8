import type { KnownBlock, ModalView } from '@slack/types';
import { FORM_IDS } from '../../views/form-ids.ts';
import type { WatchedAtShow } from '../../../domain/watch/at-show.ts';
import type { UnlockCost } from '../../../domain/unlock-cost.ts';
import { actions, context, header, input, section } from '../../views/blocks.ts';
import { eventLeadsOn } from '../../kit/row-buttons.ts';
import {
  code,
  formatCredits,
  formatShowDates,
  formatNumber,
  joinPresent,
  outOfTen,
  plural,
} from '../../views/format.ts';
import { andMore, fitToLimits } from '../../views/limits.ts';
import { FIELD_ACTION, modal, option } from '../../views/modal-inputs.ts';
import type { EventSummary, FitScoreResult, SlackMessage } from '../../views/types.ts';
import { FIT_PROFILE_SHORT, fitBand } from '../../views/fit-band.ts';
import type { CompareMetadata, PickableShow } from './buttons.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn, truncate } from '../../views/mrkdwn.ts';
import { MAX_SHOWS, MIN_SHOWS } from '../../kit/job-values.ts';

/** The compare card (a section per fact, one line per show) and the Compare… button and modal of lists. */

export interface FoundShow {
  found: true;
  event: EventSummary;
  /** Null when the service gave no fit score just now. */
  fit: Pick<FitScoreResult, 'score' | 'recommendation' | 'breakdown'> | null;
  watched: readonly WatchedAtShow[];
  unlock: UnlockCost;
}

/** A show not compared: the service has no show with this id, or could not be read just now. */
export interface MissingShow {
  found: false;
  eventId: string;
  reason: 'not-found' | 'unavailable';
}

export type ComparedShow = FoundShow | MissingShow;

export interface Comparison {
  shows: readonly ComparedShow[];
  /** The channel watches accounts at all: "none" at a show then means none of them. */
  watchesAccounts: boolean;
  /** `YYYY-MM-DD` (UTC): a show already over is marked past and offers no Add to plan. */
  today: string;
}

const BAND_MARK = {
  Recommended: ':large_green_circle:',
  Consider: ':large_yellow_circle:',
  'Not recommended': ':red_circle:',
} as const;

/** Watched accounts named per show before the rest are counted. */
const WATCHED_NAMED = 5;

const nameOf = (show: FoundShow) => show.event.name?.trim() || `Event ${show.event.eventId}`;
/** A show's name at the head of its line in every fact: short enough for a phone. */
const labelOf = (show: FoundShow) => mk`*${escapeMrkdwn(truncate(nameOf(show), 40))}*`;

function fitLines(show: FoundShow): Mrkdwn {
  const { fit } = show;
  if (!fit) return mk`Fit score not available right now`;
  const score = Math.min(10, Math.max(0, fit.score));
  const band = fitBand(score, fit.recommendation);
  const factors = [
    mk`Profile match ${outOfTen(fit.breakdown?.profile_match)}`,
    mk`Exhibitor density ${outOfTen(fit.breakdown?.matched_exhibitor_density)}`,
    mk`Event scale ${outOfTen(fit.breakdown?.event_scale)}`,
  ];
  return mk`*${escapeMrkdwn(score.toFixed(1))} / 10* ${escapeMrkdwn(BAND_MARK[band])} ${band}\n      ${joinMrkdwn(factors, ' · ')}`;
}

function visitorWords(hasVisitors: boolean | undefined): Mrkdwn {
  if (hasVisitors === undefined) return mk`Not known`;
  return hasVisitors ? mk`Available (separate unlock)` : mk`Not available`;
}

function watchedWords(watched: readonly WatchedAtShow[]): Mrkdwn {
  if (watched.length === 0) return mk`None of the watched accounts`;
  const named = watched
    .slice(0, WATCHED_NAMED)
    .map(
      (account) => mk`${escapeMrkdwn(account.label)}${account.kind === 'competitor' ? ' (competitor)' : ''}`,
    );
  const more = watched.length > WATCHED_NAMED ? mk` ${andMore(watched.length - WATCHED_NAMED)}` : '';
  return mk`${joinMrkdwn(named, ', ')}${more}`;
}

/** The service's reasons for not offering an unlock, in words. */
const NOT_OFFERED: Record<string, Mrkdwn> = {
  unlock_in_progress: mk`An unlock is in progress`,
  no_contacts_available: mk`Nothing to unlock: no contacts available`,
  forbidden: mk`Not available to this account`,
};

function unlockWords(unlock: UnlockCost): Mrkdwn {
  switch (unlock.state) {
    case 'unlocked':
      return mk`:white_check_mark: Unlocked`;
    case 'not-offered':
      return (
        (Object.hasOwn(NOT_OFFERED, unlock.reason) ? NOT_OFFERED[unlock.reason] : undefined) ??
        mk`Not offered (${escapeMrkdwn(unlock.reason.replace(/_/g, ' '))})`
      );
    default:
      if (unlock.estimated)
        return mk`Price not available right now (list price ${formatCredits(unlock.credits)})`;
      return mk`${formatCredits(unlock.credits)}${unlock.overBalance ? ' (more than the balance)' : ''}`;
  }
}

const exhibitorWords = (count: number | null | undefined) =>
  typeof count === 'number' ? formatNumber(count) : mk`Not known`;

/** One fact for every show: its title, then a line per show led by the show's name. */
function factSection(title: string, shows: readonly FoundShow[], value: (show: FoundShow) => Mrkdwn) {
  return section(
    joinMrkdwn(
      [mk`*${escapeMrkdwn(title)}*`, ...shows.map((show) => mk`${labelOf(show)}: ${value(show)}`)],
      '\n',
    ),
  );
}

function factSections(shows: readonly FoundShow[], watchesAccounts: boolean, today: string): KnownBlock[] {
  const blocks = [
    factSection('Fit for your profile', shows, fitLines),
    factSection('When', shows, (show) => formatShowDates(show.event, today)),
    factSection(
      'Where',
      shows,
      (show) => joinPresent([show.event.city, show.event.country]) || mk`Place not announced`,
    ),
    factSection('Exhibitors', shows, (show) => exhibitorWords(show.event.exhibitorCount)),
    factSection('Visitor data', shows, (show) => visitorWords(show.event.hasVisitors)),
  ];
  blocks.push(
    watchesAccounts
      ? factSection("This channel's watched accounts exhibiting", shows, (show) => watchedWords(show.watched))
      : section(
          "*This channel's watched accounts exhibiting*\nThis channel watches no accounts yet: `/events watch add <company>` to see which exhibit where.",
        ),
  );
  blocks.push(factSection('Unlock (event contacts)', shows, (show) => unlockWords(show.unlock)));
  return blocks;
}

const MISSING_WORDS = {
  'not-found': 'the service has no show with this id (check it with `/events search`)',
  unavailable: 'the service could not be read for it just now; try again in a minute',
} as const satisfies Record<MissingShow['reason'], string>;

/** Under the facts, each show with its id and where it leads on (Fit, Exhibitors, People, Add to plan). */
function showBlocks(show: ComparedShow, today: string): KnownBlock[] {
  if (!show.found)
    return [section(mk`:warning: ${code(show.eventId)}: not compared, ${MISSING_WORDS[show.reason]}.`)];
  const buttons = actions(eventLeadsOn(show.event, today));
  const title = section(mk`${labelOf(show)}  ${code(show.event.eventId)}`);
  return buttons ? [title, buttons] : [title];
}

/** `Compare: Fintech Expo 7.4/10, Payments Week 5.1/10; 99999 not found.` */
function fallbackText(shows: readonly ComparedShow[]): Mrkdwn {
  const parts = shows.map((show) => {
    if (!show.found) return mk`${escapeMrkdwn(show.eventId)} not compared`;
    const score = show.fit
      ? mk`${escapeMrkdwn(Math.min(10, Math.max(0, show.fit.score)).toFixed(1))}/10`
      : 'no fit score';
    return mk`${escapeMrkdwn(nameOf(show))} ${score}`;
  });
  return mk`Compare: ${joinMrkdwn(parts, ', ')}.`;
}

/** `Compare 2 shows`, counting only the shows compared: an id not compared is said under it. */
function cardTitle(found: number, missing: number): KnownBlock[] {
  const title = header(found === 0 ? 'No show to compare' : `Compare ${plural(found, 'show')}`);
  if (missing === 0) return [title];
  return [title, context(mk`${plural(missing, 'id was', 'ids were')} not compared: see below.`)];
}

/** The compare card: the shows fact by fact, then each show's buttons. Free. */
export function compareCard({ shows, watchesAccounts, today }: Comparison): SlackMessage {
  const found = shows.filter((show): show is FoundShow => show.found);
  const blocks: KnownBlock[] = [
    ...cardTitle(found.length, shows.length - found.length),
    context(
      'Free: fit for your profile, and each unlock quoted by the service, nothing spent.',
      FIT_PROFILE_SHORT,
    ),
  ];
  if (found.length > 0) blocks.push(...factSections(found, watchesAccounts, today), { type: 'divider' });
  blocks.push(...shows.flatMap((show) => showBlocks(show, today)));
  return fitToLimits({ text: fallbackText(shows), blocks });
}

// ---------- Compare… on lists ----------

export const COMPARE_MODAL = FORM_IDS.compare;
/** The modal's checkbox field. */
export const SHOWS_FIELD = 'shows';

/** The Compare… modal: the page's shows as checkboxes, 2 to 5 to pick. */
export function compareModal(shows: readonly PickableShow[], metadata: CompareMetadata): ModalView {
  const where = metadata.private
    ? 'only you will see it, as you saw the list'
    : 'it is posted in the channel, where the list is';
  return modal(
    COMPARE_MODAL,
    'Compare shows',
    'Compare',
    [
      section(`Pick ${MIN_SHOWS} to ${MAX_SHOWS} shows to see side by side. Free; ${where}.`),
      input(
        SHOWS_FIELD,
        'Shows',
        {
          type: 'checkboxes',
          action_id: FIELD_ACTION,
          options: shows
            .slice(0, 10)
            .map((show) => option(truncate(`${show.name} · ${show.eventId}`, 75), show.eventId)),
        },
        { optional: false },
      ),
    ],
    metadata,
  );
}
