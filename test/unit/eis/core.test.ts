import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  EisBadInputError,
  EisCreditOperationInProgressError,
  EisError,
  EisInsufficientCreditsError,
  EisNotFoundError,
  EisRateLimitedError,
  EisSubscriptionRequiredError,
  EisUnauthorizedError,
  EisUpstreamError,
  referenceOf,
  traceIdOf,
} from '../../../src/eis/index.ts';
import { safeTraceId } from '../../../src/eis/core.ts';
import type { Logger } from '../../../src/platform/log.ts';
import {
  apiError,
  caught,
  clientFor,
  concurrencyEnvelope,
  creditBalance,
  eventItem,
  fakeService,
  featureEnvelope,
  KEY,
  page,
  unlockResult,
} from '../../support/fake-service.ts';
import { everyFormOf } from '../../support/error-forms.ts';

const BALANCE = '/external/credits/balance';
const UNLOCK = '/external/events/ev-101/unlock';

describe('eis core: requests', () => {
  it('sends the bearer key, x-call-source api, and no content-type on a bodiless GET', async () => {
    // Prepare
    const service = fakeService();
    service.on('GET', BALANCE, { status: 200, body: creditBalance() });
    const { client } = clientFor(service);

    // Act
    const balance = await client.credits.balance();

    // Assess
    expect(balance.totalBalance).toBe(8000);
    const [request] = service.requests;
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers['x-call-source']).toBe('api');
    expect(request?.headers['content-type']).toBeUndefined();
  });

  it('sends a JSON body with content-type application/json', async () => {
    // Prepare
    const service = fakeService();
    service.on('POST', '/external/exhibitors/search-by-company-name', { status: 201, body: page([]) });
    const { client } = clientFor(service);

    // Act
    await client.exhibitors.searchByCompanyName({ companyName: 'Acme', pageSize: 10 });

    // Assess
    const [request] = service.requests;
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({ company_name: 'Acme', pageSize: 10 });
  });

  it('encodes path parameters', async () => {
    // Prepare
    const service = fakeService();
    service.on('POST', '/external/events/a%2Fb%20c%3F/unlock', { status: 201, body: unlockResult() });
    const { client } = clientFor(service);

    // Act
    await client.events.unlock('a/b c?');

    // Assess
    expect(service.requests[0]?.path).toBe('/external/events/a%2Fb%20c%3F/unlock');
  });

  it('sends query arrays as repeated parameters and leaves out unset ones', async () => {
    // Prepare
    const service = fakeService();
    service.on('GET', '/external/exhibitors/list', { status: 200, body: page([]) });
    const { client } = clientFor(service);

    // Act
    await client.exhibitors.list({ eventId: '101', category: ['Tech', 'Food & Drink'], page: 2 });

    // Assess
    const query = service.requests[0]?.query;
    expect(query?.getAll('category')).toEqual(['Tech', 'Food & Drink']);
    expect(query?.get('event_id')).toBe('101');
    expect(query?.get('page')).toBe('2');
    expect(query?.has('keyword')).toBe(false);
  });

  it('keeps a base address path prefix', async () => {
    // Prepare
    const service = fakeService();
    service.on('GET', `/api${BALANCE}`, { status: 200, body: creditBalance() });
    const { client } = clientFor(service, { baseUrl: 'http://eis.test/api/' });

    // Act
    const balance = await client.credits.balance();

    // Assess
    expect(balance.totalAmount).toBe(10_000);
  });

  it('accepts any 2xx as success (the spec and the OpenAPI disagree on 200 and 201)', async () => {
    // Prepare
    const service = fakeService();
    const fit = {
      event: eventItem(),
      score: 7.5,
      recommendation: 'recommended',
      breakdown: { profile_match: 8, matched_exhibitor_density: 7, event_scale: 6 },
    };
    service.on('POST', '/external/events/fit-score', { status: 200, body: fit }, { status: 201, body: fit });
    const { client } = clientFor(service);

    // Act
    const first = await client.events.fitScore('ev-101');
    const second = await client.events.fitScore('ev-101');

    // Assess
    expect(first.score).toBe(7.5);
    expect(second.recommendation).toBe('recommended');
  });
});

