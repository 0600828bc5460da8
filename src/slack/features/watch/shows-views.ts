import type { Button, KnownBlock } from '@slack/types';
import type { UnlockCost } from '../../../domain/unlock-cost.ts';
import type { Page, WatchedShow } from '../../../domain/watch/where.ts';
import { eventLeadsOn } from '../../kit/row-buttons.ts';
import { ACTION_IDS, type ActionId } from '../../views/action-ids.ts';
import { actions, button, context, section } from '../../views/blocks.ts';
import type { FitBand } from '../../views/fit-band.ts';
import { code, formatCredits, formatNumber, plural } from '../../views/format.ts';
import { fitToLimits } from '../../views/limits.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn, truncate, withoutBold } from '../../views/mrkdwn.ts';
import type { SlackMessage } from '../../views/types.ts';
import type { WatchPageValue } from './buttons.ts';
import { showWords } from './views.ts';

/** `/events watch shows`: where the channel's watched accounts will be, most accounts first. */

/** Shows on one page of `watch shows` (each a section and a row of buttons). */
export const WATCH_SHOWS_PAGE = 5;

/** One ranked show as the card shows it: the accounts there, the team's fit, what unlocking costs. */
export interface WatchShowRow {
  shown: WatchedShow;
  /** Null when the service gave no fit just now. */
  fit: { score: number; band: FitBand } | null;
  /** The list price, marked estimated, when the service did not quote it. */
  cost: UnlockCost;
}

export interface WatchShowsPage {
  rows: WatchShowRow[];
  page: Pick<Page<unknown>, 'page' | 'pages' | 'total'>;
  /** The filters as typed back (`region:Europe`, `when:Q2-2027`) and named (`in Europe`, `in Q2 2027`). */
  filters: { region?: string | undefined; when?: string | undefined; whenLabel?: string | undefined };
  /** Accounts the channel watches, and how many have no exhibitor record yet (their shows are unknown). */
  accounts: number;
  unresolved: number;
  /** `YYYY-MM-DD` (UTC): a show already over offers no Add to plan. */
  today: string;
}

const names = (labels: readonly string[]) =>
  joinMrkdwn(
    labels.slice(0, 6).map((label) => escapeMrkdwn(truncate(label, 40))),
    ', ',
  );

const kindWords = (labels: readonly string[], one: string, many: string): Mrkdwn | null =>
  labels.length === 0
    ? null
    : mk`${escapeMrkdwn(plural(labels.length, one, many))} (${names(labels)}${labels.length > 6 ? mk` and ${formatNumber(labels.length - 6)} more` : ''})`;

/** `3 watched accounts: 2 targets (Acme, Globex), 1 competitor (Initech)`. */
export function accountsAtWords({ targets, competitors }: WatchedShow): Mrkdwn {
  const total = targets.length + competitors.length;
  const kinds = [
    kindWords(targets, 'target', 'targets'),
    kindWords(competitors, 'competitor', 'competitors'),
  ];
  return mk`${escapeMrkdwn(plural(total, 'watched account', 'watched accounts'))}: ${joinMrkdwn(kinds, ', ')}`;
}

const fitLine = (fit: WatchShowRow['fit']): Mrkdwn =>
  fit ? mk`Fit ${escapeMrkdwn(fit.score.toFixed(1))} / 10, ${fit.band}` : mk`Fit could not be read just now`;

function costLine(cost: UnlockCost): Mrkdwn {
  switch (cost.state) {
    case 'unlocked':
      return mk`Unlocked`;
    case 'locked':
      return cost.estimated
        ? mk`Unlock: about ${formatCredits(cost.credits)} (list price)`
        : mk`Unlock: ${formatCredits(cost.credits)}`;
    case 'not-offered':
      return mk`Unlock: not offered (${escapeMrkdwn(cost.reason.replace(/_/g, ' '))})`;
  }
}

function rowBlocks(row: WatchShowRow, today: string): KnownBlock[] {
  const { show } = row.shown;
  const where = show.country ? mk` · ${escapeMrkdwn(show.country)}` : '';
  const lines = [
    mk`${showWords(show)}${where} · event ${escapeMrkdwn(show.eventId)}`,
    accountsAtWords(row.shown),
    mk`${fitLine(row.fit)} · ${costLine(row.cost)}`,
  ];
  const buttons = actions(eventLeadsOn(show, today), `watch-show-${show.eventId}`);
  return [section(joinMrkdwn(lines, '\n')), ...(buttons ? [buttons] : [])];
}

const pageButton = (label: string, actionId: ActionId, value: WatchPageValue): Button | undefined =>
  button(label, actionId, value);

