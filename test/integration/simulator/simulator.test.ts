import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BIG_EVENT_ID,
  DEV_API_KEY,
  KNOWN_COMPANY_NAME,
  KNOWN_PERSON_NAME,
  type Simulator,
  startSimulator,
  UNSUBSCRIBED_API_KEY,
} from '../../../simulator/server.ts';

type Json = Record<string, unknown>;

interface Reply<T = Json> {
  status: number;
  headers: Headers;
  body: T;
}

interface PageBody {
  items: Json[];
  total: number;
  semantics: { counts: { actualTotal: number }; guidance: { code: string } };
}

interface TaskBody {
  taskStatus: string;
  items: { status: string; email?: string | null }[];
}

let sim: Simulator;
let keyCount = 0;

function freshKey(account?: { balance?: number; subscribed?: boolean }): string {
  keyCount += 1;
  const key = `sk_behaviour_${keyCount}`;
  sim.addKey(key, account);
  return key;
}

async function call<T = Json>(
  method: string,
  path: string,
  options: { key?: string | null; body?: unknown; auth?: string; signal?: AbortSignal } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const auth = options.auth ?? (options.key === null ? undefined : `Bearer ${options.key ?? DEV_API_KEY}`);
  if (auth) headers.authorization = auth;
  const response = await fetch(`${sim.url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? null : JSON.stringify(options.body),
    signal: options.signal ?? null,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // left as text: the malformed-json fault
  }
  return { status: response.status, headers: response.headers, body: body as T };
}

const bigEvent = () => {
  const event = sim.events.find((e) => e.exhibitorCount > 300);
  if (!event) throw new Error('no big event in the seed');
  return event;
};

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

describe('authentication', () => {
  it('rejects a request without a key with a 401 ApiError of exactly four members', async () => {
    // Act
    const reply = await call('GET', '/external/credits/balance', { key: null });

    // Assess
    expect(reply.status).toBe(401);
    expect(Object.keys(reply.body).sort()).toEqual(['code', 'errorKey', 'message', 'traceId']);
    expect(reply.body.code).toBe(401);
    expect(reply.headers.get('x-trace-id')).toBe(reply.body.traceId);
  });

  it('rejects unknown, malformed and prefix-less keys', async () => {
    // Act
    const unknown = await call('GET', '/external/credits/balance', { auth: 'Bearer sk_not_registered' });
    const basic = await call('GET', '/external/credits/balance', { auth: `Basic ${DEV_API_KEY}` });
    const noPrefix = await call('GET', '/external/credits/balance', { auth: 'Bearer dev_local' });

    // Assess
    expect([unknown.status, basic.status, noPrefix.status]).toEqual([401, 401, 401]);
  });

  it('matches the bearer scheme case-insensitively', async () => {
    // Act
    const reply = await call('GET', '/external/credits/balance', { auth: `bEaReR ${DEV_API_KEY}` });

    // Assess
    expect(reply.status).toBe(200);
    expect(reply.body.totalBalance).toBeTypeOf('number');
  });

  it('answers an unknown route with a 404 ApiError', async () => {
    // Act
    const reply = await call('GET', '/external/nothing-here');

    // Assess
    expect(reply.status).toBe(404);
    expect(reply.body.errorKey).toBeTypeOf('string');
  });

  it('records requests with the Authorization header redacted', async () => {
    // Act
    await call('GET', '/external/events/list?keyword=expo');

    // Assess
    const recorded = sim.requests().at(-1);
    expect(recorded?.path).toBe('/external/events/list');
    expect(recorded?.query).toEqual({ keyword: 'expo' });
    expect(recorded?.headers.authorization).toBe('Bearer [redacted]');
    expect(JSON.stringify(sim.requests())).not.toContain(DEV_API_KEY);
  });
});

describe('seed', () => {
  it('has a big event, many countries and all three fit bands', () => {
    // Assess
    expect(bigEvent().id).toBe(BIG_EVENT_ID);
    expect(sim.events.length).toBeGreaterThanOrEqual(40);
    expect(new Set(sim.events.map((e) => e.country)).size).toBeGreaterThanOrEqual(8);
    expect(new Set(sim.events.map((e) => e.fit.recommendation))).toEqual(
      new Set(['recommended', 'consider', 'not_recommended']),
    );
    expect(sim.events.some((e) => e.hasVisitors)).toBe(true);
  });

  it('is the same on every start', async () => {
    // Act
    const other = await startSimulator({ today: sim.today });
    const ids = other.events.map((e) => `${e.id}:${e.dateStart}:${e.fit.score}`);
    await other.close();

    // Assess
    expect(ids).toEqual(sim.events.map((e) => `${e.id}:${e.dateStart}:${e.fit.score}`));
  });
});

describe('charging', () => {
  it('does not charge for an empty company-name search', async () => {
    // Prepare
    const key = freshKey();

    // Act
    const reply = await call('POST', '/external/exhibitors/search-by-company-name', {
      key,
      body: { company_name: 'No Such Company Anywhere' },
    });

    // Assess
    expect(reply.status).toBe(201);
    expect(reply.body.items).toEqual([]);
    expect(sim.balance(key)).toBe(20_000);
    expect(sim.ledger(key)).toEqual([]);
  });

  it('charges 50 credits for a non-empty search and records the trace id', async () => {
    // Prepare
    const key = freshKey();

    // Act
    const reply = await call('POST', '/external/exhibitors/search-events', {
      key,
      body: { company_name: KNOWN_COMPANY_NAME },
    });

    // Assess
    expect(reply.status).toBe(201);
    expect(reply.body.total).toBeGreaterThan(0);
    expect(sim.balance(key)).toBe(19_950);
    expect(sim.ledger(key)).toEqual([
      expect.objectContaining({
        action: 'search_exhibitor_events',
        credits: 50,
        traceId: reply.headers.get('x-trace-id'),
      }),
    ]);
  });

  it('charges 2000 for an event unlock once, then answers alreadyUnlocked for free', async () => {
    // Prepare
    const key = freshKey();
    const event = bigEvent();

    // Act
    const first = await call('POST', `/external/events/${event.eventId}/unlock`, { key });
    const second = await call('POST', `/external/events/${event.id}/unlock`, { key });

    // Assess
    expect(first.body).toMatchObject({ success: true, alreadyUnlocked: false, creditsUsed: 2000 });
    expect(second.body).toMatchObject({ success: true, alreadyUnlocked: true, creditsUsed: 0 });
    expect(sim.balance(key)).toBe(18_000);
    expect(sim.ledger(key)).toHaveLength(1);
    expect(sim.ledger(key)[0]).toMatchObject({ action: 'unlock_event', credits: 2000, eventId: event.id });
  });

  it('answers 402 and charges nothing when the balance is too low', async () => {
    // Prepare
    const key = freshKey({ balance: 100 });

    // Act
    const reply = await call('POST', `/external/events/${bigEvent().id}/unlock`, { key });

    // Assess
    expect(reply.status).toBe(402);
    expect(reply.body.errorKey).toBe('INSUFFICIENT_CREDITS');
    expect(sim.balance(key)).toBe(100);
    expect(sim.ledger(key)).toEqual([]);
  });

  it('requires base access before a visitor unlock, then charges 3000', async () => {
    // Prepare
    const key = freshKey();
    const event = bigEvent();

    // Act
    const early = await call('POST', `/external/events/${event.id}/visitors/unlock`, { key });
    await call('POST', `/external/events/${event.id}/unlock`, { key });
    const visitors = await call('POST', `/external/events/${event.id}/visitors/unlock`, { key });

    // Assess
    expect(early.status).toBe(409);
    expect(visitors.status).toBe(201);
    expect(visitors.body).toMatchObject({ alreadyUnlocked: false, creditsSpent: 3000 });
    expect(sim.balance(key)).toBe(15_000);
  });

  it('charges only the missing layers for full access', async () => {
    // Prepare
    const key = freshKey();
    const event = bigEvent();
    await call('POST', `/external/events/${event.id}/unlock`, { key });

    // Act
    const full = await call('POST', `/external/events/${event.id}/full-access/unlock`, { key });
    const again = await call('POST', `/external/events/${event.id}/full-access/unlock`, { key });

    // Assess
    expect(full.body).toMatchObject({ eventUnlocked: false, visitorUnlocked: true, totalCreditsUsed: 3000 });
    expect(again.body).toMatchObject({ alreadyUnlocked: true, totalCreditsUsed: 0 });
  });

  it('answers the subscription envelope with HTTP 200 for an unsubscribed visitor unlock', async () => {
    // Act
    const reply = await call('POST', `/external/events/${bigEvent().id}/visitors/unlock`, {
      key: UNSUBSCRIBED_API_KEY,
    });

    // Assess
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ code: 400, errorKey: 'USER_HAS_NO_FEATURE' });
  });

  it('answers 409 to an overlapping unlock of the same event by the same key and charges once', async () => {
    // Prepare
    const key = freshKey();
    sim.setLatency(100);

    // Act
    const replies = await Promise.all([
      call('POST', `/external/events/${bigEvent().id}/unlock`, { key }),
      call('POST', `/external/events/${bigEvent().id}/unlock`, { key }),
    ]);
    sim.setLatency(0);

    // Assess
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(sim.ledger(key)).toHaveLength(1);
  });
});

describe('preview window', () => {
  it('keeps page 3 of 20 accessible on the locked big event and truncates the results', async () => {
    // Prepare
    const key = freshKey();

    // Act
    const reply = await call<PageBody>(
      'GET',
      `/external/personnel/list?event_id=${BIG_EVENT_ID}&page=3&pageSize=20`,
      {
        key,
      },
    );

    // Assess
    expect(reply.body.items).toHaveLength(10);
    expect(reply.body.semantics).toMatchObject({
      accessMode: 'preview',
      previewLimit: 50,
      counts: { visibleTotal: 50, remainingLockedCount: reply.body.semantics.counts.actualTotal - 50 },
      pageState: { requestedPage: 3, accessible: true, maxAccessiblePage: 3 },
      unlock: { requiredForMoreResults: true, credits: 2000 },
      guidance: { code: 'preview_results_truncated' },
    });
  });

  it('returns an empty inaccessible page beyond the first 50 records', async () => {
    // Prepare
    const key = freshKey();

    // Act
    const reply = await call('GET', `/external/exhibitors/list?event_id=${BIG_EVENT_ID}&page=2`, { key });

    // Assess
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ items: [], total: 0, totalPages: 0, hasMore: false, pageSize: 50 });
    expect(reply.body.semantics).toMatchObject({
      counts: { actualTotal: 340 },
      pageState: { accessible: false, maxAccessiblePage: 1 },
      unlock: { requiredForMoreResults: true, actionType: 'unlock_event_exhibitors', credits: 2000 },
      guidance: { code: 'preview_page_inaccessible' },
    });
  });

  it('opens every page once the event is unlocked', async () => {
    // Prepare
    const key = freshKey();
    await call('POST', `/external/events/${BIG_EVENT_ID}/unlock`, { key });

    // Act
    const reply = await call('GET', `/external/exhibitors/list?event_id=${BIG_EVENT_ID}&page=5&pageSize=50`, {
      key,
    });

    // Assess
    expect(reply.body.items).toHaveLength(50);
    expect(reply.body.total).toBe(340);
    expect(reply.body.semantics).toMatchObject({
      accessMode: 'full',
      previewLimit: null,
      guidance: { code: 'full_access' },
    });
  });

  it('reports a query that fits in the preview and a query with no matches', async () => {
    // Prepare
    const small = sim.events.find((e) => e.exhibitorCount > 0 && e.exhibitorCount <= 50);

    // Act
    const complete = await call<PageBody>('GET', `/external/exhibitors/list?event_id=${small?.id}`);
    const none = await call<PageBody>(
      'GET',
      `/external/exhibitors/list?event_id=${BIG_EVENT_ID}&keyword=zzzz-nothing`,
    );

    // Assess
    expect(complete.body.semantics.guidance.code).toBe('preview_complete_for_query');
    expect(none.body.semantics.guidance.code).toBe('no_matching_results');
  });

  it('rejects a pageSize above 100 with 400', async () => {
    // Act
    const reply = await call('GET', `/external/exhibitors/list?event_id=${BIG_EVENT_ID}&pageSize=101`);

    // Assess
    expect(reply.status).toBe(400);
  });
});

describe('personnel events by name', () => {
  it('answers 403 to a key without a paid subscription', async () => {
    // Act
    const reply = await call(
      'GET',
      `/external/personnel/events/by-name?person_name=${encodeURIComponent(KNOWN_PERSON_NAME)}`,
      {
        key: UNSUBSCRIBED_API_KEY,
      },
    );

    // Assess
    expect(reply.status).toBe(403);
  });

  it('charges 50 for a non-empty result and nothing for an empty one', async () => {
    // Prepare
    const key = freshKey();

    // Act
    const found = await call('GET', `/external/personnel/events/by-name?person_name=%20jane%20SMITH%20`, {
      key,
    });
    const empty = await call('GET', '/external/personnel/events/by-name?person_name=Nobody%20Atall', { key });

    // Assess
    expect(found.body.total).toBeGreaterThanOrEqual(2);
    expect(empty.body.total).toBe(0);
    expect(sim.ledger(key).map((e) => e.credits)).toEqual([50]);
  });

  it('answers the concurrency envelope beyond 10 concurrent requests of one key', async () => {
    // Prepare
    const key = freshKey();
    sim.setLatency(150);

    // Act
    const replies = await Promise.all(
      Array.from({ length: 12 }, () =>
        call('GET', '/external/personnel/events/by-name?person_name=Nobody', { key }),
      ),
    );
    sim.setLatency(0);

    // Assess
    const envelopes = replies.filter((r) => r.body.errorKey === 'USER_CONCURRENCY_LIMIT_EXCEEDED');
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(envelopes).toHaveLength(2);
    expect(envelopes[0]?.body).toMatchObject({ code: 429, data: null, details: null });
    expect(sim.maxInFlight(key)).toBe(12);
  });
});

describe('contact unlock tasks', () => {
  let clock = 0;
  let timed: Simulator;

  beforeAll(async () => {
    timed = await startSimulator({ now: () => clock, taskDurationMs: 3000, today: '2026-09-10' });
  });

  afterAll(async () => {
    await timed.close();
  });

  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${timed.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEV_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const get = async <T = Json>(path: string, key = DEV_API_KEY): Promise<T> => {
    const response = await fetch(`${timed.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return (await response.json()) as T;
  };
  /** The id of the task an unlock was accepted as. */
  const taskIdOf = (submitted: { body: Json }): string => {
    const id = submitted.body.task_id;
    if (typeof id !== 'string') throw new Error(`no task_id in ${JSON.stringify(submitted.body)}`);
    return id;
  };
  const linkedPeople = (count: number, offset: number) =>
    timed.seed.personnel
      .filter((p) => p.linked)
      .slice(offset, offset + count)
      .map((p) => p.id);

  it('moves a task from pending through processing to completed as time passes', async () => {
    // Prepare
    clock = 1_000_000;
    const ids = linkedPeople(8, 0);
    const before = timed.balance(DEV_API_KEY);

    // Act
    const submitted = await post('/external/contacts/unlock', { personnel_ids: ids });
    const pending = await get<TaskBody>(`/external/contacts/unlock-tasks/${taskIdOf(submitted)}`);
    clock += 1500;
    const processing = await get<TaskBody>(`/external/contacts/unlock-tasks/${taskIdOf(submitted)}`);
    clock += 1500;
    const done = await get<TaskBody>(`/external/contacts/unlock-tasks/${taskIdOf(submitted)}`);

    // Assess
    expect(submitted.body).toMatchObject({ status: 'accepted', job_id: submitted.body.task_id });
    expect(timed.balance(DEV_API_KEY)).toBe(before - 8 * 15);
    expect([pending.taskStatus, processing.taskStatus, done.taskStatus]).toEqual([
      'pending',
      'processing',
      'completed',
    ]);
    expect(done.items.some((i) => i.status === 'failed')).toBe(true);
    for (const item of done.items) {
      expect(item.email === null).toBe(item.status !== 'unlocked');
    }
  });

  it('shows an unlocked email in the personnel list only to the key that unlocked it', async () => {
    // Prepare
    const person = timed.seed.personnel.find(
      (p) => p.linked && p.emailFindable && p.eventId === BIG_EVENT_ID,
    );
    timed.addKey('sk_other_reader');

    // Act
    await post('/external/contacts/unlock', { personnel_ids: [person?.id] });
    timed.completeTasks();
    const mine = await get(`/external/personnel/profile?personnel_id=${person?.id}`);
    const theirs = await get(`/external/personnel/profile?personnel_id=${person?.id}`, 'sk_other_reader');

    // Assess
    expect(mine).toMatchObject({ contactUnlockStatus: 'unlocked', email: person?.email });
    expect(theirs).toMatchObject({ contactUnlockStatus: 'locked', email: null });
  });

  it('fails every pending task when told to', async () => {
    // Prepare
    const submitted = await post('/external/contacts/unlock-phone', { personnel_ids: linkedPeople(2, 20) });

    // Act
    timed.completeTasks('failed');
    const task = await get<TaskBody>(`/external/contacts/unlock-phone-tasks/${taskIdOf(submitted)}`);

    // Assess
    expect(task.taskStatus).toBe('failed');
    expect(task.items.every((i) => i.status === 'failed')).toBe(true);
  });

  it('skips unlinked, unlocked, invalid and missing people and charges only the rest', async () => {
    // Prepare
    const unlinked = timed.seed.personnel.find((p) => !p.linked)?.id;
    const [already] = linkedPeople(1, 0);
    const before = timed.balance(DEV_API_KEY);
    timed.completeTasks();

    // Act
    const none = await post('/external/contacts/unlock', { personnel_ids: [unlinked, 'abc', '999999999'] });
    const some = await post('/external/contacts/unlock', {
      personnel_ids: [already, ...linkedPeople(1, 40)],
    });

    // Assess
    expect(none.body.status).toBe('success');
    expect(none.body.task_id).toBeUndefined();
    expect(none.body.skipped_detail).toMatchObject({
      unlinked_personnel_ids: [unlinked],
      invalid_personnel_ids: ['abc'],
      missing_personnel_ids: ['999999999'],
    });
    expect(some.body.status).toBe('accepted');
    expect(timed.balance(DEV_API_KEY)).toBe(before - 15);
  });

  it('lets the dev page read the account and complete tasks over HTTP', async () => {
    // Prepare
    const submitted = await post('/external/contacts/unlock', { personnel_ids: linkedPeople(1, 60) });

    // Act
    const completed = await fetch(`${timed.url}/__sim/tasks/complete`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEV_API_KEY}` },
    });
    const account = await get<{ balance: { totalBalance: number }; ledger: Json[] }>('/__sim/account');
    const task = await get<TaskBody>(`/external/contacts/unlock-tasks/${taskIdOf(submitted)}`);

    // Assess
    expect(completed.status).toBe(200);
    expect(account.balance.totalBalance).toBe(timed.balance(DEV_API_KEY));
    expect(account.ledger.length).toBeGreaterThan(0);
    expect(['completed', 'failed']).toContain(task.taskStatus);
  });
});

describe('faults', () => {
  it('answers an injected 503 without running the operation', async () => {
    // Prepare
    const key = freshKey();
    sim.injectFault({ kind: 'status', status: 503, route: 'POST /external/events/{id}/unlock' });

    // Act
    const failed = await call('POST', `/external/events/${BIG_EVENT_ID}/unlock`, { key });
    const retried = await call('POST', `/external/events/${BIG_EVENT_ID}/unlock`, { key });

    // Assess
    expect(failed.status).toBe(503);
    expect(retried.body.alreadyUnlocked).toBe(false);
    expect(sim.ledger(key)).toHaveLength(1);
  });

  it('charges and then fails when afterExecute is set', async () => {
    // Prepare
    const key = freshKey();
    sim.injectFault({ kind: 'status', status: 500, afterExecute: true });

    // Act
    const failed = await call('POST', `/external/events/${BIG_EVENT_ID}/unlock`, { key });
    const retried = await call('POST', `/external/events/${BIG_EVENT_ID}/unlock`, { key });

    // Assess
    expect(failed.status).toBe(500);
    expect(sim.ledger(key)).toHaveLength(1);
    expect(retried.body).toMatchObject({ alreadyUnlocked: true, creditsUsed: 0 });
  });

  it('sends Retry-After with a 429 and applies a fault the given number of times', async () => {
    // Prepare
    sim.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 2, times: 2 });

    // Act
    const replies = [
      await call('GET', '/external/credits/balance'),
      await call('GET', '/external/credits/balance'),
      await call('GET', '/external/credits/balance'),
    ];

    // Assess
    expect(replies.map((r) => r.status)).toEqual([429, 429, 200]);
    expect(replies[0]?.headers.get('retry-after')).toBe('2');
    expect(replies[0]?.body.errorKey).toBe('RATE_LIMIT_EXCEEDED');
  });

  it('applies a routed fault only to its route', async () => {
    // Prepare
    sim.injectFault({ kind: 'status', status: 502, route: 'GET /external/events/list' });

    // Act
    const other = await call('GET', '/external/credits/balance');
    const target = await call('GET', '/external/events/list');

    // Assess
    expect([other.status, target.status]).toEqual([200, 502]);
  });

  it('never answers a hung request', async () => {
    // Prepare
    sim.injectFault({ kind: 'hang' });

    // Act
    const attempt = call('GET', '/external/credits/balance', { signal: AbortSignal.timeout(300) });

    // Assess
    await expect(attempt).rejects.toThrow();
    expect((await call('GET', '/external/credits/balance')).status).toBe(200);
  });

  it('delays one request by the injected latency', async () => {
    // Prepare
    sim.injectFault({ kind: 'latency', ms: 200 });
    const started = Date.now();

    // Act
    const reply = await call('GET', '/external/credits/balance');

    // Assess
    expect(reply.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('answers truncated JSON for malformed-json', async () => {
    // Prepare
    sim.injectFault({ kind: 'malformed-json' });

    // Act
    const reply = await call<unknown>('GET', '/external/events/list');

    // Assess
    expect(reply.status).toBe(200);
    expect(typeof reply.body).toBe('string');
    expect((): unknown => JSON.parse(String(reply.body))).toThrow();
  });

  it('answers the business envelopes without running the operation', async () => {
    // Prepare
    const key = freshKey();
    sim.injectFault({ kind: 'concurrency-envelope' });
    sim.injectFault({ kind: 'subscription-envelope' });

    // Act
    const concurrency = await call('POST', `/external/events/${BIG_EVENT_ID}/unlock`, { key });
    const subscription = await call('POST', `/external/events/${BIG_EVENT_ID}/unlock`, { key });

    // Assess
    expect(concurrency.status).toBe(200);
    expect(concurrency.body.errorKey).toBe('USER_CONCURRENCY_LIMIT_EXCEEDED');
    expect(subscription.status).toBe(200);
    expect(subscription.body.errorKey).toBe('USER_HAS_NO_FEATURE');
    expect(sim.ledger(key)).toEqual([]);
  });

  it('forgets queued faults on clearFaults', async () => {
    // Prepare
    sim.injectFault({ kind: 'status', status: 500, times: 5 });

    // Act
    sim.clearFaults();
    const reply = await call('GET', '/external/credits/balance');

    // Assess
    expect(reply.status).toBe(200);
  });
});

describe('load', () => {
  it('serves 60 concurrent requests of one key', async () => {
    // Prepare
    const key = freshKey();
    // Long enough that all 60 overlap even on a loaded machine (at 50 ms, some finished before others began).
    sim.setLatency(500);

    // Act
    const replies = await Promise.all(
      Array.from({ length: 60 }, (_, i) => call('GET', `/external/events/list?page=${(i % 3) + 1}`, { key })),
    );
    sim.setLatency(0);

    // Assess
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(sim.maxInFlight(key)).toBeGreaterThanOrEqual(50);
  });
});

describe('fit score', () => {
  it('scores an event with 200 and a band matching the score', async () => {
    // Prepare
    const event = sim.events.find((e) => e.fit.recommendation === 'consider');

    // Act
    const reply = await call('POST', '/external/events/fit-score', { body: { event_id: event?.eventId } });

    // Assess
    expect(reply.status).toBe(200);
    expect(reply.body.recommendation).toBe('consider');
    expect(reply.body.score).toBeGreaterThanOrEqual(4);
    expect(reply.body.score).toBeLessThan(7);
  });

  it('answers 400 without event_id and 404 for an unknown event', async () => {
    // Act
    const missing = await call('POST', '/external/events/fit-score', { body: {} });
    const unknown = await call('POST', '/external/events/fit-score', { body: { event_id: '1' } });

    // Assess
    expect([missing.status, unknown.status]).toEqual([400, 404]);
  });
});

describe('precheck', () => {
  it('expects 2000 credits for a locked event and none once unlocked', async () => {
    // Prepare
    const key = freshKey();
    const body = { action_type: 'unlock_event', params: { event_id: BIG_EVENT_ID } };

    // Act
    const before = await call('POST', '/external/actions/precheck', { key, body });
    await call('POST', `/external/events/${BIG_EVENT_ID}/unlock`, { key });
    const after = await call('POST', '/external/actions/precheck', { key, body });

    // Assess
    expect(before.body).toMatchObject({
      ok: true,
      allowed: true,
      should_charge: true,
      credits: 2000,
      reason_code: 'ok',
    });
    expect(after.body).toMatchObject({ should_charge: false, credits: 0, reason_code: 'already_unlocked' });
  });

  it('reports forbidden by-name searches for unsubscribed keys and unknown actions', async () => {
    // Act
    const forbidden = await call('POST', '/external/actions/precheck', {
      key: UNSUBSCRIBED_API_KEY,
      body: { action_type: 'search_personnel_events_by_name', params: {} },
    });
    const unknown = await call('POST', '/external/actions/precheck', {
      body: { action_type: 'fly', params: {} },
    });

    // Assess
    expect(forbidden.body).toMatchObject({ allowed: false, reason_code: 'forbidden' });
    expect(unknown.body).toMatchObject({ allowed: false, reason_code: 'unsupported_action' });
  });
});
