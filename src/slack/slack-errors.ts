import { ErrorCode, type WebAPICallError } from '@slack/web-api';
import { SlackDeliveryError } from '../domain/slack-delivery.ts';

/**
 * A failed Web API call, told by the library's error code rather than `instanceof`, which a second
 * copy of the package (Bolt's own) would defeat. The code narrows to the library's error class.
 */
function webApiError(error: unknown): WebAPICallError | undefined {
  if (!(error instanceof Error) || !('code' in error)) return undefined;
  const codes: unknown[] = [
    ErrorCode.PlatformError,
    ErrorCode.RateLimitedError,
    ErrorCode.HTTPError,
    ErrorCode.RequestError,
  ];
  return codes.includes(error.code) ? (error as WebAPICallError) : undefined;
}

/** Slack's reason for refusing a call (`channel_not_found`, `message_not_found`…); undefined for other failures. */
export function slackErrorCode(error: unknown): string | undefined {
  const failure = webApiError(error);
  return failure?.code === ErrorCode.PlatformError ? failure.data.error : undefined;
}

/**
 * Turns a Web API failure into the domain's `SlackDeliveryError`. Only a rate limit is retried: after
 * a timeout or a Slack-side error the message may have arrived, so trying again could post it twice
 * (losing one is the lesser harm, and is recorded).
 */
export function slackDeliveryErrorOf(error: unknown): SlackDeliveryError {
  if (error instanceof SlackDeliveryError) return error;
  const failure = webApiError(error);
  const fail = (reason: string) => new SlackDeliveryError(reason, { retryable: false, cause: error });
  switch (failure?.code) {
    case ErrorCode.RateLimitedError:
      return new SlackDeliveryError('ratelimited', {
        retryable: true,
        retryAfterMs: failure.retryAfter * 1000,
        cause: error,
      });
    case ErrorCode.PlatformError:
      return fail(failure.data.error);
    case ErrorCode.HTTPError:
      return fail(`http_${failure.statusCode}`);
    case ErrorCode.RequestError:
      return fail('request_failed');
    default:
      return fail('unexpected_error');
  }
}
