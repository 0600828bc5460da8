import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEisClient, type EisClient } from '../../../src/eis/index.ts';
import {
  BIG_EVENT_ID,
  KNOWN_COMPANY_NAME,
  KNOWN_PERSON_NAME,
  type RecordedRequest,
  type Simulator,
  startSimulator,
} from '../../../simulator/server.ts';

/*
 * Contract: every request the client sends (captured by the simulator) validates against the vendor
 * OpenAPI's parameters and request bodies. Where the spec wins over the OpenAPI, the exception is named in
 * SPEC_WINS and applied explicitly below.
 */

type Json = Record<string, unknown>;

const openapi = JSON.parse(
  readFileSync(new URL('../../../../shared/spec/reference/openapi-0.27.0.json', import.meta.url), 'utf8'),
) as Json;

const SPEC_WINS = {
  agentFilesRoute:
    'GET /external/agent-files/list is documented by the spec but absent from the OpenAPI (the vendor excludes agent-file routes): its query is checked against the spec (page ≥ 1, pageSize 1–100).',
  callSourceEverywhere:
    'x-call-source: the spec makes it an optional header of every endpoint; the OpenAPI declares it on charging routes only. Checked against the OpenAPI CallSource schema on every request.',
} as const;

const SPEC_AGENT_FILES_QUERY = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1 },
    pageSize: { type: 'integer', minimum: 1, maximum: 100 },
  },
  additionalProperties: false,
};

// ajv-formats is CommonJS; its default export is the plugin function under ESM interop
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(openapi, 'openapi.json');

const pointer = (...segments: string[]) =>
  `openapi.json#/${segments.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

function resolve(node: Json): { node: Json; at: string[] } {
  const ref = node.$ref;
  if (typeof ref !== 'string') return { node, at: [] };
  const at = ref.replace(/^#\//, '').split('/');
  let current: unknown = openapi;
  for (const segment of at) current = (current as Json)[segment];
  return { node: current as Json, at };
}

function validate(schemaRef: string, value: unknown): string[] {
  const check = ajv.getSchema(schemaRef) ?? ajv.compile({ $ref: schemaRef });
  if (check(value)) return [];
  return (check.errors ?? []).map((e) => `${e.instancePath || '(value)'} ${e.message ?? ''}`);
}

interface Operation {
  template: string;
  method: string;
  operation: Json;
  pattern: RegExp;
}

const operations: Operation[] = Object.entries(openapi.paths as Record<string, Json>).flatMap(
  ([template, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      template,
      method: method.toUpperCase(),
      operation: operation as Json,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '([^/]+)')}$`),
    })),
);

function findOperation(method: string, path: string): Operation | undefined {
  // literal paths first: /external/events/list must not be taken for /external/events/{id}
  const candidates = operations.filter((op) => op.method === method && op.pattern.test(path));
  return candidates.find((op) => !op.template.includes('{')) ?? candidates[0];
}

