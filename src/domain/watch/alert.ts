import type { ToldShow, WatchAccount } from '../ports/records.ts';
import { WATCH_LIMITS } from '../ports/watch.ts';
import { type AppearanceComparison, byDate, type SeenShow, type ShowChange } from './appearances.ts';

/** The account an alert row or notice is about. */
export type AlertAccount = Pick<WatchAccount, 'key' | 'label' | 'kind' | 'muted' | 'companyName'>;

/** One account's comparison in a channel's check. */
export interface AccountCheck {
  account: AlertAccount;
  comparison: AppearanceComparison;
}

export interface AlertRow {
  account: AlertAccount;
  show: SeenShow;
}

/** The channel's one alert of a check: the first rows by date, and how many more there are. */
export interface WatchAlert {
  rows: AlertRow[];
  /** Rows beyond the first `WATCH_LIMITS.alertRows` ("N more", with Show all). */
  more: number;
  /** Every row, in the same order, for Show all. */
  all: AlertRow[];
}

/** Changes and drops of shows announced in one message, said in its thread (null: in the channel). */
export interface ThreadNotice {
  threadTs: string | null;
  changed: { account: AlertAccount; change: ShowChange }[];
  dropped: { account: AlertAccount; show: ToldShow }[];
}

export interface WatchCheckPosts {
  /** Null when nothing appeared: nothing is posted. */
  alert: WatchAlert | null;
  notices: ThreadNotice[];
}

const byRow = (a: AlertRow, b: AlertRow) =>
  byDate(a.show, b.show) || a.account.label.localeCompare(b.account.label);

function noticeFor(notices: Map<string | null, ThreadNotice>, threadTs: string | undefined): ThreadNotice {
  const key = threadTs ?? null;
  let notice = notices.get(key);
  if (!notice) {
    notice = { threadTs: key, changed: [], dropped: [] };
    notices.set(key, notice);
  }
  return notice;
}

/**
 * The rows of the alert posted as message `threadTs`, from the told state (each show it announced
 * keeps that ts): the shows still ahead, by date. Shows dropped since are no longer told, so not listed.
 */
export function rowsToldIn(
  accounts: readonly (AlertAccount & Pick<WatchAccount, 'told'>)[],
  threadTs: string,
  today: string,
): AlertRow[] {
  const rows = accounts.flatMap((account) =>
    (account.told ?? [])
      .filter((show) => show.threadTs === threadTs && (show.dateStart === null || show.dateStart >= today))
      .map((show) => ({ account, show })),
  );
  return rows.sort(byRow);
}

/**
 * What one check posts in a channel: one alert of the new appearances (sorted by date, at most
 * `WATCH_LIMITS.alertRows` rows, then a count), and each change or drop in the thread of the message
 * that announced the show. A muted account posts nothing (its told state still moves on, so unmuting
 * does not replay what was missed).
 */
export function planWatchPosts(checks: readonly AccountCheck[]): WatchCheckPosts {
  const rows: AlertRow[] = [];
  const notices = new Map<string | null, ThreadNotice>();
  for (const { account, comparison } of checks) {
    if (account.muted) continue;
    for (const show of comparison.appeared) rows.push({ account, show });
    for (const change of comparison.changed)
      noticeFor(notices, change.before.threadTs).changed.push({ account, change });
    for (const show of comparison.dropped) noticeFor(notices, show.threadTs).dropped.push({ account, show });
  }
  rows.sort(byRow);
  const shown = rows.slice(0, WATCH_LIMITS.alertRows);
  return {
    alert: rows.length === 0 ? null : { rows: shown, more: rows.length - shown.length, all: rows },
    notices: [...notices.values()],
  };
}
