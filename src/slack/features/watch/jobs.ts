import type { WebClient } from '@slack/web-api';
import { isApprover, type SpendPolicy } from '../../../domain/approval.ts';
import type { Metrics, WatchPoster } from '../../../domain/ports/index.ts';
import type { WatchCheckDeps } from '../../../domain/watch/index.ts';
import type { PaidLookupDeps } from '../../../domain/watch/paid-lookup.ts';
import type { LookupMemos } from '../../../domain/watch/shared-lookups.ts';
import { type EisClient, watchSemaphoreForKey } from '../../../eis/index.ts';
import { serviceAccountId } from '../../../platform/config/secrets.ts';
import type { Logger } from '../../../platform/log.ts';
import type { Store } from '../../../store/index.ts';
import { slackCall } from '../../scheduled.ts';
import { isAdminOfTeam, membershipInTeam } from '../../kit/workspace-roles.ts';
import { eisWatchLookups, limitedLookups } from './lookups.ts';
import { watchAlertMessage, watchNoticeMessage } from './views.ts';

/** Posts a check's alert in the channel and its notices in the announcing alert's thread. */
export function watchPoster(web: Pick<WebClient, 'chat'>): WatchPoster {
  return {
    postAlert: async (alert) => {
      const posted = await slackCall(() =>
        web.chat.postMessage({
          channel: alert.channelId,
          ...watchAlertMessage(alert),
          unfurl_links: false,
          unfurl_media: false,
        }),
      );
      if (!posted.ts) throw new Error('Slack answered a posted watch alert without its ts');
      return { ts: posted.ts };
    },
    postNotice: async (notice) => {
      await slackCall(() =>
        web.chat.postMessage({
          channel: notice.channelId,
          ...(notice.threadTs ? { thread_ts: notice.threadTs } : {}),
          ...watchNoticeMessage(notice),
          unfurl_links: false,
        }),
      );
    },
  };
}

interface WatchRuntime {
  store: Pick<Store, 'watchLists' | 'confirmations' | 'charges' | 'workspaces'>;
  eis: EisClient;
  access: { eisApiKey: string; policyIn: (channelId: string) => Promise<SpendPolicy> };
  metrics: Metrics;
  logger: Logger;
  now: () => Date;
}

/**
 * A scheduled check's paid look-ups: charged as a confirmed charge is (the service account of the
 * key, the workspace's daily cap), pre-approved while the budget's setter is still an approver or admin, and a member.
 */
function paidLookupDeps(runtime: WatchRuntime, web: WebClient): PaidLookupDeps {
  const { store, eis, access, logger, now, metrics } = runtime;
  return {
    charge: {
      eis,
      confirmations: store.confirmations,
      charges: store.charges,
      policyIn: access.policyIn,
      accountId: serviceAccountId(access.eisApiKey),
      logger,
      now,
      metrics,
    },
    watchLists: store.watchLists,
    mayPreApprove: async (teamId, channelId, userId) =>
      (await membershipInTeam(store, web, { teamId, userId }, logger)) === 'member' &&
      (isApprover(await access.policyIn(channelId), userId) ||
        isAdminOfTeam(store, web, { teamId, userId }, logger)),
  };
}

/**
 * What a channel's scheduled check runs on: the store's watch lists, the look-ups (at most the key's
 * watch share at once in this process, their answers shared by the key's checks through `memos`), Slack.
 */
export function watchCheckDeps(runtime: WatchRuntime, web: WebClient, memos?: LookupMemos): WatchCheckDeps {
  const { eisApiKey } = runtime.access;
  return {
    watchLists: runtime.store.watchLists,
    lookups: limitedLookups(eisWatchLookups(runtime.eis), watchSemaphoreForKey(eisApiKey)),
    ...(memos ? { sharedLookups: memos.forAccount(serviceAccountId(eisApiKey)) } : {}),
    poster: watchPoster(web),
    logger: runtime.logger,
    now: runtime.now,
    paidLookup: paidLookupDeps(runtime, web),
  };
}