function coerce(schema: Json, raw: string | string[]): unknown {
  const type = schema.type;
  if (type === 'array') {
    const items = (schema.items ?? {}) as Json;
    return (Array.isArray(raw) ? raw : [raw]).map((v) => coerce(items, v));
  }
  if (Array.isArray(raw)) return raw; // a repeated value where one is expected: left to fail
  if (type === 'integer' || type === 'number') return raw.trim() === '' ? raw : Number(raw);
  if (type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
  return raw;
}

/** Every violation of the OpenAPI by one captured request; empty when it conforms. */
function violations(request: RecordedRequest): string[] {
  const problems: string[] = [];
  if (!request.headers.authorization?.startsWith('Bearer ')) problems.push('no bearer Authorization header');
  // SPEC_WINS.callSourceEverywhere
  problems.push(
    ...validate(
      pointer('components', 'parameters', 'CallSource', 'schema'),
      request.headers['x-call-source'],
    ).map((p) => `header x-call-source ${p}`),
  );

  if (request.method === 'GET' && request.path === '/external/agent-files/list') {
    // SPEC_WINS.agentFilesRoute
    const query = Object.fromEntries(
      Object.entries(request.query).map(([k, v]) => [k, coerce({ type: 'integer' }, v)]),
    );
    const check = ajv.compile(SPEC_AGENT_FILES_QUERY);
    if (!check(query)) problems.push(`query ${ajv.errorsText(check.errors)}`);
    return problems;
  }

  const op = findOperation(request.method, request.path);
  if (!op) return [...problems, `no OpenAPI operation for ${request.method} ${request.path}`];
  const opPointer = ['paths', op.template, op.method.toLowerCase()];

  const parameters = ((op.operation.parameters ?? []) as Json[]).map((p, index) => {
    const { node, at } = resolve(p);
    const schemaAt = at.length ? [...at, 'schema'] : [...opPointer, 'parameters', String(index), 'schema'];
    return { param: node, schema: resolve(node.schema as Json).node, schemaRef: pointer(...schemaAt) };
  });

  // path parameters
  const names = [...op.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const values = op.pattern.exec(request.path)?.slice(1) ?? [];
  names.forEach((name, i) => {
    const entry = parameters.find((p) => p.param.in === 'path' && p.param.name === name);
    const value = decodeURIComponent(values[i] ?? '');
    if (!entry) problems.push(`path parameter ${name} not declared`);
    else problems.push(...validate(entry.schemaRef, value).map((p) => `path ${name} ${p}`));
  });

  // query parameters: declared, required present, each valid
  const declared = parameters.filter((p) => p.param.in === 'query');
  for (const [name, raw] of Object.entries(request.query)) {
    const entry = declared.find((p) => p.param.name === name);
    if (!entry) {
      problems.push(`query ${name} is not an OpenAPI parameter`);
      continue;
    }
    problems.push(...validate(entry.schemaRef, coerce(entry.schema, raw)).map((p) => `query ${name} ${p}`));
  }
  for (const entry of declared) {
    if (entry.param.required === true && !(String(entry.param.name) in request.query)) {
      problems.push(`required query ${String(entry.param.name)} missing`);
    }
  }

  // request body
  const bodyNode = op.operation.requestBody as Json | undefined;
  if (bodyNode) {
    const { at } = resolve(bodyNode);
    const base = at.length ? at : [...opPointer, 'requestBody'];
    const required = resolve(bodyNode).node.required === true;
    if (request.body === undefined) {
      if (required) problems.push('required request body missing');
    } else {
      problems.push(
        ...validate(pointer(...base, 'content', 'application/json', 'schema'), request.body).map(
          (p) => `body ${p}`,
        ),
      );
    }
    if (request.body !== undefined && !request.headers['content-type']?.startsWith('application/json')) {
      problems.push('body sent without content-type application/json');
    }
  } else if (request.body !== undefined) {
    problems.push('body sent to an operation that takes none');
  }
  return problems;
}

let sim: Simulator;
let client: EisClient;

beforeAll(async () => {
  sim = await startSimulator();
  const key = `sk_test_${randomUUID().replaceAll('-', '')}`;
  sim.addKey(key, { balance: 1_000_000 });
  client = createEisClient({ baseUrl: sim.url, apiKey: key });
});
afterAll(async () => {
  await client.close();
  await sim.close();
});

const linkedPeople = () => sim.seed.personnel.filter((p) => p.linked && p.attendance.length > 0);
const personId = (index = 0) => linkedPeople()[index]?.id ?? '1';
const exhibitorId = () => sim.seed.exhibitors.find((x) => x.eventIds.length > 1)?.id ?? '1';
const visitorEvent = () =>
  sim.events.find((e) => e.hasVisitors && e.personnelCount > 0 && e.id !== BIG_EVENT_ID)?.id ?? BIG_EVENT_ID;

const calls: Array<[string, () => Promise<unknown>]> = [
  ['credits.balance', () => client.credits.balance()],
  [
    'actions.precheck',
    () =>
      client.actions.precheck({
        actionType: 'unlock_event_full_access',
        params: { event_id: BIG_EVENT_ID },
        locale: 'en-US',
        traceId: 'slack-trace-1',
      }),
  ],
  [
    'events.list with every filter',
    () =>
      client.events.list({
        page: 1,
        pageSize: 10,
        keyword: 'expo',
        country: 'Germany',
        city: 'Berlin',
        dateStartFrom: '2026-01-01',
        dateStartTo: '2027-12-31',
        eventType: ['Trade Show', 'Conference'],
        quality: ['high'],
        sponsorMatchStarred: 1,
        hasVisitors: 0,
      }),
  ],
  ['events.detail', () => client.events.detail(BIG_EVENT_ID)],
  ['events.fitScore', () => client.events.fitScore(BIG_EVENT_ID)],
  ['events.rank', () => client.events.rank({ eventIds: sim.events.slice(0, 3).map((e) => e.id) })],
  ['events.unlock', () => client.events.unlock(BIG_EVENT_ID)],
  [
    'events.unlockVisitors',
    () => client.events.unlock(visitorEvent()).then(() => client.events.unlockVisitors(visitorEvent())),
  ],
  ['events.unlockFullAccess', () => client.events.unlockFullAccess(sim.events[5]?.id ?? BIG_EVENT_ID)],
  [
    'exhibitors.list with every filter',
    () =>
      client.exhibitors.list({
        eventId: BIG_EVENT_ID,
        page: 1,
        pageSize: 50,
        keyword: 'data',
        country: 'US',
        category: ['Software', 'Hardware'],
        industry: ['Analytics'],
        jobTitle: ['CTO'],
        managementLevel: ['VP'],
        department: ['Engineering'],
        personnelLimit: 2,
      }),
  ],
  [
    'exhibitors.searchByContext',
    () =>
      client.exhibitors.searchByContext({
        companyUrl: 'https://acme.example',
        targetAudience: 'CFOs',
        page: 1,
        pageSize: 5,
      }),
  ],
  [
    'exhibitors.searchByCompanyName',
    () => client.exhibitors.searchByCompanyName({ companyName: KNOWN_COMPANY_NAME, pageSize: 5 }),
  ],
  [
    'exhibitors.searchEvents',
    () => client.exhibitors.searchEvents({ companyName: KNOWN_COMPANY_NAME, sponsorMatchStarred: 0 }),
  ],
  [
    'personnel.list with every filter',
    () =>
      client.personnel.list({
        eventId: BIG_EVENT_ID,
        page: 1,
        pageSize: 50,
        exhibitorId: '12',
        department: 'marketing',
        level: 'vp',
        searchQuery: 'head',
        sourceType: ['exhibitor', 'visitors'],
      }),
  ],
  ['personnel.events', () => client.personnel.events(personId(), 1)],
  [
    'personnel.eventsByName',
    () =>
      client.personnel.eventsByName({
        personName: KNOWN_PERSON_NAME,
        dateStartFrom: '2026-01-01',
        dateStartTo: '2028-01-01',
        page: 1,
        pageSize: 20,
      }),
  ],
  ['contacts.unlockEmails', () => client.contacts.unlockEmails([personId()], { eventId: BIG_EVENT_ID })],
  [
    'contacts.emailTask',
    () => client.contacts.unlockEmails([personId(1)]).then((s) => client.contacts.emailTask(s.taskId ?? '1')),
  ],
  ['contacts.unlockPhones', () => client.contacts.unlockPhones([personId()])],
  [
    'contacts.phoneTask',
    () => client.contacts.unlockPhones([personId(2)]).then((s) => client.contacts.phoneTask(s.taskId ?? '1')),
  ],
  [
    'recommendations.exhibitors with every filter',
    () =>
      client.recommendations.exhibitors({
        eventId: BIG_EVENT_ID,
        page: 1,
        pageSize: 10,
        location: 'United States',
        searchQuery: 'cloud',
        exhibitorName: ['Acme Analytics', 'Globex'],
        category: ['Software'],
        industry: ['Analytics'],
        employeesMin: 10,
        employeesMax: 5000,
      }),
  ],
  ['agentFiles.list', () => client.agentFiles.list(1)],
  ['events.brief', () => client.events.brief(BIG_EVENT_ID)],
  ['exhibitors.profile', () => client.exhibitors.profile(exhibitorId())],
  [
    'exhibitors.events with every filter',
    () =>
      client.exhibitors.events({
        exhibitorId: exhibitorId(),
        attendanceScope: 'exhibitor',
        page: 1,
        pageSize: 5,
      }),
  ],
  [
    'exhibitors.searchEvents with attendance scope',
    () =>
      client.exhibitors.searchEvents({
        companyName: KNOWN_COMPANY_NAME,
        attendanceScope: 'exhibitor',
        page: 2,
      }),
  ],
  ['personnel.profile', () => client.personnel.profile(personId())],
  [
    'personnel.events with every filter',
    () => client.personnel.events(personId(), 1, { pageSize: 5, attendanceScope: 'exhibitor_employee' }),
  ],
  [
    'personnel.eventsByName with attendance scope',
    () => client.personnel.eventsByName({ personName: KNOWN_PERSON_NAME, attendanceScope: 'visitor' }),
  ],
  [
    'personnel.eventsByLinkedin with every filter',
    () =>
      client.personnel.eventsByLinkedin({
        linkedinUrl: linkedPeople()[0]?.linkedinUrl ?? '',
        attendanceScope: 'all',
        page: 1,
        pageSize: 10,
      }),
  ],
  [
    'personnel.unlockLinkedinActivity with event',
    () => client.personnel.unlockLinkedinActivity([personId(3)], { eventId: BIG_EVENT_ID }),
  ],
  [
    'contacts.search with every filter',
    () =>
      client.contacts.search({ companyName: 'Acme', role: 'Sales', personName: 'a', page: 1, pageSize: 5 }),
  ],
  [
    'outreach.generate with every member',
    () =>
      client.outreach.generate({
        personnelIds: [personId(4)],
        eventId: BIG_EVENT_ID,
        channels: ['email', 'linkedin_message'],
        linkedinMessageTypes: ['inmail', 'connection_note', 'connected_message'],
        outreachPurpose: 'Book a demo at the show',
      }),
  ],
  ['outreach.detail', () => client.outreach.detail({ personnelId: personId(4), eventId: BIG_EVENT_ID })],
  [
    'recommendations.events with every filter',
    () =>
      client.recommendations.events({
        companyUrl: 'https://acme.example',
        targetAudience: 'Retail buyers in Europe',
        page: 1,
        pageSize: 5,
        autoRecommendTop3EventsEnabled: true,
        city: 'Berlin',
        region: 'Berlin',
        country: 'Germany',
        category: ['Technology'],
        eventTypeIds: [1, 2],
        dateStartFrom: '2026-01-01',
        dateStartTo: '2028-12-31',
        future: 1,
        attendeeCountMin: 100,
        attendeeCountMax: 200_000,
        linkedinUrl: 'https://www.linkedin.com/in/jane-doe',
        companyDescription: 'Point-of-sale analytics for retailers',
        industry: 'Retail Technology',
        targetIndustry: ['Retail'],
        plannedEvents: 'NRF',
        targetManagementLevel: ['VP'],
        targetJobTitles: ['marketing'],
        timeoutMs: 60_000,
      }),
  ],
];

describe('eis request contract (OpenAPI 0.27.0)', () => {
  it.each(calls)('%s sends requests that conform to the OpenAPI', async (_name, call) => {
    // Prepare
    const since = sim.requests().length;

    // Act
    await call();

    // Assess
    const sent = sim.requests().slice(since);
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) {
      expect({ request: `${request.method} ${request.path}`, problems: violations(request) }).toEqual({
        request: `${request.method} ${request.path}`,
        problems: [],
      });
    }
  });

  it('has sent, through the client, a request to every OpenAPI operation', () => {
    // Act (runs after the calls above, in file order)
    const reached = new Set(
      sim.requests().map((r) => {
        const op = findOperation(r.method, r.path);
        return op ? `${op.method} ${op.template}` : 'none';
      }),
    );
    const missing = operations.map((op) => `${op.method} ${op.template}`).filter((key) => !reached.has(key));

    // Assess
    expect(missing).toEqual([]);
  });

  it('flags a request that breaks the OpenAPI (the checker is not vacuous)', () => {
    // Prepare
    const bad: RecordedRequest = {
      method: 'POST',
      path: '/external/events/rank',
      query: { pageSize: '500' },
      headers: {
        authorization: 'Bearer [redacted]',
        'x-call-source': 'robot',
        'content-type': 'application/json',
      },
      body: { event_ids: 'not-an-array' },
      at: new Date().toISOString(),
    };

    // Act
    const problems = violations(bad);

    // Assess
    expect(problems.some((p) => p.startsWith('header x-call-source'))).toBe(true);
    expect(problems.some((p) => p.startsWith('query pageSize is not an OpenAPI parameter'))).toBe(true);
    expect(problems.some((p) => p.startsWith('body /event_ids'))).toBe(true);
  });

  it('names each spec-wins exception it applies', () => {
    // Assess
    expect(Object.keys(SPEC_WINS)).toEqual(['agentFilesRoute', 'callSourceEverywhere']);
  });
});
