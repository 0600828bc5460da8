import type { WebClient } from '@slack/web-api';
import type { WatchPoster } from '../../../domain/ports/index.ts';
import type { WatchCheckDeps } from '../../../domain/watch/index.ts';
import type { EisClient } from '../../../eis/index.ts';
import type { Logger } from '../../../platform/log.ts';
import type { Store } from '../../../store/index.ts';
import { slackCall } from '../../scheduled.ts';
import { eisWatchLookups } from './lookups.ts';
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

/** What a channel's check runs on: the store's watch lists, the free look-ups, Slack. */
export function watchCheckDeps(
  runtime: { store: Pick<Store, 'watchLists'>; eis: EisClient; logger: Logger; now: () => Date },
  web: Pick<WebClient, 'chat'>,
): WatchCheckDeps {
  return {
    watchLists: runtime.store.watchLists,
    lookups: eisWatchLookups(runtime.eis),
    poster: watchPoster(web),
    logger: runtime.logger,
    now: runtime.now,
  };
}
