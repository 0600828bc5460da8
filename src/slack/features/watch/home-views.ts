import type { KnownBlock } from '@slack/types';
import type { ToldShow, WatchAccount } from '../../../domain/ports/index.ts';
import { context, section } from '../../views/blocks.ts';
import { shownName } from '../../../domain/watch/index.ts';
import { code, formatNumber, mentionChannel, plural } from '../../views/format.ts';
import { andMore } from '../../views/limits.ts';
import { rankWatchedShows, type WatchedShow } from '../../../domain/watch/where.ts';
import { accountWords, showWords } from './views.ts';
import { accountsAtWords } from './shows-views.ts';
import { joinMrkdwn, mk, type Mrkdwn, truncate } from '../../views/mrkdwn.ts';

/** The watch's part of the App Home: each watched channel the user is in, a few accounts and their next shows. */

/** Accounts named per channel on the Home; the rest are counted, with where to see them all. */
export const HOME_ACCOUNTS_PER_CHANNEL = 5;
/** Shows named per channel under "where its accounts will be" (the most watched accounts first). */
export const HOME_SHOWS_PER_CHANNEL = 3;
/** Watched channels shown on the Home (each is one store read); the rest are counted. */
export const HOME_WATCH_CHANNELS = 5;

export interface HomeWatchedAccount {
  account: Pick<
    WatchAccount,
    'key' | 'label' | 'kind' | 'resolution' | 'muted' | 'companyName' | 'candidates'
  >;
  /** Its next upcoming show as the channel was last told, if any. */
  next: ToldShow | null;
}

/** The watched channels read for the Home (at most `HOME_WATCH_CHANNELS`), and how many more there are. */
export interface HomeWatches {
  channels: HomeWatch[];
  more: number;
}

export interface HomeWatch {
  channelId: string;
  /** Every account the channel watches. */
  count: number;
  /** The few shown: those with the soonest next show first, then by name. */
  shown: HomeWatchedAccount[];
  /** Where its accounts will be: the first shows of `watch shows`, and how many there are in all. */
  shows: WatchedShow[];
  showCount: number;
}

const nextShowOf = (account: WatchAccount, today: string): ToldShow | null =>
  (account.told ?? [])
    .filter((show) => show.dateStart !== null && show.dateStart >= today)
    .sort((a, b) => (a.dateStart ?? '').localeCompare(b.dateStart ?? ''))[0] ?? null;

/** A channel's watch as the Home shows it; `today` a `YYYY-MM-DD` (shows that started are past). */
export function homeWatchOf(channelId: string, accounts: readonly WatchAccount[], today: string): HomeWatch {
  const withNext = accounts.map((account) => ({ account, next: nextShowOf(account, today) }));
  withNext.sort((a, b) => {
    if (a.next && b.next) return (a.next.dateStart ?? '').localeCompare(b.next.dateStart ?? '');
    if (a.next || b.next) return a.next ? -1 : 1;
    return shownName(a.account).localeCompare(shownName(b.account));
  });
  const ranked = rankWatchedShows(accounts, today);
  return {
    channelId,
    count: accounts.length,
    shown: withNext.slice(0, HOME_ACCOUNTS_PER_CHANNEL),
    shows: ranked.slice(0, HOME_SHOWS_PER_CHANNEL),
    showCount: ranked.length,
  };
}

function accountLine({ account, next }: HomeWatchedAccount): Mrkdwn {
  const muted = account.muted ? ' _(muted)_' : '';
  const name = mk`• ${accountWords(account)}${muted}`;
  if (next) return mk`${name} — next: ${showWords(next)}`;
  switch (account.resolution) {
    case 'pending':
      return mk`${name} — looked up at the next check`;
    case 'not-found':
      return (account.candidates ?? []).length > 0
        ? mk`${name} — no exact match yet; near matches to choose from in ${code('/events watch list')}`
        : mk`${name} — no exhibitor record found yet`;
    case 'ambiguous':
      return mk`${name} — several exhibitors have this name`;
    case 'resolved':
      return mk`${name} — no upcoming show as an exhibitor`;
  }
}

function channelBlock(watch: HomeWatch): KnownBlock {
  const where = mentionChannel(watch.channelId);
  const accounts = plural(watch.count, 'account');
  const rest = watch.count - watch.shown.length;
  const more =
    rest > 0 ? [mk`and ${formatNumber(rest)} more — ${code('/events watch list')} in ${where}`] : [];
  const lines = [mk`${where} watches ${accounts}`, ...watch.shown.map(accountLine), ...more];
  return section(truncate(joinMrkdwn(lines, '\n'), 2900));
}

/** The channel's first shows by watched accounts there (`watch shows` ranks them all). */
export function whereWatchedBlock(
  watch: Pick<HomeWatch, 'channelId' | 'shows' | 'showCount'>,
): KnownBlock | null {
  if (watch.shows.length === 0) return null;
  const rest = watch.showCount - watch.shows.length;
  const lines = [
    mk`Where the accounts of ${mentionChannel(watch.channelId)} will be, most first:`,
    ...watch.shows.map((shown) => mk`• ${showWords(shown.show)} — ${accountsAtWords(shown)}`),
    mk`${rest > 0 ? mk`and ${formatNumber(rest)} more shows — ` : ''}${code('/events watch shows')} in ${mentionChannel(watch.channelId)} ranks them by region and quarter.`,
  ];
  return section(truncate(joinMrkdwn(lines, '\n'), 2900));
}

/** `null`: the watches could not be read. */
export function watchHomeBlocks(watches: HomeWatches | null, unavailable: Mrkdwn): KnownBlock[] {
  if (watches === null) return [section(unavailable)];
  if (watches.channels.length === 0)
    return [
      context(
        mk`No channel you are in watches accounts. Start in a channel with ${code('/events watch add Acme Robotics, globex.com')}.`,
      ),
    ];
  const blocks = watches.channels.flatMap((watch) => {
    const where = whereWatchedBlock(watch);
    return where ? [channelBlock(watch), where] : [channelBlock(watch)];
  });
  if (watches.more > 0) blocks.push(context(andMore(watches.more, 'channels with a watch')));
  return blocks;
}
