import { describe, expect, it } from 'vitest';
import {
  EisRateLimitedError,
  EisSubscriptionRequiredError,
  EisUpstreamError,
} from '../../../src/eis/errors.ts';
import { CreditBalanceSchema, EventUnlockResultSchema } from '../../../src/eis/schemas.ts';
import {
  type Attempt,
  judgeAttempt,
  type ResponseAttempt,
  transportAttempt,
} from '../../../src/eis/verdict.ts';
import {
  apiError,
  concurrencyEnvelope,
  creditBalance,
  featureEnvelope,
  KEY,
  unlockResult,
} from '../../support/fake-service.ts';

const balanceRead = { operation: 'credits.balance', charging: false, schema: CreditBalanceSchema };
const eventUnlock = { operation: 'events.unlock', charging: true, schema: EventUnlockResultSchema };

function response(status: number, body: unknown, headers: Record<string, string> = {}): ResponseAttempt {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { kind: 'response', status, headers, text };
}

function connectionError(code: string): Error {
  return Object.assign(new Error(`${code} while talking to eis.test`), { code });
}

function failureOf(verdict: ReturnType<typeof judgeAttempt>) {
  if (verdict.ok) throw new Error('expected a failed verdict');
  return verdict;
}

describe('eis verdict: classifying one attempt', () => {
  it('returns the parsed value and the header trace id for a 2xx that matches the schema', () => {
    // Prepare
    const attempt = response(200, creditBalance(), { 'x-trace-id': 'trace-ok' });

    // Act
    const verdict = judgeAttempt(balanceRead, attempt, KEY);

    // Assess
    expect(verdict).toMatchObject({ ok: true, traceId: 'trace-ok', value: { totalBalance: 8000 } });
  });

  it('treats a 2xx concurrency envelope as rate limiting that is safe to retry, even when charging', () => {
    // Prepare
    const attempt = response(200, concurrencyEnvelope(), { 'retry-after': '2' });

    // Act
    const failure = failureOf(judgeAttempt(eventUnlock, attempt, KEY));

    // Assess
    expect(failure.retry).toBe(true);
    expect(failure.retryAfterMs).toBe(2000);
    expect(failure.error).toBeInstanceOf(EisRateLimitedError);
    expect(failure.error).toMatchObject({
      concurrencyLimit: true,
      status: 429,
      traceId: 'trace-concurrency',
    });
  });

  it('treats a 2xx feature envelope as a subscription error that is not retried', () => {
    // Prepare
    const attempt = response(200, featureEnvelope());

    // Act
    const failure = failureOf(judgeAttempt(balanceRead, attempt, KEY));

    // Assess
    expect(failure.retry).toBe(false);
    expect(failure.error).toBeInstanceOf(EisSubscriptionRequiredError);
    expect(failure.error.errorKey).toBe('USER_HAS_NO_FEATURE');
  });

  it('retries a 429 after its Retry-After, charging or not', () => {
    // Prepare
    const attempt = response(429, apiError(429, 'RATE_LIMITED'), { 'retry-after': '3' });

    // Act
    const failure = failureOf(judgeAttempt(eventUnlock, attempt, KEY));

    // Assess
    expect(failure.retry).toBe(true);
    expect(failure.retryAfterMs).toBe(3000);
    expect(failure.error).toBeInstanceOf(EisRateLimitedError);
    expect(failure.error).toMatchObject({
      retryAfterMs: 3000,
      concurrencyLimit: false,
      traceId: 'trace-429',
    });
  });

  it('marks a 5xx on a charging call as outcome unknown and does not retry it', () => {
    // Prepare
    const attempt = response(502, apiError(502, 'BAD_GATEWAY'));

    // Act
    const failure = failureOf(judgeAttempt(eventUnlock, attempt, KEY));

    // Assess
    expect(failure.retry).toBe(false);
    expect(failure.error).toBeInstanceOf(EisUpstreamError);
    expect(failure.error).toMatchObject({ failure: 'server-error', outcomeUnknown: true, retryable: false });
  });

  it('retries a 5xx on a read', () => {
    // Prepare
    const attempt = response(503, apiError(503, 'UNAVAILABLE'));

    // Act
    const failure = failureOf(judgeAttempt(balanceRead, attempt, KEY));

    // Assess
    expect(failure.retry).toBe(true);
    expect(failure.error).toMatchObject({ failure: 'server-error', outcomeUnknown: false, retryable: true });
  });

  it('retries a charging call whose connection was never made', () => {
    // Prepare
    const attempt: Attempt = transportAttempt(connectionError('ECONNREFUSED'), false, KEY);

    // Act
    const failure = failureOf(judgeAttempt(eventUnlock, attempt, KEY));

    // Assess
    expect(attempt).toMatchObject({ notSent: true, timedOut: false });
    expect(failure.retry).toBe(true);
    expect(failure.error).toMatchObject({ failure: 'network', outcomeUnknown: false, retryable: true });
  });

  it('does not retry a charging call whose connection broke after sending', () => {
    // Prepare
    const attempt = transportAttempt(connectionError('ECONNRESET'), false, KEY);

    // Act
    const failure = failureOf(judgeAttempt(eventUnlock, attempt, KEY));

    // Assess
    expect(failure.retry).toBe(false);
    expect(failure.error).toMatchObject({ failure: 'network', outcomeUnknown: true, retryable: false });
  });

  it('marks malformed JSON on a charging 2xx as outcome unknown, not retried', () => {
    // Prepare
    const attempt = response(200, `{"creditsUsed": 2000, "note": "${KEY}`);

    // Act
    const failure = failureOf(judgeAttempt(eventUnlock, attempt, KEY));

    // Assess
    expect(failure.retry).toBe(false);
    expect(failure.error).toBeInstanceOf(EisUpstreamError);
    expect(failure.error).toMatchObject({ failure: 'malformed-json', outcomeUnknown: true, status: 200 });
    expect(JSON.stringify({ ...failure.error, cause: String(failure.error.cause) })).not.toContain(KEY);
  });

  it('marks a charging 2xx that does not match the schema as outcome unknown', () => {
    // Prepare
    const attempt = response(200, unlockResult({ creditsUsed: undefined, success: 'yes' }));

    // Act
    const failure = failureOf(judgeAttempt(eventUnlock, attempt, KEY));

    // Assess
    expect(failure.retry).toBe(false);
    expect(failure.error).toMatchObject({ failure: 'unexpected-shape', outcomeUnknown: true });
  });
});
