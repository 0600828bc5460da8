import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClientMethod,
  createEisClient,
  EIS_METHODS_OUTSIDE_OPENAPI,
  EIS_OPERATIONS,
  EIS_OPERATIONS_NOT_IN_CLIENT,
  EisBadInputError,
  type EisClient,
  EisNotFoundError,
  EisUpstreamError,
  listPrice,
} from '../../../src/eis/index.ts';
import { outreachProgress } from '../../../src/domain/ports/outreach.ts';
import { BIG_EVENT_ID, type Simulator, startSimulator } from '../../../simulator/server.ts';

/*
 * Coverage: every operation of the vendor OpenAPI 0.27.0 has a client method, a documented charging
 * nature and a response schema that reads the vendor's own examples. Then the operations that were new in
 * issue 14 run end to end against the simulator: filters, background jobs, charges and injected faults.
 */

type Json = Record<string, unknown>;
const openapi = JSON.parse(
  readFileSync(new URL('../../../../shared/spec/reference/openapi-0.27.0.json', import.meta.url), 'utf8'),
) as { paths: Record<string, Record<string, Json>> };

// asymmetric matchers are typed `any`: held as `unknown` for the type-checked lint
const A_TASK_ID: unknown = expect.stringMatching(/^\d+$/);
const ANY_STRING: unknown = expect.any(String);
const ANY_BOOLEAN: unknown = expect.any(Boolean);

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const openapiOperations = Object.entries(openapi.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
);

/** `'events.brief'` → the function on a real client, or undefined. */
function methodOf(client: EisClient, clientMethod: string): unknown {
  const [area = '', name = ''] = clientMethod.split('.');
  const api = (client as unknown as Record<string, Record<string, unknown> | undefined>)[area];
  return api?.[name];
}

/** Every `area.method` a real client exposes. */
function clientMethods(client: EisClient): string[] {
  return Object.entries(client).flatMap(([area, api]) =>
    typeof api === 'object' && api !== null
      ? Object.entries(api as Record<string, unknown>)
          .filter(([, value]) => typeof value === 'function')
          .map(([name]) => `${area}.${name}`)
      : [],
  );
}

function successExample(operation: Json): unknown {
  const responses = operation.responses as Record<string, Json>;
  // where 200 and 201 are both listed, 200 is a business-error envelope and 201 the result
  const success = ['201', '200'].find((status) => status in responses) ?? '';
  const content = (responses[success]?.content as Record<string, Json> | undefined)?.['application/json'];
  return content?.example;
}

/** One valid call of every client method, so each can be sent (and failed) without the network. */
const ONE_CALL: Record<ClientMethod, (client: EisClient) => Promise<unknown>> = {
  'credits.balance': (c) => c.credits.balance(),
  'actions.precheck': (c) =>
    c.actions.precheck({ actionType: 'unlock_event_contacts', params: { event_id: '26855' } }),
  'events.list': (c) => c.events.list(),
  'events.detail': (c) => c.events.detail('26855'),
  'events.brief': (c) => c.events.brief('26855'),
  'events.fitScore': (c) => c.events.fitScore('26855'),
  'events.rank': (c) => c.events.rank({ eventIds: ['26855'] }),
  'events.unlock': (c) => c.events.unlock('26855'),
  'events.unlockVisitors': (c) => c.events.unlockVisitors('26855'),
  'events.unlockFullAccess': (c) => c.events.unlockFullAccess('26855'),
  'exhibitors.list': (c) => c.exhibitors.list({ eventId: '26855' }),
  'exhibitors.searchByContext': (c) => c.exhibitors.searchByContext({ targetAudience: 'retail buyers' }),
  'exhibitors.searchByCompanyName': (c) => c.exhibitors.searchByCompanyName({ companyName: 'Acme' }),
  'exhibitors.searchEvents': (c) => c.exhibitors.searchEvents({ companyName: 'Acme' }),
  'exhibitors.profile': (c) => c.exhibitors.profile('4100'),
  'exhibitors.events': (c) => c.exhibitors.events({ exhibitorId: '4100' }),
  'personnel.list': (c) => c.personnel.list({ eventId: '26855' }),
  'personnel.profile': (c) => c.personnel.profile('100001'),
  'personnel.events': (c) => c.personnel.events('100001'),
  'personnel.eventsByLinkedin': (c) =>
    c.personnel.eventsByLinkedin({ linkedinUrl: 'https://www.linkedin.com/in/jane' }),
  'personnel.eventsByName': (c) => c.personnel.eventsByName({ personName: 'Jane Doe' }),
  'personnel.unlockLinkedinActivity': (c) => c.personnel.unlockLinkedinActivity(['100001']),
  'contacts.search': (c) => c.contacts.search({ companyName: 'Acme' }),
  'contacts.unlockEmails': (c) => c.contacts.unlockEmails(['100001']),
  'contacts.emailTask': (c) => c.contacts.emailTask('77'),
  'contacts.unlockPhones': (c) => c.contacts.unlockPhones(['100001']),
  'contacts.phoneTask': (c) => c.contacts.phoneTask('77'),
  'recommendations.events': (c) => c.recommendations.events({ targetAudience: 'retail buyers' }),
  'recommendations.exhibitors': (c) => c.recommendations.exhibitors({ eventId: '26855' }),
  'outreach.generate': (c) => c.outreach.generate({ personnelIds: ['100001'], channels: ['email'] }),
  'outreach.detail': (c) => c.outreach.detail({ personnelId: '100001', eventId: '26855' }),
  'agentFiles.list': (c) => c.agentFiles.list(1),
};

