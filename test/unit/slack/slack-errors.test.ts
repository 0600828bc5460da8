import {
  WebAPIHTTPError,
  WebAPIPlatformError,
  WebAPIRateLimitedError,
  WebAPIRequestError,
} from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { slackDeliveryErrorOf, slackErrorCode } from '../../../src/slack/slack-errors.ts';

describe('Slack errors, by the library error they are', () => {
  it('retries only a rate limit, after the wait Slack asked for', () => {
    const limited = slackDeliveryErrorOf(new WebAPIRateLimitedError(3));

    expect(limited).toMatchObject({ slackError: 'ratelimited', retryable: true, retryAfterMs: 3000 });
  });

  it("names Slack's refusal, an HTTP status or a lost request, none retried", () => {
    const refused = slackDeliveryErrorOf(new WebAPIPlatformError({ ok: false, error: 'channel_not_found' }));
    const http = slackDeliveryErrorOf(new WebAPIHTTPError(503, 'Service Unavailable', {}));
    const lost = slackDeliveryErrorOf(new WebAPIRequestError(new Error('ECONNRESET')));
    const odd = slackDeliveryErrorOf(new TypeError('x is undefined'));

    expect([refused, http, lost, odd].map((e) => [e.slackError, e.retryable])).toEqual([
      ['channel_not_found', false],
      ['http_503', false],
      ['request_failed', false],
      ['unexpected_error', false],
    ]);
  });

  it("reads Slack's reason only from a refusal", () => {
    expect(slackErrorCode(new WebAPIPlatformError({ ok: false, error: 'message_not_found' }))).toBe(
      'message_not_found',
    );
    expect(slackErrorCode(new WebAPIRateLimitedError(1))).toBeUndefined();
    expect(slackErrorCode(Object.assign(new Error('lookalike'), { code: 'ENOTFOUND' }))).toBeUndefined();
  });
});
