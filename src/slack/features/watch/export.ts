import type { CsvCell } from '../../../domain/csv.ts';
import { toCsv } from '../../../domain/csv.ts';
import type { WatchAccount } from '../../../domain/ports/index.ts';
import type { Store } from '../../../store/index.ts';
import type { JobContext } from '../../kit/jobs.ts';
import { mentionChannel, plural } from '../../views/format.ts';
import { botNotice, errorMessage } from '../../views/messages.ts';
import type { SlackMessage } from '../../views/types.ts';
import type { SlackOut } from '../../kit/slack-out.ts';
import { utcDate } from '../../../time/local-time.ts';
import { mk } from '../../views/mrkdwn.ts';

/** `/events watch export` (Export CSV on the list): the channel's accounts and their upcoming shows, one file. */

export const WATCH_CSV_HEADER = [
  'account',
  'company_name',
  'kind',
  'resolution',
  'exhibitor_id',
  'event_id',
  'show',
  'start',
  'end',
  'city',
  'muted',
] as const;

/** Where a row's show starts (empty for an account with no upcoming show). */
const SHOW_COLUMN = WATCH_CSV_HEADER.indexOf('event_id');

/**
 * One row per account and upcoming show as the channel was last told (`today` a `YYYY-MM-DD`); an
 * account with none has one row with the show left empty. The account as typed, and beside it the
 * service's company name once resolved. Several exhibitor ids (a name to choose between) are
 * written space-separated.
 */
export function watchCsvRows(accounts: readonly WatchAccount[], today: string): CsvCell[][] {
  return accounts.flatMap((account) => {
    const companyName = account.resolution === 'resolved' ? (account.companyName ?? null) : null;
    const about = [
      account.label,
      companyName,
      account.kind,
      account.resolution,
      account.exhibitorIds.join(' '),
    ];
    const shows = (account.told ?? []).filter((show) => show.dateStart === null || show.dateStart >= today);
    if (shows.length === 0) return [[...about, null, null, null, null, null, account.muted]];
    return shows.map((show) => [
      ...about,
      show.eventId,
      show.name,
      show.dateStart,
      show.dateEnd,
      show.city,
      account.muted,
    ]);
  });
}

export interface WatchExportDeps {
  watchLists: Pick<Store['watchLists'], 'allAccounts'>;
  slack: Pick<SlackOut, 'upload' | 'directMessage' | 'channelName'>;
  now: () => Date;
}

/** The file goes to the requester's direct messages with the app (the list is their private answer). */
export async function exportWatchList(deps: WatchExportDeps, context: JobContext): Promise<SlackMessage> {
  const { upload, directMessage } = deps.slack;
  if (!upload || !directMessage) return errorMessage('This list cannot be exported here.');
  const accounts = await deps.watchLists.allAccounts(context.teamId, context.channelId);
  if (accounts.length === 0)
    return botNotice('This channel watches no accounts: there is nothing to export.');
  const rows = watchCsvRows(accounts, utcDate(deps.now()));
  const shows = rows.filter((row) => row[SHOW_COLUMN] !== null).length;
  const where = mentionChannel(context.channelId);
  const comment = mk`:page_facing_up: CSV of ${plural(accounts.length, 'account')} ${where} watches and their ${plural(shows, 'upcoming show')}, as of its last check. No credits spent.`;
  // A file's title is plain text, where a channel mention shows as its raw id: the channel's name instead.
  const name = await deps.slack.channelName?.(context.channelId);
  const channelId = await directMessage(context.userId, mk`The watch list of ${where}, only for you:`);
  await upload({
    channelId,
    filename: `watch-list-${name ?? context.channelId}.csv`,
    title: name ? `Watch list of #${name}` : 'Watch list',
    content: toCsv(WATCH_CSV_HEADER, rows),
    comment,
  });
  return botNotice(mk`${comment} The file is in your direct messages with the app.`);
}
