import { LogLevel, type WebClientOptions } from '@slack/web-api';

/**
 * Bounded Slack Web API calls: a Lambda must never hang on Slack. Two quick retries, 5 s per call;
 * none for a client that posts messages (`retries: false`): a post that Slack stored but answered
 * slowly would be posted again.
 */
export function webClientOptions(
  slackApiUrl?: string,
  { retries = true, timeoutMs = 5000 }: { retries?: boolean; timeoutMs?: number } = {},
): WebClientOptions {
  return {
    ...(slackApiUrl ? { slackApiUrl } : {}),
    timeout: timeoutMs,
    retryConfig: retries ? { retries: 2, factor: 2, minTimeout: 200, maxTimeout: 2000 } : { retries: 0 },
    logLevel: LogLevel.WARN,
  };
}