describe('eis core: error mapping', () => {
  it.each([
    [400, 'INVALID_REQUEST', EisBadInputError, 'EIS_BAD_INPUT'],
    [422, 'LEAD_SELECTION_LIMIT_EXCEEDED', EisBadInputError, 'EIS_BAD_INPUT'],
    [401, 'INVALID_API_KEY', EisUnauthorizedError, 'EIS_UNAUTHORIZED'],
    [402, 'INSUFFICIENT_CREDITS', EisInsufficientCreditsError, 'EIS_INSUFFICIENT_CREDITS'],
    [403, 'SUBSCRIPTION_REQUIRED', EisSubscriptionRequiredError, 'EIS_SUBSCRIPTION_REQUIRED'],
    [404, 'NOT_FOUND', EisNotFoundError, 'EIS_NOT_FOUND'],
    [409, 'STATE_CONFLICT', EisCreditOperationInProgressError, 'EIS_CREDIT_OPERATION_IN_PROGRESS'],
  ])(
    'maps status %i to its error class with status, errorKey and traceId',
    async (status, errorKey, type, code) => {
      // Prepare
      const service = fakeService();
      service.on('POST', UNLOCK, { status, body: apiError(status, errorKey) });
      const { client } = clientFor(service);

      // Act
      const error = await caught(client.events.unlock('ev-101'));

      // Assess
      expect(error).toBeInstanceOf(type);
      expect(error).toBeInstanceOf(EisError);
      expect(error).toMatchObject({
        status,
        errorKey,
        traceId: `trace-${status}`,
        code,
        operation: 'events.unlock',
      });
      expect(service.requests).toHaveLength(1);
    },
  );

  it('tells the user to ask an admin to check the key on 401', async () => {
    // Prepare
    const service = fakeService();
    service.on('GET', BALANCE, { status: 401, body: apiError(401, 'INVALID_API_KEY') });
    const { client } = clientFor(service);

    // Act
    const error = (await caught(client.credits.balance())) as EisUnauthorizedError;

    // Assess
    expect(error.userMessage).toMatch(/ask a workspace admin to check the key/i);
  });

  it('maps 429 to the rate-limited error with retryAfterMs from Retry-After', async () => {
    // Prepare
    const service = fakeService();
    const limited = {
      status: 429,
      body: apiError(429, 'RATE_LIMIT_EXCEEDED'),
      headers: { 'retry-after': '3' },
    };
    service.on('GET', BALANCE, limited, limited, limited);
    const { client } = clientFor(service);

    // Act
    const error = await caught(client.credits.balance());

    // Assess
    expect(error).toBeInstanceOf(EisRateLimitedError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 3000, retryable: true });
  });

  it('maps a 5xx without a JSON body to an upstream error', async () => {
    // Prepare
    const service = fakeService();
    const failed = { status: 502, body: '<html>bad gateway</html>' };
    service.on('GET', BALANCE, failed, failed, failed);
    const { client } = clientFor(service);

    // Act
    const error = await caught(client.credits.balance());

    // Assess
    expect(error).toBeInstanceOf(EisUpstreamError);
    expect(error).toMatchObject({
      status: 502,
      failure: 'server-error',
      outcomeUnknown: false,
      retryable: true,
    });
  });

  it('turns the 200 subscription envelope into the subscription-required error, never a success', async () => {
    // Prepare
    const service = fakeService();
    service.on('POST', '/external/events/ev-101/visitors/unlock', { status: 200, body: featureEnvelope() });
    const { client } = clientFor(service);

    // Act
    const error = await caught(client.events.unlockVisitors('ev-101'));

    // Assess
    expect(error).toBeInstanceOf(EisSubscriptionRequiredError);
    expect(error).toMatchObject({ errorKey: 'USER_HAS_NO_FEATURE', traceId: 'trace-feature' });
    expect(service.requests).toHaveLength(1);
  });

  it('turns a 2xx body that does not match the schema into an upstream error', async () => {
    // Prepare
    const service = fakeService();
    service.on('GET', BALANCE, { status: 200, body: { totalBalance: 'lots' } });
    const { client } = clientFor(service);

    // Act
    const error = await caught(client.credits.balance());

    // Assess
    expect(error).toBeInstanceOf(EisUpstreamError);
    expect(error).toMatchObject({ failure: 'unexpected-shape', retryable: false });
    expect(service.requests).toHaveLength(1);
  });

  it('turns malformed JSON on a 2xx into an upstream error without retrying', async () => {
    // Prepare
    const service = fakeService();
    service.on('GET', BALANCE, { status: 200, body: '{"totalBalance": 12' });
    const { client } = clientFor(service);

    // Act
    const error = await caught(client.credits.balance());

    // Assess
    expect(error).toBeInstanceOf(EisUpstreamError);
    expect(error).toMatchObject({ failure: 'malformed-json' });
    expect(service.requests).toHaveLength(1);
  });
});