/** Previous / Next for page `page` of `pages`: only those that lead somewhere; none for one page. */
export function watchPagerBlocks(
  page: number,
  pages: number,
  value: (page: number) => WatchPageValue,
): KnownBlock[] {
  const row = actions(
    [
      page > 1 ? pageButton('← Previous', ACTION_IDS.watchPagePrevious, value(page - 1)) : undefined,
      page < pages ? pageButton('Next →', ACTION_IDS.watchPageNext, value(page + 1)) : undefined,
    ],
    'watch-paging',
  );
  return row ? [row] : [];
}

function filterWords({ filters }: WatchShowsPage): Mrkdwn {
  const parts: Mrkdwn[] = [
    filters.region ? mk` in ${escapeMrkdwn(filters.region)}` : mk``,
    filters.whenLabel ? mk` starting in ${escapeMrkdwn(filters.whenLabel)}` : mk``,
  ];
  return joinMrkdwn(parts, '');
}

function emptyWords(input: WatchShowsPage): Mrkdwn {
  if (input.accounts === 0)
    return mk`This channel watches no accounts. Add some with ${code('/events watch add Acme Robotics, globex.com')}.`;
  const narrowed = input.filters.region || input.filters.when;
  return narrowed
    ? mk`No upcoming show${filterWords(input)} is known to have a watched account exhibiting. Try without ${code(narrowed === input.filters.region ? 'region:' : 'when:')}.`
    : mk`No upcoming show is known to have a watched account exhibiting yet. ${code('/events watch check')} looks again.`;
}

/** The card of `/events watch shows`: a page of the ranked shows, each with Fit / Exhibitors / People / Add to plan. */
export function watchShowsAnswer(input: WatchShowsPage): SlackMessage {
  const { rows, page, filters } = input;
  const footer = context(
    mk`Free: from what this channel’s watch found at its checks${input.unresolved > 0 ? mk` (${escapeMrkdwn(plural(input.unresolved, 'account is', 'accounts are'))} not matched to one exhibitor yet: no shows known for them)` : ''}; fit and price are free reads. ${code('/events watch check')} looks again.`,
  );
  if (rows.length === 0)
    return fitToLimits({ text: emptyWords(input), blocks: [section(emptyWords(input)), footer] });
  const title = mk`*Where this channel’s accounts will be${filterWords(input)}: ${escapeMrkdwn(plural(page.total, 'show', 'shows'))}, most watched accounts first${page.pages > 1 ? mk` (page ${formatNumber(page.page)} of ${formatNumber(page.pages)})` : ''}*`;
  const value = (target: number): WatchPageValue => ({
    view: 'shows',
    page: target,
    ...(filters.region ? { region: filters.region } : {}),
    ...(filters.when ? { when: filters.when } : {}),
  });
  return fitToLimits({
    text: withoutBold(title),
    blocks: [
      section(title),
      ...rows.flatMap((row) => rowBlocks(row, input.today)),
      ...watchPagerBlocks(page.page, page.pages, value),
      footer,
    ],
  });
}

/** Shows the plan's canvas names under "Where the watched accounts will be". */
export const CANVAS_WATCHED_SHOWS = 5;

const countWords = ({ targets, competitors }: WatchedShow) =>
  [
    targets.length > 0 ? plural(targets.length, 'target', 'targets') : '',
    competitors.length > 0 ? plural(competitors.length, 'competitor', 'competitors') : '',
  ]
    .filter(Boolean)
    .join(', ');

/**
 * The plan canvas's section of `watch shows`: the first shows by watched accounts (all of them, no
 * filter), each on its line. `plain` is the canvas's own escaping of a value (its markdown).
 */
export function watchedShowsCanvasLines(
  ranked: readonly WatchedShow[] | undefined,
  plain: (text: string) => string,
): string[] {
  if (!ranked) return [];
  const rest = ranked.length - CANVAS_WATCHED_SHOWS;
  const lines = ranked.slice(0, CANVAS_WATCHED_SHOWS).map(({ show, ...at }) => {
    const names = [...at.targets, ...at.competitors.map((label) => `${label} (competitor)`)].join(', ');
    const when = [show.dateStart ?? 'dates not announced', show.city, show.country]
      .filter(Boolean)
      .join(' · ');
    return `- ${plain(show.name?.trim() || `Event ${show.eventId}`)} · event ${plain(show.eventId)} · ${plain(when)}: ${plain(countWords({ show, ...at }))} (${plain(names)})`;
  });
  return [
    '## Where the watched accounts will be',
    ...(lines.length > 0
      ? lines
      : ['No upcoming show is known to have a watched account of this channel exhibiting.']),
    ...(rest > 0
      ? [`- and ${rest.toLocaleString('en-US')} more: \`/events watch shows\` ranks them all.`]
      : []),
    '',
  ];
}
