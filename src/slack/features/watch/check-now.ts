import { randomUUID } from 'node:crypto';
import type { WatchLookups, WatchPoster } from '../../../domain/ports/index.ts';
import {
  checkWatchedChannel,
  type WatchCheckDeps,
  type WatchCheckRequest,
  type WatchCheckSummary,
} from '../../../domain/watch/index.ts';
import type { Logger } from '../../../platform/log.ts';
import type { JobContext } from '../../kit/jobs.ts';
import { errorMessage } from '../../views/messages.ts';
import type { SlackOut } from '../../kit/slack-out.ts';
import { watchAlertMessage, watchNoticeMessage } from './views.ts';

/** What a check run from the worker needs: the watch lists, the free look-ups, the worker's Slack. */
export interface CheckNowDeps {
  watchLists: WatchCheckDeps['watchLists'];
  lookups: WatchLookups;
  slack: Pick<SlackOut, 'post' | 'ephemeral'>;
  logger: Logger;
  now: () => Date;
}

/** The worker's Slack as a check's poster: the alert in the channel, notices in its thread. */
function posterFor(deps: CheckNowDeps, context: JobContext): WatchPoster {
  return {
    postAlert: async (alert) => {
      const ts = await deps.slack.post({ ...context, channelId: alert.channelId }, watchAlertMessage(alert));
      if (!ts) throw new Error('the watch alert could not be posted in the channel');
      return { ts };
    },
    postNotice: async (notice) => {
      await deps.slack.post(
        { ...context, channelId: notice.channelId },
        watchNoticeMessage(notice),
        notice.threadTs ?? undefined,
      );
    },
  };
}

/**
 * A command's check runs slices one after another for this long, then one more at most, which leaves
 * the accounts it did not reach to the hourly run: a slice is about 25 s at 1.2 s a call, so the
 * worker's 180 s timeout is never reached.
 */
export const COMMAND_CHECK_MS = 90_000;

/** A command check's slices as one: counts added, the last slice's account counts. */
const together = (a: WatchCheckSummary, b: WatchCheckSummary): WatchCheckSummary => ({
  ...b,
  looked: a.looked + b.looked,
  serviceCalls: a.serviceCalls + b.serviceCalls,
  postedAlert: a.postedAlert || b.postedAlert,
  appeared: a.appeared + b.appeared,
  changed: a.changed + b.changed,
  dropped: a.dropped + b.dropped,
  failed: a.failed + b.failed,
});

/**
 * Checks the context's channel now on free look-ups, under a fresh check id (never a scheduled
 * one's), a slice at a time for `COMMAND_CHECK_MS`; the accounts it does not reach are left to the
 * hourly run (the channel is made due). Accounts never looked up take their current shows as told,
 * without an alert.
 */
export async function checkChannelNow(deps: CheckNowDeps, context: JobContext): Promise<WatchCheckSummary> {
  const { teamId, channelId } = context;
  const checkDeps = {
    watchLists: deps.watchLists,
    lookups: deps.lookups,
    poster: posterFor(deps, context),
    logger: deps.logger,
    now: deps.now,
  };
  const started = performance.now();
  let request: WatchCheckRequest = { teamId, channelId, checkId: `command:${randomUUID()}` };
  let summary: WatchCheckSummary | undefined;
  for (;;) {
    const last = performance.now() - started >= COMMAND_CHECK_MS;
    const slice = await checkWatchedChannel(checkDeps, last ? { ...request, restHourly: true } : request);
    summary = summary ? together(summary, slice) : slice;
    if (!slice.next) return summary;
    request = slice.next;
  }
}

/**
 * The check a changed watch gets at once, after its answer was sent. A failure is logged and told to
 * the user; the channel stays due, so the hourly run checks it.
 */
export async function checkAfterChange(deps: CheckNowDeps, context: JobContext): Promise<void> {
  try {
    await checkChannelNow(deps, context);
  } catch (error) {
    deps.logger.warn('a changed watch could not be checked at once', { error });
    await deps.slack
      .ephemeral(
        context,
        errorMessage(
          'The check of this channel’s watch could not finish just now; it runs again within the hour.',
        ),
      )
      .catch((notifyError: unknown) =>
        deps.logger.warn('could not tell the user a watch check failed', { error: notifyError }),
      );
  }
}
