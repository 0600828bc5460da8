import type { ToldShow, WatchAccount } from '../ports/records.ts';
import type { WatchAlertMessage, WatchAlertRow, WatchFit, WatchLookups } from '../ports/watch.ts';
import { type AccountCheck, planWatchPosts, type ThreadNotice, type WatchAlert } from './alert.ts';
import { announcedIn } from './appearances.ts';
import type { WatchCheckDeps, WatchCheckRequest } from './check-deps.ts';
import type { AccountLookup } from './lookup.ts';

/**
 * What a slice of a watch check posts: one alert of the new appearances its accounts showed, with
 * people and fit on the shown rows, and each change or drop in the thread of the alert that announced
 * the show. Posted per slice, not once at the check's end: a 1,000-name check runs for an hour or
 * more, and a new appearance found in its first slice should not wait that long. A slice takes the
 * cheapest accounts first (resolved ones, one call each), so the accounts that can appear at all are
 * in the first slices, and most slices, looking up names not found yet, post nothing.
 */

/** People shown per alert row (names and titles from the free people list). */
export const PEOPLE_PER_ROW = 3;

/** An account with what its look-up found now and what the channel will have been told. */
export interface Looked {
  account: WatchAccount;
  lookup: AccountLookup;
  told: ToldShow[];
  comparison: AccountCheck['comparison'];
}

/** The team's fit for each show, one free call per show; a score that cannot be read is left out. */
async function fitsOf(deps: WatchCheckDeps, lookups: WatchLookups, eventIds: readonly string[]) {
  const fits = new Map<string, WatchFit>();
  await Promise.all(
    [...new Set(eventIds)].map(async (eventId) => {
      try {
        fits.set(eventId, await lookups.fitScore(eventId));
      } catch (error) {
        deps.logger.warn('the fit score of a watched show could not be read', { eventId, error });
      }
    }),
  );
  return fits;
}

/** The alert's rows with each shown row's people and fit (a failed look-up shows none). */
async function alertMessage(
  deps: WatchCheckDeps,
  lookups: WatchLookups,
  channelId: string,
  alert: WatchAlert,
  byKey: ReadonlyMap<string, Looked>,
): Promise<WatchAlertMessage> {
  const rowOf = ({ account, show }: WatchAlert['all'][number]): WatchAlertRow => {
    const looked = byKey.get(account.key);
    const exhibitorIds = looked?.lookup.exhibitorIds ?? [];
    const companyName = looked?.lookup.companyName ?? account.companyName;
    return {
      account: {
        key: account.key,
        label: account.label,
        kind: account.kind,
        exhibitorIds,
        ...(companyName ? { companyName } : {}),
      },
      show,
      people: [],
    };
  };
  const withPeople = async (row: WatchAlertRow): Promise<WatchAlertRow> => {
    const exhibitorId = row.account.exhibitorIds[0];
    if (!exhibitorId) return row;
    try {
      return { ...row, people: await lookups.peopleAt(row.show.eventId, exhibitorId, PEOPLE_PER_ROW) };
    } catch (error) {
      deps.logger.warn('the people of a watched account at a show could not be read', { error });
      return row;
    }
  };
  const [withoutFit, fits] = await Promise.all([
    Promise.all(alert.rows.map(rowOf).map(withPeople)),
    fitsOf(
      deps,
      lookups,
      alert.rows.map((row) => row.show.eventId),
    ),
  ]);
  const rows = withoutFit.map((row) => {
    const fit = fits.get(row.show.eventId);
    return fit ? { ...row, fit } : row;
  });
  return { channelId, rows, more: alert.more, all: [...rows, ...alert.all.slice(rows.length).map(rowOf)] };
}

const alertAccountOf = (account: WatchAccount) => ({
  key: account.key,
  label: account.label,
  kind: account.kind,
  exhibitorIds: account.exhibitorIds,
  ...(account.companyName ? { companyName: account.companyName } : {}),
});

/** Each change or drop, in the thread of the alert that announced its show (once: told already moved on). */
async function postNotices(
  deps: WatchCheckDeps,
  channelId: string,
  notices: ThreadNotice[],
  byKey: ReadonlyMap<string, Looked>,
) {
  const accountOf = (key: string) => {
    const looked = byKey.get(key);
    return looked ? alertAccountOf(looked.account) : undefined;
  };
  for (const notice of notices) {
    const changed = notice.changed.flatMap(({ account, change }) => {
      const found = accountOf(account.key);
      return found ? [{ account: found, before: change.before, now: change.now }] : [];
    });
    const dropped = notice.dropped.flatMap(({ account, show }) => {
      const found = accountOf(account.key);
      return found ? [{ account: found, show }] : [];
    });
    await deps.poster.postNotice({ channelId, threadTs: notice.threadTs, changed, dropped });
  }
}

/** Marks the alert's shows as announced in message `ts`, so their later changes go to its thread. */
async function rememberAlert(
  deps: WatchCheckDeps,
  request: WatchCheckRequest,
  alert: WatchAlert,
  byKey: ReadonlyMap<string, Looked>,
  ts: string,
) {
  const eventsByKey = new Map<string, string[]>();
  for (const { account, show } of alert.all)
    eventsByKey.set(account.key, [...(eventsByKey.get(account.key) ?? []), show.eventId]);
  for (const [key, eventIds] of eventsByKey) {
    const looked = byKey.get(key);
    if (!looked) continue;
    await deps.watchLists.saveLookup(request.teamId, request.channelId, key, {
      resolution: looked.lookup.resolution,
      exhibitorIds: looked.lookup.exhibitorIds,
      told: announcedIn(looked.told, eventIds, ts),
    });
  }
}

/** Whether the slice has posted anything yet (after that, its claim is kept even if it fails), and its paid look-ups. */
export interface SliceProgress {
  posted: boolean;
  paidLookups: number;
}

/** Posts the slice's alert (remembered as the announcing message) and its notices; whether it posted an alert. */
export async function postSlice(
  deps: WatchCheckDeps,
  request: WatchCheckRequest,
  looked: readonly Looked[],
  lookups: WatchLookups,
  progress: SliceProgress,
): Promise<boolean> {
  const byKey = new Map(looked.map((item) => [item.account.key, item]));
  const posts = planWatchPosts(looked);
  if (posts.alert) {
    const message = await alertMessage(deps, lookups, request.channelId, posts.alert, byKey);
    progress.posted = true;
    const { ts } = await deps.poster.postAlert(message);
    await rememberAlert(deps, request, posts.alert, byKey, ts);
  }
  if (posts.notices.length > 0) progress.posted = true;
  await postNotices(deps, request.channelId, posts.notices, byKey);
  return posts.alert !== null;
}