describe('eis core: retries of reads', () => {
  it('retries a read on 5xx with jittered exponential backoff, then succeeds', async () => {
    // Prepare
    const service = fakeService();
    service.on(
      'GET',
      BALANCE,
      { status: 500, body: apiError(500, 'INTERNAL') },
      { status: 503, body: apiError(503, 'UNAVAILABLE') },
      { status: 200, body: creditBalance() },
    );
    const { client, sleeps } = clientFor(service, { backoffBaseMs: 100, random: () => 0.5 });

    // Act
    const balance = await client.credits.balance();

    // Assess
    expect(balance.totalBalance).toBe(8000);
    expect(service.requests).toHaveLength(3);
    // ceiling 100 then 200; half of it plus random() (0.5) times the other half
    expect(sleeps).toEqual([75, 150]);
  });

  it('caps the backoff', async () => {
    // Prepare
    const service = fakeService();
    const failed = { status: 500, body: apiError(500, 'INTERNAL') };
    service.on('GET', BALANCE, failed, failed, failed, failed, failed);
    const { client, sleeps } = clientFor(service, {
      maxRetries: 4,
      backoffBaseMs: 1000,
      backoffMaxMs: 2500,
      random: () => 0.999,
    });

    // Act
    await caught(client.credits.balance());

    // Assess
    expect(Math.max(...sleeps)).toBeLessThanOrEqual(2500);
    expect(sleeps).toHaveLength(4);
  });

  it('honours Retry-After on a 429 for a read', async () => {
    // Prepare
    const service = fakeService();
    service.on(
      'GET',
      BALANCE,
      { status: 429, body: apiError(429, 'RATE_LIMIT_EXCEEDED'), headers: { 'retry-after': '2' } },
      { status: 200, body: creditBalance() },
    );
    const { client, sleeps } = clientFor(service);

    // Act
    await client.credits.balance();

    // Assess
    expect(sleeps).toEqual([2000]);
  });

  it('honours Retry-After on a 503 for a read', async () => {
    // Prepare
    const service = fakeService();
    service.on(
      'GET',
      BALANCE,
      { status: 503, body: apiError(503, 'UNAVAILABLE'), headers: { 'retry-after': '4' } },
      { status: 200, body: creditBalance() },
    );
    const { client, sleeps } = clientFor(service);

    // Act
    await client.credits.balance();

    // Assess
    expect(sleeps).toEqual([4000]);
  });

  it('does not wait for a Retry-After beyond the cap: it throws at once with retryAfterMs', async () => {
    // Prepare
    const service = fakeService();
    service.on('GET', BALANCE, {
      status: 429,
      body: apiError(429, 'RATE_LIMIT_EXCEEDED'),
      headers: { 'retry-after': '120' },
    });
    const { client, sleeps } = clientFor(service, { maxRetryAfterMs: 10_000 });

    // Act
    const error = await caught(client.credits.balance());

    // Assess
    expect(error).toMatchObject({ retryAfterMs: 120_000 });
    expect(sleeps).toEqual([]);
    expect(service.requests).toHaveLength(1);
  });

  it('makes the client’s next request wait out a Retry-After the service gave another one', async () => {
    // Prepare: a 429 beyond the cap (thrown at once), then another read by the same client
    const service = fakeService();
    service.on(
      'GET',
      BALANCE,
      { status: 429, body: apiError(429, 'RATE_LIMIT_EXCEEDED'), headers: { 'retry-after': '8' } },
      { status: 200, body: creditBalance() },
    );
    const { client, sleeps } = clientFor(service, { maxRetryAfterMs: 5_000 });
    await caught(client.credits.balance());

    // Act
    await client.credits.balance();

    // Assess: held for at most the cap, measured from the 429
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(4_000);
    expect(sleeps[0]).toBeLessThanOrEqual(5_000);
  });

  it('stops after maxRetries and throws the last error', async () => {
    // Prepare
    const service = fakeService();
    const failed = { status: 500, body: apiError(500, 'INTERNAL') };
    service.on('GET', BALANCE, failed, failed, failed, failed);
    const { client } = clientFor(service, { maxRetries: 1 });

    // Act
    const error = await caught(client.credits.balance());

    // Assess
    expect(error).toBeInstanceOf(EisUpstreamError);
    expect(service.requests).toHaveLength(2);
  });

  it('retries a read after a timeout and fails fast when every attempt times out', async () => {
    // Prepare
    const service = fakeService();
    const slow = { status: 200, body: creditBalance(), delayMs: 1_000 };
    service.on('GET', BALANCE, slow, slow, slow);
    const { client } = clientFor(service, { timeoutMs: 50 });
    const started = Date.now();

    // Act
    const error = await caught(client.credits.balance());

    // Assess
    expect(error).toBeInstanceOf(EisUpstreamError);
    expect(error).toMatchObject({ failure: 'timeout', outcomeUnknown: false, retryable: true });
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('retries a read after a network error', async () => {
    // Prepare
    const service = fakeService();
    service.on(
      'GET',
      BALANCE,
      { error: Object.assign(new Error('socket hang up'), { code: 'UND_ERR_SOCKET' }) },
      { status: 200, body: creditBalance() },
    );
    const { client } = clientFor(service);

    // Act
    const balance = await client.credits.balance();

    // Assess
    expect(balance.totalBalance).toBe(8000);
  });
});

describe('eis core: retries of charging calls', () => {
  it('does not retry a charging POST after a 5xx: the outcome is unknown', async () => {
    // Prepare
    const service = fakeService();
    service.on(
      'POST',
      UNLOCK,
      { status: 500, body: apiError(500, 'INTERNAL') },
      { status: 201, body: unlockResult() },
    );
    const { client, sleeps } = clientFor(service);

    // Act
    const error = await caught(client.events.unlock('ev-101'));

    // Assess
    expect(error).toBeInstanceOf(EisUpstreamError);
    expect(error).toMatchObject({ outcomeUnknown: true, retryable: false });
    expect((error as Error).message).toMatch(/outcome is unknown/);
    expect((error as EisError).userMessage).toMatch(/credits may have been spent/);
    expect(service.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('does not retry a charging POST after a timeout', async () => {
    // Prepare
    const service = fakeService();
    service.on('POST', UNLOCK, { status: 201, body: unlockResult(), delayMs: 1_000 });
    service.on('POST', UNLOCK, { status: 201, body: unlockResult() });
    const { client } = clientFor(service, { timeoutMs: 50 });

    // Act
    const error = await caught(client.events.unlock('ev-101'));

    // Assess
    expect(error).toMatchObject({ failure: 'timeout', outcomeUnknown: true, retryable: false });
  });

  it('does not retry a charging POST after a network error once sent', async () => {
    // Prepare
    const service = fakeService();
    service.on('POST', UNLOCK, {
      error: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    });
    service.on('POST', UNLOCK, { status: 201, body: unlockResult() });
    const { client } = clientFor(service);

    // Act
    const error = await caught(client.events.unlock('ev-101'));

    // Assess
    expect(error).toMatchObject({ failure: 'network', outcomeUnknown: true });
    expect(service.requests).toHaveLength(0);
  });

  it('retries a charging POST whose connection was refused: it was never sent', async () => {
    // Prepare
    const service = fakeService();
    service.on('POST', UNLOCK, {
      error: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    service.on('POST', UNLOCK, { status: 201, body: unlockResult() });
    const { client } = clientFor(service);

    // Act
    const result = await client.events.unlock('ev-101');

    // Assess
    expect(result.creditsSpent).toBe(2000);
    expect(service.requests).toHaveLength(1);
  });

  it('does not retry a charging POST whose 2xx body is malformed', async () => {
    // Prepare
    const service = fakeService();
    service.on(
      'POST',
      UNLOCK,
      { status: 201, body: '{"success": tr' },
      { status: 201, body: unlockResult() },
    );
    const { client } = clientFor(service);

    // Act
    const error = await caught(client.events.unlock('ev-101'));

    // Assess
    expect(error).toMatchObject({ failure: 'malformed-json', outcomeUnknown: true });
    expect(service.requests).toHaveLength(1);
  });

  it('retries a charging POST on the 200 concurrency envelope, which means it did not run', async () => {
    // Prepare
    const service = fakeService();
    service.on(
      'POST',
      '/external/exhibitors/search-events',
      { status: 200, body: concurrencyEnvelope() },
      {
        status: 201,
        body: page([{ ...eventItem(), matchedExhibitors: [{ id: '1', companyName: 'Acme' }] }]),
      },
    );
    const { client, sleeps } = clientFor(service);

    // Act
    const result = await client.exhibitors.searchEvents({ companyName: 'Acme' });

    // Assess
    expect(result.items).toHaveLength(1);
    expect(service.requests).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('gives up on a lasting concurrency envelope with the rate-limited error', async () => {
    // Prepare
    const service = fakeService();
    const busy = { status: 200, body: concurrencyEnvelope() };
    service.on('GET', '/external/personnel/events/by-name', busy, busy, busy);
    const { client } = clientFor(service);

    // Act
    const error = await caught(client.personnel.eventsByName({ personName: 'Jane Doe' }));

    // Assess
    expect(error).toBeInstanceOf(EisRateLimitedError);
    expect(error).toMatchObject({ concurrencyLimit: true, errorKey: 'USER_CONCURRENCY_LIMIT_EXCEEDED' });
    expect(service.requests).toHaveLength(3);
  });

  it('retries a charging POST on 429, honouring Retry-After', async () => {
    // Prepare
    const service = fakeService();
    service.on(
      'POST',
      UNLOCK,
      { status: 429, body: apiError(429, 'RATE_LIMIT_EXCEEDED'), headers: { 'retry-after': '1' } },
      { status: 201, body: unlockResult() },
    );
    const { client, sleeps } = clientFor(service);

    // Act
    const result = await client.events.unlock('ev-101');

    // Assess
    expect(result.success).toBe(true);
    expect(sleeps).toEqual([1000]);
  });

  it('says what the service said when a 409 names a state rather than a running operation', async () => {
    // Prepare
    const service = fakeService();
    service.on('POST', UNLOCK, {
      status: 409,
      body: apiError(409, 'NO_CONTACTS_AVAILABLE', 'No contacts are available for this event'),
    });
    service.on('POST', UNLOCK, { status: 409, body: apiError(409, 'STATE_CONFLICT') });
    const { client } = clientFor(service);

    // Act
    const state = (await caught(client.events.unlock('ev-101'))) as EisError;
    const running = (await caught(client.events.unlock('ev-101'))) as EisError;

    // Assess
    expect(state).toBeInstanceOf(EisCreditOperationInProgressError);
    expect(state.userMessage).toMatch(/No contacts are available for this event/);
    expect(running.userMessage).toMatch(/already in progress/);
  });

  it('does not retry a 402 or a 409', async () => {
    // Prepare
    const service = fakeService();
    service.on('POST', UNLOCK, { status: 402, body: apiError(402, 'INSUFFICIENT_CREDITS') });
    service.on('POST', UNLOCK, { status: 409, body: apiError(409, 'STATE_CONFLICT') });
    const { client } = clientFor(service);

    // Act
    const first = await caught(client.events.unlock('ev-101'));
    const second = await caught(client.events.unlock('ev-101'));

    // Assess
    expect(first).toBeInstanceOf(EisInsufficientCreditsError);
    expect(second).toBeInstanceOf(EisCreditOperationInProgressError);
    expect(service.requests).toHaveLength(2);
  });
});

describe('eis core: the key stays secret', () => {
  it('keeps the key out of errors, their serialisations and the log, even when the service echoes it', async () => {
    // Prepare
    const service = fakeService();
    service.on('POST', UNLOCK, { status: 400, body: apiError(400, 'INVALID_REQUEST', `bad key ${KEY}`) });
    service.on('POST', UNLOCK, { status: 500, body: { message: `boom ${KEY}` } });
    service.on('POST', UNLOCK, { error: new Error(`socket closed for Bearer ${KEY}`) });
    const { client, logger } = clientFor(service);

    // Act
    const errors = [
      await caught(client.events.unlock('ev-101')),
      await caught(client.events.unlock('ev-101')),
      await caught(client.events.unlock('ev-101')),
    ] as EisError[];

    // Assess
    for (const error of errors) {
      expect(error.message).not.toContain(KEY);
      expect(error.userMessage).not.toContain(KEY);
      expect(JSON.stringify(error)).not.toContain(KEY);
      expect(String(error)).not.toContain(KEY);
      expect(inspect(error, { depth: 10 })).not.toContain(KEY);
    }
    expect(logger.lines.join('\n')).not.toContain(KEY);
  });

  it('never hands the key to the logger, even before redaction', async () => {
    // Prepare: a logger that records fields raw, without the redaction of src/platform/log.ts
    const raw: string[] = [];
    const rawLogger: Logger = {
      debug: (message, fields) => raw.push(JSON.stringify({ message, fields })),
      info: (message, fields) => raw.push(JSON.stringify({ message, fields })),
      warn: (message, fields) => raw.push(JSON.stringify({ message, fields })),
      error: (message, fields) => raw.push(JSON.stringify({ message, fields })),
      child: () => rawLogger,
      addLambdaContext: () => undefined,
    };
    const service = fakeService();
    service.on(
      'GET',
      BALANCE,
      { status: 500, body: { message: `boom ${KEY}` } },
      { status: 429, body: apiError(429, 'RATE_LIMIT_EXCEEDED'), headers: { 'retry-after': '1' } },
      { status: 200, body: creditBalance() },
    );
    const { client } = clientFor(service, { logger: rawLogger });

    // Act
    await client.credits.balance();

    // Assess
    expect(raw.length).toBeGreaterThanOrEqual(5);
    for (const line of raw) expect(line).not.toContain(KEY);
  });

  it('keeps the key out of every enumerable field of the client', () => {
    // Prepare
    const service = fakeService();

    // Act
    const { client } = clientFor(service);

    // Assess
    expect(JSON.stringify(client)).not.toContain(KEY);
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(KEY);
  });

  it('refuses a malformed key without echoing it', () => {
    // Prepare
    const service = fakeService();

    // Act
    const act = () => clientFor(service, { apiKey: 'sk_has whitespace' });

    // Assess
    expect(act).toThrow(EisBadInputError);
    expect(act).not.toThrow(/whitespace/);
  });
});

describe('eis core: trace ids', () => {
  // what a service that echoes the Authorization header, or any odd one, might send as its trace id
  const unsafe: [string, string][] = [
    ['the echoed Authorization header', `Bearer ${KEY}`],
    ['the bare key', KEY],
    ['the key inside an id', `trace-${KEY}-1`],
    ['a fragment of the key', KEY.slice(3)],
    ['spaces', 'abc def'],
    ['a newline', `abc\n${KEY}`],
    ['markup', `<script>${KEY}`],
    ['500 characters', KEY + 'x'.repeat(500 - KEY.length)],
  ];

  it.each(unsafe)('drops a trace id with %s from a failed charging call', async (_, traceId) => {
    // Prepare
    const service = fakeService();
    service.on('POST', UNLOCK, {
      status: 500,
      body: { code: 500, message: 'failed', errorKey: 'INTERNAL', traceId },
      headers: { 'x-trace-id': traceId },
    });
    const { client, logger } = clientFor(service);

    // Act
    const error = (await caught(client.events.unlock('ev-101'))) as EisError;

    // Assess
    expect(error).toBeInstanceOf(EisUpstreamError);
    expect(error.traceId).toBeUndefined();
    expect(referenceOf(error)).toBeUndefined();
    for (const form of everyFormOf(error)) expect(form).not.toContain(KEY);
    expect(logger.lines.join('\n')).not.toContain(KEY);
  });

  it.each(unsafe)('drops a trace id with %s from a 401 and from a success', async (_, traceId) => {
    // Prepare
    const service = fakeService();
    service.on(
      'GET',
      BALANCE,
      { status: 401, body: { message: 'no' }, headers: { 'x-request-id': traceId } },
      { status: 200, body: creditBalance(), headers: { 'x-trace-id': traceId } },
    );
    const { client } = clientFor(service);

    // Act
    const error = (await caught(client.credits.balance())) as EisError;
    const balance = await client.credits.balance();

    // Assess
    expect(error).toBeInstanceOf(EisUnauthorizedError);
    expect(error.traceId).toBeUndefined();
    expect(JSON.stringify(error)).not.toContain(KEY);
    expect(traceIdOf(balance)).toBeUndefined();
  });

  it('keeps a plain trace id on the error and in its reference, never in the user message', async () => {
    // Prepare
    const service = fakeService();
    service.on('POST', UNLOCK, {
      status: 500,
      body: { message: 'boom' },
      headers: { 'x-trace-id': 'abc-123.def:4_5' },
    });
    service.on('GET', BALANCE, { status: 401, body: apiError(401, 'INVALID_API_KEY') });
    const { client } = clientFor(service);

    // Act
    const upstream = (await caught(client.events.unlock('ev-101'))) as EisError;
    const unauthorized = (await caught(client.credits.balance())) as EisError;

    // Assess
    expect(upstream.traceId).toBe('abc-123.def:4_5');
    expect(referenceOf(upstream)).toBe('Reference: abc-123.def:4_5');
    expect(upstream.userMessage).not.toContain('abc-123.def:4_5');
    expect(unauthorized.traceId).toBe('trace-401');
    expect(referenceOf(unauthorized)).toBe('Reference: trace-401');
    expect(unauthorized.userMessage).not.toContain('trace-401');
  });

  it('keeps a plain trace id of a success for the ledger', async () => {
    // Prepare
    const service = fakeService();
    service.on('GET', BALANCE, {
      status: 200,
      body: creditBalance(),
      headers: { 'x-trace-id': 'abc-123.def:4_5' },
    });
    const { client } = clientFor(service);

    // Act
    const balance = await client.credits.balance();

    // Assess
    expect(traceIdOf(balance)).toBe('abc-123.def:4_5');
  });

  it('falls back to x-request-id when x-trace-id is unsafe', async () => {
    // Prepare
    const service = fakeService();
    service.on('GET', BALANCE, {
      status: 200,
      body: creditBalance(),
      headers: { 'x-trace-id': `Bearer ${KEY}`, 'x-request-id': 'req-7' },
    });
    const { client } = clientFor(service);

    // Act
    const balance = await client.credits.balance();

    // Assess
    expect(traceIdOf(balance)).toBe('req-7');
  });

  it('gives no reference for an error without a trace id or one that is not from the service', () => {
    // Prepare
    const withoutTrace = new EisNotFoundError({ operation: 'events.detail' });

    // Act
    const references = [referenceOf(withoutTrace), referenceOf(new Error('x')), referenceOf('trace-1')];

    // Assess
    expect(references).toEqual([undefined, undefined, undefined]);
  });

  it('accepts only plain ids of 1 to 100 characters', () => {
    // Prepare
    const key = 'sk_test_9d1e';

    // Act
    const kept = ['a', 'abc-123.def:4_5', 'x'.repeat(100)].map((value) => safeTraceId(value, key));
    const dropped = ['', 'x'.repeat(101), 'a/b', 'a b', 'a\n', 42, null, undefined].map((value) =>
      safeTraceId(value, key),
    );

    // Assess
    expect(kept).toEqual(['a', 'abc-123.def:4_5', 'x'.repeat(100)]);
    expect(dropped.every((value) => value === undefined)).toBe(true);
  });
});