/** A client whose every request is answered 502 (the service may have run it), recording what was sent. */
function failingClient() {
  const sent: { method: string; path: string }[] = [];
  const dispatcher = {
    request(options: { method: string; path: string }) {
      sent.push({ method: options.method, path: options.path.split('?')[0] ?? '' });
      return Promise.resolve({ statusCode: 502, headers: {}, body: { text: () => Promise.resolve('{}') } });
    },
    close: () => Promise.resolve(),
  } as unknown as Dispatcher;
  const client = createEisClient({
    baseUrl: 'http://eis.test',
    apiKey: 'sk_rows_offline',
    dispatcher,
    maxRetries: 2,
    sleep: () => Promise.resolve(),
  });
  return { client, sent };
}

describe('the client covers the OpenAPI 0.27.0', () => {
  const offline = createEisClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sk_offline_coverage' });

  it('maps every OpenAPI operation to a client method, or excludes it with a reason', () => {
    // Prepare
    const mapped = new Set<string>(EIS_OPERATIONS.map((entry) => entry.operation));
    const excluded = new Set<string>(EIS_OPERATIONS_NOT_IN_CLIENT.map((entry) => entry.operation));

    // Act
    const missing = openapiOperations
      .map((op) => op.key)
      .filter((key) => !mapped.has(key) && !excluded.has(key));
    const unknown = [...mapped].filter((key) => !openapiOperations.some((op) => op.key === key));

    // Assess
    expect(missing).toEqual([]);
    expect(unknown).toEqual([]);
    expect(openapiOperations).toHaveLength(31);
    // exactly one row per operation
    expect(new Set(EIS_OPERATIONS.map((entry) => entry.operation)).size).toBe(EIS_OPERATIONS.length);
    expect(EIS_OPERATIONS).toHaveLength(31);
    for (const entry of EIS_OPERATIONS_NOT_IN_CLIENT) expect(entry.reason.length).toBeGreaterThan(20);
  });

  it.each(EIS_OPERATIONS.map((entry) => [entry.operation, entry] as const))(
    '%s is called by an existing client method with its OpenAPI operationId',
    (_key, entry) => {
      // Assess
      const documented = openapiOperations.find((op) => op.key === entry.operation);
      expect(documented?.operation.operationId).toBe(entry.operationId);
      expect(typeof methodOf(offline, entry.clientMethod)).toBe('function');
    },
  );

  it('has no client method outside the table but the documented extras', () => {
    // Prepare
    const known = new Set<string>([
      ...EIS_OPERATIONS.map((entry) => entry.clientMethod),
      ...EIS_METHODS_OUTSIDE_OPENAPI.map((entry) => entry.clientMethod),
    ]);

    // Act
    const unlisted = clientMethods(offline).filter((name) => !known.has(name) && name !== 'iteratePages');

    // Assess
    expect(unlisted).toEqual([]);
    expect(new Set(EIS_OPERATIONS.map((entry) => entry.clientMethod)).size).toBe(EIS_OPERATIONS.length);
  });

  it.each([...EIS_OPERATIONS, ...EIS_METHODS_OUTSIDE_OPENAPI].map((row) => [row.clientMethod, row] as const))(
    "%s is sent with its row's method and path, and resent after a 502 only when its row is free",
    async (clientMethod, row) => {
      // Prepare
      const { client, sent } = failingClient();
      const [method, template = ''] = row.operation.split(' ');
      const path = new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`);
      const charging = row.charging.kind !== 'free';

      // Act
      const error = await ONE_CALL[clientMethod](client).catch((caught: unknown) => caught);

      // Assess
      expect(error).toMatchObject({ constructor: EisUpstreamError, outcomeUnknown: charging });
      expect(sent).toHaveLength(charging ? 1 : 3);
      expect(sent.every((request) => request.method === method && path.test(request.path))).toBe(true);
    },
  );

  it('never calls an operation free when the OpenAPI lets it answer 402', () => {
    // Act
    const wrong = EIS_OPERATIONS.filter((entry) => {
      const documented = openapiOperations.find((op) => op.key === entry.operation);
      const can402 = '402' in ((documented?.operation.responses ?? {}) as Json);
      return can402 && entry.charging.kind === 'free';
    }).map((entry) => entry.operation);

    // Assess
    expect(wrong).toEqual([]);
  });

  it('keeps one price table: free, flat, range, per contact, on a match, undocumented', () => {
    // Act
    const charging = Object.fromEntries(
      EIS_OPERATIONS.filter((entry) => entry.charging.kind !== 'free').map((entry) => [
        entry.clientMethod,
        listPrice(entry.clientMethod, 2),
      ]),
    );

    // Assess
    expect(charging).toEqual({
      'events.unlock': { credits: 2000, upTo: false, precheck: 'unlock_event_contacts' },
      'events.unlockVisitors': { credits: 3000, upTo: false, precheck: 'unlock_event_visitors' },
      'events.unlockFullAccess': { credits: 5000, upTo: true, precheck: 'unlock_event_full_access' },
      'exhibitors.searchByCompanyName': {
        credits: 50,
        upTo: true,
        precheck: 'search_exhibitors_by_company_name',
      },
      'exhibitors.searchEvents': { credits: 50, upTo: true, precheck: 'search_exhibitor_events' },
      'personnel.eventsByName': { credits: 50, upTo: true, precheck: 'search_personnel_events_by_name' },
      'personnel.unlockLinkedinActivity': { credits: null, upTo: true, precheck: null },
      'contacts.unlockEmails': { credits: 30, upTo: true, precheck: 'unlock_contact_emails' },
      'contacts.unlockPhones': { credits: 300, upTo: true, precheck: 'unlock_contact_phones' },
    });
    expect(listPrice('outreach.generate')).toEqual({ credits: 0, upTo: false, precheck: null });
    expect(listPrice('recommendations.events')).toEqual({ credits: 0, upTo: false, precheck: null });
    expect(listPrice('agentFiles.list' satisfies ClientMethod).credits).toBe(0);
  });

  it.each(
    EIS_OPERATIONS.flatMap((entry) => {
      const documented = openapiOperations.find((op) => op.key === entry.operation);
      const example = documented ? successExample(documented.operation) : undefined;
      return example === undefined ? [] : [[entry.operation, entry, example] as const];
    }),
  )('%s: the client schema reads the vendor example', (_key, entry, example) => {
    // Act
    const parsed = entry.response.safeParse(example);

    // Assess
    expect(parsed.error?.issues ?? []).toEqual([]);
  });
});

describe('the new operations against the simulator', () => {
  let sim: Simulator;
  let client: EisClient;
  let clock = Date.parse('2026-11-24T09:00:00Z');
  const key = `sk_ops_${randomUUID().replaceAll('-', '')}`;

  beforeAll(async () => {
    sim = await startSimulator({ now: () => clock, taskDurationMs: 60_000 });
    sim.addKey(key, { balance: 100_000 });
    client = createEisClient({ baseUrl: sim.url, apiKey: key, sleep: () => Promise.resolve() });
  });
  afterAll(async () => {
    await client.close();
    await sim.close();
  });

  const sent = (since: number) => sim.requests().slice(since);
  const bigEvent = () => sim.events.find((e) => e.id === BIG_EVENT_ID);
  const linkedPerson = () =>
    sim.seed.personnel.find((p) => p.eventId === BIG_EVENT_ID && p.linked && Number(p.id) % 9 !== 4);

  it('reads an event brief by internal or public id, for free', async () => {
    // Act
    const byId = await client.events.brief(BIG_EVENT_ID);
    const byPublicId = await client.events.brief(bigEvent()?.eventId ?? '');

    // Assess
    expect(byId.event.id).toBe(BIG_EVENT_ID);
    expect(byPublicId.event.id).toBe(BIG_EVENT_ID);
    expect(byId.summary.exhibitorCount).toBe(340);
    expect(sim.balance(key)).toBe(100_000);
  });

  it('researches an account: profile, then its events filtered by attendance scope', async () => {
    // Prepare
    const exhibitor = sim.seed.exhibitors.find((x) => x.eventIds.length > 2);

    // Act
    const profile = await client.exhibitors.profile(exhibitor?.id ?? '');
    const events = await client.exhibitors.events({ exhibitorId: profile.id, pageSize: 2 });
    const visitorOnly = await client.exhibitors.events({
      exhibitorId: profile.id,
      attendanceScope: 'visitor',
    });

    // Assess
    expect(profile.companyName).toBe(exhibitor?.companyName);
    expect(profile.events?.length).toBe(exhibitor?.eventIds.length);
    expect(events.items).toHaveLength(2);
    expect(events.total).toBe(exhibitor?.eventIds.length);
    expect(events.items[0]?.attendance_identity).toEqual(['exhibitor']);
    expect(visitorOnly.total).toBe(0);
    await expect(client.exhibitors.profile('999999')).rejects.toBeInstanceOf(EisNotFoundError);
  });

  it('finds a person and their events from a LinkedIn URL', async () => {
    // Prepare
    const person = sim.seed.personnel.find((p) => p.attendance.length > 1);

    // Act
    const found = await client.personnel.eventsByLinkedin({ linkedinUrl: person?.linkedinUrl ?? '' });

    // Assess
    expect(found.personnel.id).toBe(person?.id);
    expect(found.events.total).toBe(new Set(person?.attendance.map((a) => a.eventId)).size);
    await expect(
      client.personnel.eventsByLinkedin({ linkedinUrl: 'https://www.linkedin.com/in/nobody-at-all' }),
    ).rejects.toBeInstanceOf(EisNotFoundError);
  });

  it('searches contacts at a company, narrowed by role and name, for free', async () => {
    // Act
    const all = await client.contacts.search({ companyName: 'Acme' });
    const sales = await client.contacts.search({ companyName: 'Acme', role: 'Sales', pageSize: 100 });

    // Assess
    expect(all.total).toBeGreaterThan(sales.total);
    expect(sales.items.every((c) => c.companyName?.startsWith('Acme') && c.title?.includes('Sales'))).toBe(
      true,
    );
    expect(sales.items.every((c) => c.linkedinActivity === null && c.email === null)).toBe(true);
    expect(sim.balance(key)).toBe(100_000);
  });

  it('applies every events/exhibitors/personnel list filter it is given', async () => {
    // Act
    const events = await client.events.list({ eventType: ['Conference'], quality: ['high'], hasVisitors: 1 });
    const exhibitors = await client.exhibitors.list({
      eventId: BIG_EVENT_ID,
      department: ['Marketing'],
      managementLevel: ['VP', 'Director'],
      personnelLimit: 3,
    });
    const people = await client.personnel.list({
      eventId: BIG_EVENT_ID,
      sourceType: ['visitors'],
      level: 'VP',
    });

    // Assess
    const seeded = (id: string) => sim.seed.events.find((e) => e.id === id);
    expect(events.items.every((e) => seeded(e.id)?.eventType === 'Conference' && e.hasVisitors)).toBe(true);
    expect(exhibitors.items.length).toBeGreaterThan(0);
    const nested = exhibitors.items.flatMap(
      (x) => (x.personnel ?? []) as { department: string; seniorityLevel: string }[],
    );
    expect(
      nested.every((p) => p.department === 'Marketing' && ['VP', 'Director'].includes(p.seniorityLevel)),
    ).toBe(true);
    expect(people.items.every((p) => p.sourceType.includes('visitors') && p.seniorityLevel === 'VP')).toBe(
      true,
    );
  });

  it('recommends events for a profile with its filters, scored and ranked, for free', async () => {
    // Act
    const page = await client.recommendations.events({
      companyUrl: 'https://acme.example',
      country: 'Germany',
      future: 1,
      attendeeCountMin: 100,
      pageSize: 5,
    });
    const empty = await client.recommendations.events({ targetAudience: 'x', country: 'Atlantis' });

    // Assess
    expect(page.status).toBe('completed');
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items.every((e) => e.country === 'Germany' && (e.dateStart ?? '') >= sim.today)).toBe(true);
    expect(page.items.map((e) => e.rank)).toEqual(page.items.map((_, i) => i + 1));
    expect(page.items.every((e) => e.match_score !== null)).toBe(true);
    // A reason where the service generated one; otherwise omitted or null (OpenAPI).
    expect(
      page.items.every((e) => (e.relevanceReason ?? null) === null || (e.relevanceReason ?? '').length > 0),
    ).toBe(true);
    expect(empty).toMatchObject({ status: 'completed_empty', total: 0 });
    expect(sim.balance(key)).toBe(100_000);
    await expect(client.recommendations.events({ country: 'Germany' })).rejects.toBeInstanceOf(
      EisBadInputError,
    );
  });

  it('drafts outreach: generate, poll the detail until ready, charging nothing', async () => {
    // Prepare
    const person = linkedPerson();
    const input = { personnelId: person?.id ?? '', eventId: BIG_EVENT_ID };

    // Act
    const started = await client.outreach.generate({
      personnelIds: [input.personnelId],
      eventId: BIG_EVENT_ID,
      channels: ['email', 'linkedin_message'],
      linkedinMessageTypes: ['inmail'],
      outreachPurpose: 'Book a demo',
    });
    const pending = await client.outreach.detail(input);
    clock += 61_000;
    const ready = await client.outreach.detail(input);

    // Assess
    expect(started.items).toEqual([
      { personnel_id: input.personnelId, success: true, taskId: A_TASK_ID, error: null },
    ]);
    expect(started.taskCenterId).toMatch(/^\d+$/);
    expect(outreachProgress(pending)).toBe('pending');
    expect(outreachProgress(ready)).toBe('ready');
    expect(ready.messages.email).toContain('Book a demo');
    expect(ready.messages.linkedin?.inmail?.subject).toBe(bigEvent()?.name);
    expect((await client.personnel.profile(input.personnelId)).outreachMessageStatus).toBe('ready');
    expect(sim.balance(key)).toBe(100_000);
  });

  it('refuses outreach for a public event id, as the service does since 0.26.0', async () => {
    // Act
    const attempt = client.outreach.generate({
      personnelIds: [linkedPerson()?.id ?? ''],
      eventId: bigEvent()?.eventId ?? '',
      channels: ['email'],
    });

    // Assess
    await expect(attempt).rejects.toBeInstanceOf(EisBadInputError);
  });

  it('reports failed drafts when the simulator fails every job', async () => {
    // Prepare
    const person = sim.seed.personnel.find(
      (p) => p.eventId === BIG_EVENT_ID && p.linked && p.id !== linkedPerson()?.id,
    );
    await client.outreach.generate({
      personnelIds: [person?.id ?? ''],
      eventId: BIG_EVENT_ID,
      channels: ['email'],
    });

    // Act
    sim.completeTasks('failed');
    const detail = await client.outreach.detail({ personnelId: person?.id ?? '', eventId: BIG_EVENT_ID });

    // Assess
    expect(outreachProgress(detail)).toBe('failed');
    expect(detail.found).toBe(false);
  });

  it('unlocks LinkedIn activity as a background job that shows on the profile', async () => {
    // Prepare
    const person = linkedPerson();
    const id = person?.id ?? '';

    // Act
    const first = await client.personnel.unlockLinkedinActivity([id, '1'], { eventId: BIG_EVENT_ID });
    const during = await client.personnel.profile(id);
    clock += 61_000;
    const after = await client.personnel.profile(id);
    const again = await client.personnel.unlockLinkedinActivity([id]);

    // Assess
    expect(first.items).toEqual([
      {
        personnel_id: id,
        success: true,
        alreadyUnlocked: false,
        taskId: A_TASK_ID,
        error: null,
      },
      {
        personnel_id: '1',
        success: false,
        alreadyUnlocked: false,
        taskId: null,
        error: 'PERSONNEL_NOT_FOUND',
      },
    ]);
    expect(during.linkedinActivityStatus).toBe('processing');
    expect(after.linkedinActivityStatus).toBe('ready');
    expect(after.linkedinActivity).toMatchObject({
      activityLevel: ANY_STRING,
      isActive: ANY_BOOLEAN,
    });
    expect(again.items[0]).toMatchObject({ success: true, alreadyUnlocked: true, taskId: null });
    expect(sim.balance(key)).toBe(100_000);
  });

  it('refuses bad input to the new operations before any request is sent', async () => {
    // Prepare
    const since = sim.requests().length;
    const attempts = [
      client.events.brief(''),
      client.exhibitors.events({ exhibitorId: '4100', pageSize: 101 }),
      client.personnel.eventsByLinkedin({ linkedinUrl: 'linkedin.com/in/jane' }),
      client.personnel.unlockLinkedinActivity([]),
      client.contacts.search({ companyName: '  ' }),
      client.outreach.generate({ personnelIds: ['100001'], channels: [] }),
      client.outreach.detail({ personnelId: '100001', eventId: 'NRF-2026' }),
      client.recommendations.events({ targetAudience: 'x', attendeeCountMin: 9, attendeeCountMax: 1 }),
    ];

    // Act
    const outcomes = await Promise.allSettled(attempts);

    // Assess
    expect(outcomes.map((o) => o.status === 'rejected' && o.reason instanceof EisBadInputError)).toEqual(
      attempts.map(() => true),
    );
    expect(sent(since)).toEqual([]);
  });

  it('sends event_id with a contact unlock that starts from an event', async () => {
    // Prepare
    const since = sim.requests().length;
    const person = sim.seed.personnel.find((p) => p.eventId === BIG_EVENT_ID && p.linked && p.emailFindable);

    // Act
    await client.contacts.unlockEmails([person?.id ?? ''], { eventId: BIG_EVENT_ID });

    // Assess
    expect(sent(since).map((r) => r.body)).toEqual([{ personnel_ids: [person?.id], event_id: BIG_EVENT_ID }]);
  });

  it('retries a read of the new operations through injected 503s and 429s', async () => {
    // Prepare
    const since = sim.requests().length;
    sim.injectFault({ kind: 'status', status: 503, route: 'GET /external/personnel/outreach' });
    sim.injectFault({
      kind: 'status',
      status: 429,
      route: 'GET /external/contacts/search',
      retryAfterSeconds: 0,
    });

    // Act
    const detail = await client.outreach.detail({ personnelId: '100001', eventId: BIG_EVENT_ID });
    const contacts = await client.contacts.search({ companyName: 'Globex' });

    // Assess
    expect(detail.channels).toEqual(expect.any(Array));
    expect(contacts.total).toBeGreaterThan(0);
    expect(sent(since).map((r) => r.path)).toEqual([
      '/external/personnel/outreach',
      '/external/personnel/outreach',
      '/external/contacts/search',
      '/external/contacts/search',
    ]);
  });

  it('never resends a LinkedIn activity unlock whose outcome is unknown', async () => {
    // Prepare
    const since = sim.requests().length;
    sim.injectFault({
      kind: 'status',
      status: 502,
      route: 'POST /external/personnel/unlock-linkedin-activity',
      afterExecute: true,
    });

    // Act
    const attempt = client.personnel.unlockLinkedinActivity([linkedPerson()?.id ?? '']);

    // Assess
    await expect(attempt).rejects.toMatchObject({ constructor: EisUpstreamError, outcomeUnknown: true });
    expect(sent(since)).toHaveLength(1);
  });

  it('turns a malformed brief into an upstream error, and a hung recommendation into a timeout', async () => {
    // Prepare
    const quick = createEisClient({ baseUrl: sim.url, apiKey: key, timeoutMs: 200, maxRetries: 0 });
    sim.injectFault({ kind: 'malformed-json', route: 'GET /external/events/brief' });
    sim.injectFault({
      kind: 'hang',
      route: 'POST /external/profile-matching/actions/apply-recommended-events/paged',
    });

    // Act
    const brief = quick.events.brief(BIG_EVENT_ID);
    const recommended = quick.recommendations.events({ targetAudience: 'retail buyers' });

    // Assess
    await expect(brief).rejects.toBeInstanceOf(EisUpstreamError);
    await expect(recommended).rejects.toBeInstanceOf(EisUpstreamError);
    await quick.close();
  });
});
