import { WebClient } from '@slack/web-api';
import { describeStoredAction } from './features/charges/charge-words.ts';
import { storedOutcome } from '../domain/confirmations.ts';
import type { Digest } from '../domain/digest.ts';
import type { FollowUpPolling, UnlockThread } from '../domain/unlock-polling.ts';
import type { Store } from '../store/index.ts';
import { webClientOptions } from './web-client.ts';
import { slackDeliveryErrorOf } from './slack-errors.ts';
import { cardPrice } from './features/charges/money-words.ts';
import { digestMessage } from './features/digests/views.ts';
import { followUpReply, followUpTimeoutReply } from './features/follow-up/views.ts';
import {
  unlockAccountChangedReply,
  unlockCardUpdate,
  unlockResultReply,
  unlockTimeoutReply,
} from './features/unlock-results/views.ts';
import type { SlackMessage } from './views/types.ts';

async function slackCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw slackDeliveryErrorOf(error);
  }
}

/**
 * Slack for the scheduled jobs. Rate limits come back as errors with Retry-After, so the domain paces
 * and knows its deadline; the client itself never retries, since a retried post may arrive twice.
 */
export function scheduledWebClient(token: string, slackApiUrl: string | undefined): WebClient {
  return new WebClient(token, {
    ...webClientOptions(slackApiUrl, { retries: false }),
    rejectRateLimitedCalls: true,
  });
}

/** Where finished unlock tasks are told: the card's thread, and the card itself. */
export function unlockThread(web: WebClient, store: Pick<Store, 'confirmations'>): UnlockThread {
  const reply = (channel: string, threadTs: string, message: SlackMessage) =>
    slackCall(() => web.chat.postMessage({ channel, thread_ts: threadTs, ...message, unfurl_links: false }));
  return {
    async postResult(task, result) {
      await reply(task.channelId, task.threadTs, unlockResultReply(result, task.names, task.threadTs));
    },
    async postTimeout(task) {
      await reply(task.channelId, task.threadTs, unlockTimeoutReply(task));
    },
    async postAccountChanged(task) {
      await reply(task.channelId, task.threadTs, unlockAccountChangedReply(task));
    },
    async updateCard(task, outcome) {
      if (!task.confirmationId) return;
      const confirmation = await store.confirmations.get(task.confirmationId);
      if (confirmation?.status !== 'succeeded') return;
      const charge = storedOutcome(confirmation);
      const card = unlockCardUpdate(
        {
          description: describeStoredAction(confirmation.action),
          price: cardPrice(confirmation),
          requestedBy: confirmation.requestedBy,
          confirmedBy: confirmation.confirmedBy ?? confirmation.requestedBy,
          creditsSpent: charge.creditsSpent ?? confirmation.price.credits,
          balanceAfter: charge.balanceAfter,
        },
        task.kind,
        outcome,
      );
      await slackCall(() => web.chat.update({ channel: task.channelId, ts: task.threadTs, ...card }));
    },
  };
}

/** Where finished follow-ups (outreach drafts, LinkedIn activity) are told: the unlock's thread. */
export function followUpThread(web: WebClient, progress: FollowUpPolling['progress']): FollowUpPolling {
  const reply = (channel: string, threadTs: string, message: SlackMessage) =>
    slackCall(() => web.chat.postMessage({ channel, thread_ts: threadTs, ...message, unfurl_links: false }));
  return {
    progress,
    async postResult(task, result) {
      await reply(task.channelId, task.threadTs, followUpReply(result, task.names));
    },
    async postTimeout(task) {
      await reply(task.channelId, task.threadTs, followUpTimeoutReply(task));
    },
  };
}

/** Posts a channel's daily digest. */
export function digestPoster(web: WebClient) {
  return async (channel: string, digest: Digest): Promise<void> => {
    await slackCall(() =>
      web.chat.postMessage({ channel, ...digestMessage(digest), unfurl_links: false, unfurl_media: false }),
    );
  };
}

/** Updates a confirmation card in place (the reconciler's final cards). */
export function cardUpdater(web: WebClient) {
  return async (channel: string, ts: string, message: SlackMessage): Promise<void> => {
    await web.chat.update({ channel, ts, ...message });
  };
}
