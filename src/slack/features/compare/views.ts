import type { Button, KnownBlock, ModalView } from '@slack/types';
import type { WatchedAtShow } from '../../../domain/watch/at-show.ts';
import type { UnlockCost } from '../../../domain/unlock-cost.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { actions, button, context, header, input, section } from '../../views/blocks.ts';
import { eventLeadsOn } from '../../views/event-buttons.ts';
import {
  code,
  formatCredits,
  formatDateRange,
  formatNumber,
  joinPresent,
  outOfTen,
} from '../../views/format.ts';
import { andMore, escapeMrkdwn, fitToLimits, truncate } from '../../views/limits.ts';
import { FIELD_ACTION, modal, option } from '../../views/modal-inputs.ts';
import type { EventSummary, FitScoreResult, SlackMessage } from '../../views/types.ts';
import { fitBand } from '../events/fit-card.ts';
import type { CompareMetadata, PickableShow } from './buttons.ts';
import { MAX_SHOWS, MIN_SHOWS } from './commands.ts';

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
const labelOf = (show: FoundShow) => `*${escapeMrkdwn(truncate(nameOf(show), 40))}*`;

function fitLines(show: FoundShow): string {
  const { fit } = show;
  if (!fit) return 'Fit score not available right now';
  const score = Math.min(10, Math.max(0, fit.score));
  const band = fitBand(score, fit.recommendation);
  const factors = [
    `Profile match ${outOfTen(fit.breakdown?.profile_match)}`,
    `Exhibitor density ${outOfTen(fit.breakdown?.matched_exhibitor_density)}`,
    `Event scale ${outOfTen(fit.breakdown?.event_scale)}`,
  ];
  return `*${score.toFixed(1)} / 10* ${BAND_MARK[band]} ${band}\n      ${factors.join(' · ')}`;
}

function visitorWords(hasVisitors: boolean | undefined): string {
  if (hasVisitors === undefined) return 'Not known';
  return hasVisitors ? 'Available (separate unlock)' : 'Not available';
}

function watchedWords(watched: readonly WatchedAtShow[]): string {
  if (watched.length === 0) return 'None of the watched accounts';
  const named = watched
    .slice(0, WATCHED_NAMED)
    .map(
      (account) => `${escapeMrkdwn(account.label)}${account.kind === 'competitor' ? ' (competitor)' : ''}`,
    );
  const more = watched.length > WATCHED_NAMED ? ` ${andMore(watched.length - WATCHED_NAMED)}` : '';
  return `${named.join(', ')}${more}`;
}

/** The service's reasons for not offering an unlock, in words. */
const NOT_OFFERED: Record<string, string> = {
  unlock_in_progress: 'An unlock is in progress',
  no_contacts_available: 'Nothing to unlock: no contacts available',
  forbidden: 'Not available to this account',
};

function unlockWords(unlock: UnlockCost): string {
  switch (unlock.state) {
    case 'unlocked':
      return ':white_check_mark: Unlocked';
    case 'not-offered':
      return NOT_OFFERED[unlock.reason] ?? `Not offered (${unlock.reason.replace(/_/g, ' ')})`;
    default:
      if (unlock.estimated)
        return `Price not available right now (list price ${formatCredits(unlock.credits)})`;
      return `${formatCredits(unlock.credits)}${unlock.overBalance ? ' (more than the balance)' : ''}`;
  }
}

const exhibitorWords = (count: number | null | undefined) =>
  typeof count === 'number' ? formatNumber(count) : 'Not known';

/** One fact for every show: its title, then a line per show led by the show's name. */
function factSection(title: string, shows: readonly FoundShow[], value: (show: FoundShow) => string) {
  return section([`*${title}*`, ...shows.map((show) => `${labelOf(show)}: ${value(show)}`)].join('\n'));
}

function factSections(shows: readonly FoundShow[], watchesAccounts: boolean): KnownBlock[] {
  const blocks = [
    factSection('Fit for your profile', shows, fitLines),
    factSection('When', shows, (show) => formatDateRange(show.event.dateStart, show.event.dateEnd)),
    factSection(
      'Where',
      shows,
      (show) => joinPresent([show.event.city, show.event.country]) || 'Place not announced',
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

const MISSING_WORDS: Record<MissingShow['reason'], string> = {
  'not-found': 'the service has no show with this id (check it with `/events search`)',
  unavailable: 'the service could not be read for it just now; try again in a minute',
};

/** Under the facts, each show with its id and where it leads on (Fit, Exhibitors, People, Add to plan). */
function showBlocks(show: ComparedShow): KnownBlock[] {
  if (!show.found)
    return [section(`:warning: ${code(show.eventId)}: not compared, ${MISSING_WORDS[show.reason]}.`)];
  const buttons = actions(eventLeadsOn(show.event.eventId));
  const title = section(`${labelOf(show)}  ${code(show.event.eventId)}`);
  return buttons ? [title, buttons] : [title];
}

/** `Compare: Fintech Expo 7.4/10, Payments Week 5.1/10; 99999 not found.` */
function fallbackText(shows: readonly ComparedShow[]): string {
  const parts = shows.map((show) => {
    if (!show.found) return `${show.eventId} not compared`;
    return `${escapeMrkdwn(nameOf(show))} ${show.fit ? `${Math.min(10, Math.max(0, show.fit.score)).toFixed(1)}/10` : 'no fit score'}`;
  });
  return `Compare: ${parts.join(', ')}.`;
}

/** The compare card: the shows fact by fact, then each show's buttons. Free. */
export function compareCard({ shows, watchesAccounts }: Comparison): SlackMessage {
  const found = shows.filter((show): show is FoundShow => show.found);
  const blocks: KnownBlock[] = [
    header(`Compare ${shows.length} shows`),
    context('Free: fit for your profile, and each unlock quoted by the service, nothing spent.'),
  ];
  if (found.length > 0) blocks.push(...factSections(found, watchesAccounts), { type: 'divider' });
  blocks.push(...shows.flatMap(showBlocks));
  return fitToLimits({ text: fallbackText(shows), blocks });
}

// ---------- Compare… on lists ----------

/** Compare… under a list of shows: its value carries the page's shows (ids and names) for the modal. */
export function compareButton(events: readonly EventSummary[]): Button | undefined {
  const shows = events.slice(0, 10).map((event) => ({
    eventId: event.eventId,
    name: truncate(event.name?.trim() || `Event ${event.eventId}`, 60),
  }));
  if (shows.length < MIN_SHOWS) return undefined;
  return button('Compare…', ACTION_IDS.compareOpen, { shows });
}

export const COMPARE_MODAL = 'modal.compare';
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
