import { parseCalendarPeriod } from '../../../domain/periods.ts';
import { readRegion } from '../../../domain/regions.ts';
import { showFit, type ShowFitSources } from '../../../domain/show-fit.ts';
import { showUnlockCost } from '../../../domain/unlock-cost.ts';
import { pageOf, rankWatchedShows, type WatchedShow } from '../../../domain/watch/where.ts';
import type { EisClient } from '../../../eis/index.ts';
import type { Store } from '../../../store/index.ts';
import { utcDate } from '../../../time/local-time.ts';
import type { JobContext } from '../../kit/jobs.ts';
import { fitBand } from '../../views/fit-band.ts';
import type { SlackMessage } from '../../views/types.ts';
import type { WatchCommand } from './commands.ts';
import { WATCH_SHOWS_PAGE, type WatchShowRow, watchShowsAnswer } from './shows-views.ts';

/** What `/events watch shows` reads: the channel's stored watch, and the service's free fit and precheck. */
export interface WatchShowsDeps extends ShowFitSources {
  watchLists: Pick<Store['watchLists'], 'allAccounts'>;
  eis: { events: Pick<EisClient['events'], 'fitScore'>; actions: Pick<EisClient['actions'], 'precheck'> };
}

async function rowOf(deps: WatchShowsDeps, shown: WatchedShow): Promise<WatchShowRow> {
  const { eventId } = shown.show;
  // Each gives null or the list price when the service fails; only a revoked key is thrown (the user's to see).
  const [fit, cost] = await Promise.all([showFit(deps, eventId), showUnlockCost(deps.eis, eventId)]);
  const score = fit ? Math.min(10, Math.max(0, fit.score)) : null;
  return {
    shown,
    fit: score === null ? null : { score, band: fitBand(score, fit?.recommendation) },
    cost,
  };
}

/**
 * A page of `/events watch shows`: the channel's accounts' upcoming shows ranked from what its checks
 * stored (no look-up, nothing charged), then the page's fit scores and unlock prices, free reads.
 */
export async function watchShowsPage(
  deps: WatchShowsDeps,
  context: JobContext,
  command: Extract<WatchCommand, { name: 'watch-shows' }>,
): Promise<SlackMessage> {
  const accounts = await deps.watchLists.allAccounts(context.teamId, context.channelId);
  const period = command.when === undefined ? undefined : parseCalendarPeriod(command.when);
  const region = command.region === undefined ? undefined : readRegion(command.region);
  const today = utcDate(deps.now());
  const ranked = rankWatchedShows(accounts, today, {
    region,
    from: period?.from,
    to: period?.to,
  });
  const page = pageOf(ranked, command.page, WATCH_SHOWS_PAGE);
  // A page is a handful of shows (WATCH_SHOWS_PAGE): read at once, each a fit score and a precheck.
  const rows = await Promise.all(page.items.map((shown) => rowOf(deps, shown)));
  return watchShowsAnswer({
    rows,
    page,
    filters: { region, when: period?.key, whenLabel: period?.label },
    accounts: accounts.length,
    unresolved: accounts.filter((account) => account.resolution !== 'resolved').length,
    today,
  });
}
