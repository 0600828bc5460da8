import { WebClient } from '@slack/web-api';
import { webClientOptions } from './web-client.ts';
import { slackDeliveryErrorOf } from './slack-errors.ts';
import type { SlackMessage } from './views/types.ts';

/**
 * Slack for the scheduled jobs (each room's `jobs.ts` posts its own: unlock results, follow-ups,
 * digests, confirmation cards). Failures come back as the domain's `SlackDeliveryError`.
 */

export async function slackCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw slackDeliveryErrorOf(error);
  }
}

/**
 * Rate limits come back as errors with Retry-After, so the domain paces and knows its deadline; the
 * client itself never retries, since a retried post may arrive twice.
 */
export function scheduledWebClient(token: string, slackApiUrl: string | undefined): WebClient {
  return new WebClient(token, {
    ...webClientOptions(slackApiUrl, { retries: false }),
    rejectRateLimitedCalls: true,
  });
}

/** A reply in a thread (unlock results, follow-ups), links not unfurled. */
export const replyInThread = (web: WebClient) => (channel: string, threadTs: string, message: SlackMessage) =>
  slackCall(() => web.chat.postMessage({ channel, thread_ts: threadTs, ...message, unfurl_links: false }));
