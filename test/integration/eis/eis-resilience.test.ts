import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createEisClient,
  EisBadInputError,
  type EisClient,
  type EisClientOptions,
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
import { createMemoryLogger } from '../../../src/platform/log.ts';
import {
  BIG_EVENT_ID,
  KNOWN_COMPANY_NAME,
  KNOWN_PERSON_NAME,
  type Simulator,
  startSimulator,
  UNSUBSCRIBED_API_KEY,
} from '../../../simulator/server.ts';
import { everyFormOf } from '../../support/error-forms.ts';

/*
 * Errors, retries, timeouts, the limiter and the secrecy of the key, against the simulator over real HTTP.
 */

const UNLOCK_ROUTE = 'POST /external/events/{id}/unlock';
const BALANCE_ROUTE = 'GET /external/credits/balance';

let sim: Simulator;
const clients: EisClient[] = [];

beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await sim.close();
});
afterEach(async () => {
  sim.clearFaults();
  sim.setLatency(0);
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A client whose delays are recorded in `sleeps`, not waited; with `realSleep`, its own sleep waits. */
function newAccount(
  account: { balance?: number; subscribed?: boolean } = {},
  { realSleep = false, ...options }: Partial<EisClientOptions> & { realSleep?: boolean } = {},
) {
  const key = `sk_test_${randomUUID().replaceAll('-', '')}`;
  sim.addKey(key, account);
  const sleeps: number[] = [];
  const logger = createMemoryLogger();
  const recordSleep = (ms: number) => {
    sleeps.push(ms);
    return Promise.resolve();
  };
  const client = createEisClient({
    baseUrl: sim.url,
    apiKey: key,
    logger,
    ...(realSleep ? {} : { sleep: recordSleep }),
    ...options,
  });
  clients.push(client);
  return { key, client, sleeps, logger };
}

function clientFor(apiKey: string, options: Partial<EisClientOptions> = {}) {
  const client = createEisClient({ baseUrl: sim.url, apiKey, sleep: async () => {}, ...options });
  clients.push(client);
  return client;
}

async function caught(promise: Promise<unknown>): Promise<EisError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof EisError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

function requestsTo(path: string, since: number) {
  return sim
    .requests()
    .slice(since)
    .filter((request) => request.path === path);
}

describe('eis errors from the service', () => {
  it('maps an invalid event id to the bad-input error', async () => {
    // Prepare
    const { client } = newAccount();

    // Act
    const error = await caught(client.events.detail('not a valid id!'));

    // Assess
    expect(error).toBeInstanceOf(EisBadInputError);
    expect(error).toMatchObject({ status: 400, errorKey: 'INVALID_REQUEST' });
    expect(error.traceId).toBeTruthy();
  });

  it('maps a 422 to the bad-input error', async () => {
    // Prepare
    const { client } = newAccount();
    sim.injectFault({ kind: 'status', status: 422, route: 'POST /external/contacts/unlock' });

    // Act
    const error = await caught(client.contacts.unlockEmails(['1']));

    // Assess
    expect(error).toBeInstanceOf(EisBadInputError);
    expect(error.status).toBe(422);
  });

  it('maps an unknown key to the unauthorized error, telling the user to ask an admin', async () => {
    // Prepare
    const client = clientFor('sk_test_not_registered');

    // Act
    const error = await caught(client.credits.balance());

    // Assess
    expect(error).toBeInstanceOf(EisUnauthorizedError);
    expect(error).toMatchObject({ status: 401, errorKey: 'INVALID_API_KEY' });
    expect(error.userMessage).toMatch(/admin to check the key/);
  });

  it('maps a short balance to the insufficient-credits error, without charging', async () => {
    // Prepare
    const { key, client } = newAccount({ balance: 100 });

    // Act
    const error = await caught(client.events.unlock(BIG_EVENT_ID));

    // Assess
    expect(error).toBeInstanceOf(EisInsufficientCreditsError);
    expect(error.status).toBe(402);
    expect(sim.balance(key)).toBe(100);
  });

  it('maps the 403 of an unsubscribed account to the subscription-required error', async () => {
    // Prepare
    const client = clientFor(UNSUBSCRIBED_API_KEY);

    // Act
    const error = await caught(client.personnel.eventsByName({ personName: KNOWN_PERSON_NAME }));

    // Assess
    expect(error).toBeInstanceOf(EisSubscriptionRequiredError);
    expect(error.status).toBe(403);
  });

  it('maps the 200 subscription envelope to the subscription-required error, never a success', async () => {
    // Prepare
    const { key, client } = newAccount({ subscribed: false });

    // Act
    const error = await caught(client.events.unlockVisitors(BIG_EVENT_ID));

    // Assess
    expect(error).toBeInstanceOf(EisSubscriptionRequiredError);
    expect(error.errorKey).toBe('USER_HAS_NO_FEATURE');
    expect(sim.ledger(key)).toEqual([]);
  });

  it('maps the subscription envelope fault on any route to the subscription-required error', async () => {
    // Prepare
    const { client } = newAccount();
    sim.injectFault({ kind: 'subscription-envelope', route: 'POST /external/exhibitors/search-events' });

    // Act
    const error = await caught(client.exhibitors.searchEvents({ companyName: KNOWN_COMPANY_NAME }));

    // Assess
    expect(error).toBeInstanceOf(EisSubscriptionRequiredError);
  });

  it('maps an unknown event to the not-found error', async () => {
    // Prepare
    const { client } = newAccount();

    // Act
    const error = await caught(client.events.detail('999999999'));

    // Assess
    expect(error).toBeInstanceOf(EisNotFoundError);
    expect(error.status).toBe(404);
  });

  it('maps a 409 to the credit-operation-in-progress error, without retrying', async () => {
    // Prepare
    const { client } = newAccount();
    const since = sim.requests().length;
    sim.injectFault({ kind: 'status', status: 409, route: UNLOCK_ROUTE });

    // Act
    const error = await caught(client.events.unlock(BIG_EVENT_ID));

    // Assess
    expect(error).toBeInstanceOf(EisCreditOperationInProgressError);
    expect(requestsTo(`/external/events/${BIG_EVENT_ID}/unlock`, since)).toHaveLength(1);
  });

  it('maps two concurrent unlocks of one event to one success and one in-progress error', async () => {
    // Prepare
    const { key, client } = newAccount();
    sim.setLatency(100);

    // Act
    const results = await Promise.allSettled([
      client.events.unlock(BIG_EVENT_ID),
      client.events.unlock(BIG_EVENT_ID),
    ]);

    // Assess
    const failures = results.filter((result) => result.status === 'rejected');
    expect(failures).toHaveLength(1);
    expect(failures[0]?.reason).toBeInstanceOf(EisCreditOperationInProgressError);
    expect(sim.ledger(key)).toHaveLength(1);
  });

  it('maps a lasting 429 to the rate-limited error with retryAfterMs', async () => {
    // Prepare
    const { client } = newAccount();
    sim.injectFault({ kind: 'status', status: 429, route: BALANCE_ROUTE, retryAfterSeconds: 2, times: 3 });

    // Act
    const error = await caught(client.credits.balance());

    // Assess
    expect(error).toBeInstanceOf(EisRateLimitedError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 2000, retryable: true });
  });

  it('maps a lasting 5xx on a read to a retryable upstream error', async () => {
    // Prepare
    const { client } = newAccount();
    sim.injectFault({ kind: 'status', status: 503, route: BALANCE_ROUTE, times: 3 });

    // Act
    const error = await caught(client.credits.balance());

    // Assess
    expect(error).toBeInstanceOf(EisUpstreamError);
    expect(error).toMatchObject({ status: 503, retryable: true, outcomeUnknown: false });
  });

  it('maps malformed JSON to an upstream error', async () => {
    // Prepare
    const { client } = newAccount();
    sim.injectFault({ kind: 'malformed-json', route: 'GET /external/events/list' });

    // Act
    const error = await caught(client.events.list());

    // Assess
    expect(error).toBeInstanceOf(EisUpstreamError);
    expect(error).toMatchObject({ failure: 'malformed-json' });
  });
});

describe('eis retries', () => {
  it('does not retry a charging POST that failed with a 5xx after the service charged: one charge, outcome unknown', async () => {
    // Prepare
    const { key, client, sleeps } = newAccount();
    const since = sim.requests().length;
    sim.injectFault({ kind: 'status', status: 500, route: UNLOCK_ROUTE, afterExecute: true });

    // Act
    const error = await caught(client.events.unlock(BIG_EVENT_ID));

    // Assess
    expect(error).toBeInstanceOf(EisUpstreamError);
    expect(error.message).toMatch(/outcome is unknown/);
    expect(error.userMessage).toMatch(/credits may have been spent/);
    expect(error.userMessage).not.toContain(error.traceId);
    expect(referenceOf(error)).toBe(`Reference: ${error.traceId}`);
    expect(error).toMatchObject({ outcomeUnknown: true, retryable: false });
    expect(sim.ledger(key)).toHaveLength(1);
    expect(requestsTo(`/external/events/${BIG_EVENT_ID}/unlock`, since)).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('retries a charging POST answered with the 200 concurrency envelope, and charges once', async () => {
    // Prepare
    const { key, client } = newAccount();
    const since = sim.requests().length;
    sim.injectFault({ kind: 'concurrency-envelope', route: UNLOCK_ROUTE });

    // Act
    const result = await client.events.unlock(BIG_EVENT_ID);

    // Assess
    expect(result).toMatchObject({ success: true, creditsSpent: 2000 });
    expect(sim.ledger(key)).toHaveLength(1);
    expect(requestsTo(`/external/events/${BIG_EVENT_ID}/unlock`, since)).toHaveLength(2);
  });

  it('retries the charging by-name GET on the concurrency envelope and charges once', async () => {
    // Prepare
    const { key, client } = newAccount();
    sim.injectFault({
      kind: 'concurrency-envelope',
      route: 'GET /external/personnel/events/by-name',
      times: 2,
    });

    // Act
    const page = await client.personnel.eventsByName({ personName: KNOWN_PERSON_NAME });

    // Assess
    expect(page.items.length).toBeGreaterThan(0);
    expect(sim.ledger(key)).toHaveLength(1);
  });

  it('retries a charging POST rejected with 429, honouring Retry-After', async () => {
    // Prepare
    const { key, client, sleeps } = newAccount();
    sim.injectFault({
      kind: 'status',
      status: 429,
      route: 'POST /external/exhibitors/search-by-company-name',
      retryAfterSeconds: 1,
    });

    // Act
    const page = await client.exhibitors.searchByCompanyName({ companyName: KNOWN_COMPANY_NAME });

    // Assess
    expect(page.items.length).toBeGreaterThan(0);
    expect(sleeps).toEqual([1000]);
    expect(sim.ledger(key)).toHaveLength(1);
  });

  it('retries a read on 5xx and succeeds', async () => {
    // Prepare
    const { client, sleeps } = newAccount();
    const since = sim.requests().length;
    sim.injectFault({ kind: 'status', status: 502, route: BALANCE_ROUTE });

    // Act
    const balance = await client.credits.balance();

    // Assess
    expect(balance.totalBalance).toBe(20_000);
    expect(requestsTo('/external/credits/balance', since)).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('retries a read on 429 after the Retry-After delay, really waiting', async () => {
    // Prepare
    const { client } = newAccount({}, { realSleep: true });
    sim.injectFault({ kind: 'status', status: 429, route: BALANCE_ROUTE, retryAfterSeconds: 1 });
    const started = Date.now();

    // Act
    const balance = await client.credits.balance();

    // Assess
    expect(balance.totalBalance).toBe(20_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('retries a free read-only POST (fit score) on 5xx', async () => {
    // Prepare
    const { client } = newAccount();
    sim.injectFault({ kind: 'status', status: 500, route: 'POST /external/events/fit-score' });

    // Act
    const fit = await client.events.fitScore(BIG_EVENT_ID);

    // Assess
    expect(fit.score).toBeGreaterThanOrEqual(0);
  });
});

describe('eis timeouts', () => {
  it('gives up on a hanging charging call fast, with an unknown outcome and no retry', async () => {
    // Prepare
    const { client } = newAccount({}, { timeoutMs: 200 });
    const since = sim.requests().length;
    sim.injectFault({ kind: 'hang', route: UNLOCK_ROUTE });

    // Act
    const error = await caught(client.events.unlock(BIG_EVENT_ID));

    // Assess: its own timeout ended it (the service still hangs), and it was not sent again.
    expect(error).toBeInstanceOf(EisUpstreamError);
    expect(error).toMatchObject({ failure: 'timeout', outcomeUnknown: true });
    expect(requestsTo(`/external/events/${BIG_EVENT_ID}/unlock`, since)).toHaveLength(1);
  });

  it('retries a hanging read and gives up fast when every attempt hangs', async () => {
    // Prepare
    const maxRetries = 2;
    const { client, sleeps } = newAccount({}, { timeoutMs: 150, maxRetries });
    const since = sim.requests().length;
    sim.injectFault({ kind: 'hang', route: BALANCE_ROUTE, times: maxRetries + 1 });

    // Act
    const error = await caught(client.credits.balance());

    // Assess: each attempt ended by its timeout, then the retries, then the error.
    expect(error).toMatchObject({ failure: 'timeout', outcomeUnknown: false, retryable: true });
    expect(requestsTo('/external/credits/balance', since)).toHaveLength(maxRetries + 1);
    expect(sleeps).toHaveLength(maxRetries);
  });

  it('succeeds when the latency stays under the timeout', async () => {
    // Prepare
    const { client } = newAccount({}, { timeoutMs: 1000 });
    sim.injectFault({ kind: 'latency', ms: 100, route: BALANCE_ROUTE });

    // Act
    const balance = await client.credits.balance();

    // Assess
    expect(balance.totalBalance).toBe(20_000);
  });
});

describe('eis limiter', () => {
  it('keeps at most 10 requests of one key in flight across 50 concurrent calls, all succeeding', async () => {
    // Prepare
    const { key, client } = newAccount();
    const second = clientFor(key);
    sim.setLatency(20);

    // Act
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 ? client : second).credits.balance()),
    );

    // Assess
    expect(results).toHaveLength(50);
    expect(sim.maxInFlight(key)).toBeLessThanOrEqual(10);
    expect(sim.maxInFlight(key)).toBeGreaterThan(1);
  });

  it('keeps 50 concurrent by-name lookups under the service concurrency limit: no envelope, 50 charges', async () => {
    // Prepare
    const { key, client, logger } = newAccount();
    sim.setLatency(20);

    // Act
    const pages = await Promise.all(
      Array.from({ length: 50 }, () => client.personnel.eventsByName({ personName: KNOWN_PERSON_NAME })),
    );

    // Assess
    expect(pages.every((page) => page.items.length > 0)).toBe(true);
    expect(sim.ledger(key)).toHaveLength(50);
    expect(logger.lines.some((line) => line.includes('eis retry'))).toBe(false);
  });
});

describe('eis key secrecy', () => {
  it('keeps the key out of every log line and every form of every error', async () => {
    // Prepare
    const { key, client, logger } = newAccount({ balance: 10 }, { timeoutMs: 200 });
    sim.injectFault({ kind: 'malformed-json', route: 'GET /external/events/list' });
    sim.injectFault({ kind: 'hang', route: 'POST /external/events/{id}/visitors/unlock' });
    sim.injectFault({ kind: 'status', status: 500, route: 'POST /external/events/{id}/full-access/unlock' });

    // Act
    const errors = [
      await caught(client.events.unlock(BIG_EVENT_ID)), // 402
      await caught(client.events.detail('999999999')), // 404
      await caught(client.events.detail('bad id!')), // 400
      await caught(client.events.list()), // malformed
      await caught(client.events.unlockVisitors(BIG_EVENT_ID)), // timeout
      await caught(client.events.unlockFullAccess(BIG_EVENT_ID)), // 500
      await caught(client.events.fitScore('')), // refused before sending
    ];
    const unauthorized = await caught(clientFor(`${key}_wrong`).credits.balance());

    // Assess
    for (const error of [...errors, unauthorized]) {
      expect(error.message).not.toContain(key);
      expect(error.userMessage).not.toContain(key);
      expect(JSON.stringify(error)).not.toContain(key);
      expect(String(error)).not.toContain(key);
      expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(key);
    }
    expect(logger.lines.length).toBeGreaterThan(0);
    for (const line of logger.lines) expect(line).not.toContain(key);
  });

  it('keeps the key out of the client object', () => {
    // Prepare
    const { key, client } = newAccount();

    // Act
    const forms = [JSON.stringify(client), inspect(client, { depth: 10, showHidden: true })];

    // Assess
    for (const form of forms) expect(form).not.toContain(key);
    expect(Object.values(client).some((value) => value === key)).toBe(false);
  });
});

describe('eis trace ids', () => {
  /** A service that echoes the Authorization header as its trace id, in the header and the error body. */
  async function echoingService(status: number, body: (traceId: string) => unknown) {
    const server = createServer((req, res) => {
      const traceId = req.headers.authorization ?? '';
      res.writeHead(status, { 'content-type': 'application/json', 'x-trace-id': traceId });
      res.end(JSON.stringify(body(traceId)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it('drops a trace id that echoes the Authorization header, from errors and from results', async () => {
    // Prepare
    const key = `sk_test_echo_${randomUUID().slice(0, 8)}`;
    const failing = await echoingService(500, (traceId) => ({
      code: 500,
      message: 'failed',
      errorKey: 'INTERNAL',
      traceId,
    }));
    const succeeding = await echoingService(200, () => ({
      totalAmount: 1,
      totalBalance: 1,
      subscriptionAmount: 1,
      subscriptionBalance: 1,
      addonAmount: 0,
      addonBalance: 0,
      addonExpireAt: null,
      giftAmount: 0,
      giftBalance: 0,
      resetAt: null,
    }));
    const logger = createMemoryLogger();

    // Act
    const error = await caught(clientFor(key, { baseUrl: failing.url, logger }).events.unlock(BIG_EVENT_ID));
    const balance = await clientFor(key, { baseUrl: succeeding.url }).credits.balance();
    await Promise.all([failing.close(), succeeding.close()]);

    // Assess
    expect(error).toBeInstanceOf(EisUpstreamError);
    expect(error.traceId).toBeUndefined();
    expect(referenceOf(error)).toBeUndefined();
    for (const form of everyFormOf(error)) expect(form).not.toContain(key);
    for (const line of logger.lines) expect(line).not.toContain(key);
    expect(traceIdOf(balance)).toBeUndefined();
  });

  it("keeps the simulator's trace id of an error for the requester's reference only", async () => {
    // Prepare
    const { client } = newAccount();

    // Act
    const error = await caught(client.events.detail('999999999'));

    // Assess
    expect(error).toBeInstanceOf(EisNotFoundError);
    expect(error.traceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(referenceOf(error)).toBe(`Reference: ${error.traceId}`);
    expect(error.userMessage).not.toContain(error.traceId);
  });
});
