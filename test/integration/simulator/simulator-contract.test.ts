import { readFileSync } from 'node:fs';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BIG_EVENT_ID,
  EMPTY_EVENT_ID,
  KNOWN_COMPANY_NAME,
  KNOWN_PERSON_NAME,
  type Simulator,
  startSimulator,
  UNSUBSCRIBED_API_KEY,
} from '../../../simulator/server.ts';

// ajv and ajv-formats are CommonJS; under NodeNext their classes sit on `.default`.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

type JsonObject = Record<string, unknown>;

const OPENAPI_URL = new URL('../../../../shared/spec/reference/openapi-0.27.0.json', import.meta.url);
const openapi = JSON.parse(readFileSync(OPENAPI_URL, 'utf8')) as JsonObject;
const DOC_ID = 'openapi.json';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * Where the simulator follows the spec rather than the OpenAPI document, or where the OpenAPI has no
 * answer. Each entry names the operation and status it covers and why.
 */
const SPEC_EXCEPTIONS: { operation: string; status?: number; reason: string }[] = [
  {
    operation: 'POST /external/events/fit-score',
    status: 200,
    reason: 'the spec answers 200 where the OpenAPI says 201; the body is checked against the 201 schema',
  },
  {
    operation: 'GET /external/agent-files/list',
    reason:
      'absent from the OpenAPI (excluded there as agent transport); checked against the spec Agent file item',
  },
  {
    operation: 'GET /external/personnel/list',
    reason: 'the spec gives pageSize default 20 and maximum 100 (OpenAPI: default 50, maximum 50)',
  },
  {
    operation: 'POST /external/exhibitors/search-by-company-name',
    status: 409,
    reason:
      'overlapping charging calls of one key answer 409, which this operation does not list; checked as ApiError',
  },
  {
    operation: 'GET /external/personnel/events/by-name',
    reason:
      'the spec defaults date_start_from to the current date (OpenAPI: 2026-01-01); not a schema difference',
  },
  {
    operation: '(unknown route)',
    status: 404,
    reason: 'the OpenAPI has no operation to look up; checked as ApiError',
  },
];

const AGENT_FILE_PAGE = {
  type: 'object',
  required: ['items', 'total', 'page', 'pageSize', 'totalPages', 'hasMore'],
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'fileName', 'fileSize', 'mimeType', 'status', 'createdAt'],
        properties: {
          id: { type: 'string' },
          fileName: { type: 'string' },
          fileSize: { type: ['integer', 'null'] },
          mimeType: { type: 'string' },
          status: { type: 'string' },
          createdAt: { type: 'string', pattern: '^[0-9]+$' },
        },
      },
    },
    total: { type: 'integer' },
    page: { type: 'integer' },
    pageSize: { type: 'integer' },
    totalPages: { type: 'integer' },
    hasMore: { type: 'boolean' },
  },
};

function asObject(value: unknown, where: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`not an object: ${where}`);
  return value as JsonObject;
}

/** Follows a local `#/components/...` reference inside the OpenAPI document. */
function deref(value: unknown): JsonObject {
  const object = asObject(value, 'reference');
  const ref = object.$ref;
  if (typeof ref !== 'string') return object;
  return deref(
    ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, part) => asObject(node, ref)[part], openapi),
  );
}

/** Points `#/components/...` at the registered document so a copied schema still resolves. */
function anchorRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(anchorRefs);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${DOC_ID}${v}` : anchorRefs(v),
    ]),
  );
}

function operationOf(id: string): JsonObject {
  const [method = '', path = ''] = id.split(' ');
  return asObject(asObject(asObject(openapi.paths, 'paths')[path], path)[method.toLowerCase()], id);
}

const allOperations = (): string[] =>
  Object.entries(asObject(openapi.paths, 'paths')).flatMap(([path, item]) =>
    Object.keys(asObject(item, path))
      .filter((m) => METHODS.includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );

function responseSchema(operation: string, status: number): unknown {
  if (operation === 'GET /external/agent-files/list') return AGENT_FILE_PAGE;
  if (operation === '(unknown route)') return { $ref: `${DOC_ID}#/components/schemas/ApiError` };
  const documented = operation === 'POST /external/events/fit-score' && status === 200 ? 201 : status;
  const responses = asObject(operationOf(operation).responses, operation);
  const response = responses[String(documented)];
  if (response === undefined) {
    if (exceptionFor(operation, status)?.status === status)
      return { $ref: `${DOC_ID}#/components/schemas/ApiError` };
    throw new Error(`${operation} documents no ${status} response`);
  }
  const content = asObject(deref(response).content, `${operation} ${status} content`);
  return anchorRefs(asObject(content['application/json'], 'json').schema);
}

const exceptionFor = (operation: string, status?: number) =>
  SPEC_EXCEPTIONS.find((e) => e.operation === operation && (e.status === undefined || e.status === status));

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat('int64', { type: 'number', validate: Number.isInteger });
ajv.addSchema({ $id: DOC_ID, components: openapi.components });
// Query strings carry text: coerce to the declared types before checking.
const paramsAjv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: 'array' });
addFormats(paramsAjv);

function expectValid(
  validator: InstanceType<typeof Ajv2020>,
  schema: unknown,
  data: unknown,
  what: string,
): void {
  const validate = validator.compile(asObject(schema, what));
  const valid = validate(data);
  expect(
    valid,
    `${what}: ${validator.errorsText(validate.errors)}\n${JSON.stringify(data).slice(0, 600)}`,
  ).toBe(true);
}

interface Request {
  path?: Record<string, string>;
  query?: Record<string, string | string[]>;
  body?: unknown;
  key?: string | null;
}

/** Checks the request against the operation's declared parameters (no undeclared query names) and body. */
function validateRequest(operation: string, request: Request): void {
  if (operation === 'GET /external/agent-files/list' || operation === '(unknown route)') return;
  const op = operationOf(operation);
  const params = (Array.isArray(op.parameters) ? op.parameters : []).map(deref);
  for (const location of ['path', 'query'] as const) {
    const declared = params.filter((p) => p.in === location);
    const schema = {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(declared.map((p) => [String(p.name), p.schema])),
      required: declared.filter((p) => p.required === true).map((p) => String(p.name)),
    };
    const data = structuredClone(request[location] ?? {});
    expectValid(paramsAjv, schema, data, `${operation} ${location} parameters`);
  }
  if (op.requestBody !== undefined) {
    const content = asObject(deref(op.requestBody).content, 'request content');
    const schema = anchorRefs(asObject(content['application/json'], 'json').schema);
    expectValid(ajv, schema, request.body, `${operation} request body`);
  }
}

interface ContractCase {
  operation: string;
  status: number;
  name: string;
  request: () => Request;
  /** deliberately invalid requests (400s) are not checked against the request schemas */
  invalidRequest?: boolean;
  before?: () => void | Promise<void>;
}

let sim: Simulator;
const KEY = 'sk_contract_rich';
const POOR = 'sk_contract_poor';
const shared: { emailTaskId?: string; phoneTaskId?: string } = {};

async function send(operation: string, request: Request) {
  const [method = 'GET', pattern = ''] =
    operation === '(unknown route)' ? ['GET', '/external/nowhere'] : operation.split(' ');
  const path = pattern.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(request.path?.[name] ?? ''),
  );
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) query.append(name, v);
  }
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-call-source': 'api' };
  if (request.key !== null) headers.authorization = `Bearer ${request.key ?? KEY}`;
  const response = await fetch(`${sim.url}${path}${query.size > 0 ? `?${query.toString()}` : ''}`, {
    method,
    headers,
    body: request.body === undefined ? null : JSON.stringify(request.body),
  });
  return { status: response.status, body: await response.json() };
}

const big = () => sim.events.find((e) => e.id === BIG_EVENT_ID);
const visitorEvent = () =>
  sim.events.find((e) => e.hasVisitors && e.id !== BIG_EVENT_ID && e.personnelCount > 0);
const bigPeople = () => sim.seed.personnel.filter((p) => p.eventId === BIG_EVENT_ID && p.linked);
const withEvents = () => sim.seed.personnel.find((p) => p.attendance.length > 0);
const exhibitor = () => sim.seed.exhibitors.find((x) => x.eventIds.length > 1);

const CASES: ContractCase[] = [
  { operation: 'GET /external/credits/balance', status: 200, name: 'balance', request: () => ({}) },
  {
    operation: 'POST /external/actions/precheck',
    status: 200,
    name: 'event unlock precheck',
    request: () => ({
      body: {
        action_type: 'unlock_event_full_access',
        call_source: 'api',
        params: { event_id: BIG_EVENT_ID },
      },
    }),
  },
  {
    operation: 'POST /external/actions/precheck',
    status: 200,
    name: 'contact unlock precheck',
    request: () => ({
      body: {
        action_type: 'unlock_contact_emails',
        params: {
          personnel_ids: bigPeople()
            .map((p) => p.id)
            .slice(0, 3),
        },
      },
    }),
  },
  {
    operation: 'POST /external/actions/precheck',
    status: 200,
    name: 'unsupported action',
    request: () => ({ body: { action_type: 'teleport', params: {} } }),
  },
  {
    operation: 'POST /external/actions/precheck',
    status: 400,
    name: 'missing params',
    invalidRequest: true,
    request: () => ({ body: { action_type: 'unlock_event' } }),
  },
  {
    operation: 'GET /external/events/list',
    status: 200,
    name: 'filtered list',
    request: () => ({
      query: {
        keyword: 'o',
        country: 'United States',
        date_start_from: sim.today,
        has_visitors: '1',
        page: '1',
        pageSize: '5',
      },
    }),
  },
  {
    operation: 'GET /external/events/list',
    status: 200,
    name: 'no match',
    request: () => ({ query: { keyword: 'no-such-event-anywhere' } }),
  },
  {
    operation: 'GET /external/events/list',
    status: 400,
    name: 'bad date',
    invalidRequest: true,
    request: () => ({ query: { date_start_from: 'tomorrow' } }),
  },
  {
    operation: 'GET /external/events/{id}',
    status: 200,
    name: 'detail',
    request: () => ({ path: { id: big()?.eventId ?? '' } }),
  },
  {
    operation: 'GET /external/events/{id}',
    status: 404,
    name: 'unknown',
    request: () => ({ path: { id: '1' } }),
  },
  {
    operation: 'GET /external/events/{id}',
    status: 400,
    name: 'malformed id',
    request: () => ({ path: { id: 'not an id!' } }),
  },
  {
    operation: 'GET /external/events/brief',
    status: 200,
    name: 'brief',
    request: () => ({ query: { event_id: BIG_EVENT_ID } }),
  },
  {
    operation: 'GET /external/events/brief',
    status: 404,
    name: 'unknown',
    request: () => ({ query: { event_id: '1' } }),
  },
  {
    operation: 'GET /external/events/brief',
    status: 400,
    name: 'missing event_id',
    invalidRequest: true,
    request: () => ({}),
  },
  {
    operation: 'POST /external/events/fit-score',
    status: 200,
    name: 'score',
    request: () => ({ body: { event_id: BIG_EVENT_ID } }),
  },
  {
    operation: 'POST /external/events/fit-score',
    status: 400,
    name: 'missing event_id',
    invalidRequest: true,
    request: () => ({ body: {} }),
  },
  {
    operation: 'POST /external/events/fit-score',
    status: 404,
    name: 'unknown',
    request: () => ({ body: { event_id: '1' } }),
  },
  {
    operation: 'POST /external/events/rank',
    status: 201,
    name: 'rank',
    request: () => ({ body: { event_ids: sim.events.slice(0, 4).map((e) => e.eventId) } }),
  },
  {
    operation: 'POST /external/events/rank',
    status: 400,
    name: 'empty',
    request: () => ({ body: { event_ids: [] } }),
  },
  {
    operation: 'POST /external/events/rank',
    status: 404,
    name: 'unknown id',
    request: () => ({ body: { event_ids: ['1'] } }),
  },
  {
    operation: 'POST /external/events/{id}/visitors/unlock',
    status: 409,
    name: 'before base access',
    request: () => ({ path: { id: visitorEvent()?.id ?? '' } }),
  },
  {
    operation: 'POST /external/events/{id}/unlock',
    status: 201,
    name: 'first unlock',
    request: () => ({ path: { id: visitorEvent()?.id ?? '' } }),
  },
  {
    operation: 'POST /external/events/{id}/unlock',
    status: 201,
    name: 'already unlocked',
    request: () => ({ path: { id: visitorEvent()?.id ?? '' } }),
  },
  {
    operation: 'POST /external/events/{id}/unlock',
    status: 402,
    name: 'balance too low',
    request: () => ({ path: { id: BIG_EVENT_ID }, key: POOR }),
  },
  {
    operation: 'POST /external/events/{id}/unlock',
    status: 404,
    name: 'unknown',
    request: () => ({ path: { id: '1' } }),
  },
  {
    operation: 'POST /external/events/{id}/unlock',
    status: 409,
    name: 'no contacts',
    request: () => ({ path: { id: EMPTY_EVENT_ID } }),
  },
  {
    operation: 'POST /external/events/{id}/visitors/unlock',
    status: 201,
    name: 'after base access',
    request: () => ({ path: { id: visitorEvent()?.id ?? '' } }),
  },
  {
    operation: 'POST /external/events/{id}/visitors/unlock',
    status: 200,
    name: 'unsubscribed envelope',
    request: () => ({ path: { id: BIG_EVENT_ID }, key: UNSUBSCRIBED_API_KEY }),
  },
  {
    operation: 'POST /external/events/{id}/visitors/unlock',
    status: 404,
    name: 'unknown',
    request: () => ({ path: { id: '1' } }),
  },
  {
    operation: 'POST /external/events/{id}/full-access/unlock',
    status: 402,
    name: 'balance too low',
    request: () => ({ path: { id: BIG_EVENT_ID }, key: POOR }),
  },
  {
    operation: 'POST /external/events/{id}/full-access/unlock',
    status: 201,
    name: 'both layers',
    request: () => ({ path: { id: BIG_EVENT_ID } }),
  },
  {
    operation: 'POST /external/events/{id}/full-access/unlock',
    status: 200,
    name: 'unsubscribed envelope',
    request: () => ({ path: { id: BIG_EVENT_ID }, key: UNSUBSCRIBED_API_KEY }),
  },
  {
    operation: 'POST /external/events/{id}/full-access/unlock',
    status: 404,
    name: 'unknown',
    request: () => ({ path: { id: '1' } }),
  },
  {
    operation: 'GET /external/exhibitors/list',
    status: 200,
    name: 'preview page with nested personnel',
    request: () => ({
      query: { event_id: visitorEvent()?.eventId ?? '', personnelLimit: '2', category: ['SaaS', 'B2B'] },
    }),
  },
  {
    operation: 'GET /external/exhibitors/list',
    status: 200,
    name: 'full access page',
    request: () => ({ query: { event_id: BIG_EVENT_ID, page: '3', pageSize: '100' } }),
  },
  {
    operation: 'GET /external/exhibitors/list',
    status: 200,
    name: 'inaccessible preview page',
    request: () => ({ query: { event_id: BIG_EVENT_ID, page: '2' }, key: UNSUBSCRIBED_API_KEY }),
  },
  {
    operation: 'GET /external/exhibitors/list',
    status: 400,
    name: 'pageSize above 100',
    invalidRequest: true,
    request: () => ({ query: { event_id: BIG_EVENT_ID, pageSize: '101' } }),
  },
  {
    operation: 'GET /external/exhibitors/list',
    status: 404,
    name: 'unknown event',
    request: () => ({ query: { event_id: '1' } }),
  },
  {
    operation: 'POST /external/exhibitors/search',
    status: 201,
    name: 'by audience',
    request: () => ({ body: { target_audience: 'logistics and software teams', pageSize: 5 } }),
  },
  {
    operation: 'POST /external/exhibitors/search',
    status: 400,
    name: 'neither field',
    invalidRequest: true,
    request: () => ({ body: { page: 1 } }),
  },
  {
    operation: 'POST /external/exhibitors/search',
    status: 400,
    name: 'invalid URL',
    invalidRequest: true,
    request: () => ({ body: { company_url: 'not a url' } }),
  },
  {
    operation: 'POST /external/exhibitors/search-by-company-name',
    status: 201,
    name: 'match',
    request: () => ({ body: { company_name: 'Acme', pageSize: 5 } }),
  },
  {
    operation: 'POST /external/exhibitors/search-by-company-name',
    status: 201,
    name: 'no match',
    request: () => ({ body: { company_name: 'Nothing Like It' } }),
  },
  {
    operation: 'POST /external/exhibitors/search-by-company-name',
    status: 400,
    name: 'empty name',
    invalidRequest: true,
    request: () => ({ body: { company_name: '' } }),
  },
  {
    operation: 'POST /external/exhibitors/search-by-company-name',
    status: 402,
    name: 'balance too low',
    request: () => ({ body: { company_name: 'Acme' }, key: POOR }),
  },
  {
    operation: 'POST /external/exhibitors/search-events',
    status: 201,
    name: 'match',
    request: () => ({ body: { company_name: KNOWN_COMPANY_NAME, attendance_scope: 'exhibitor' } }),
  },
  {
    operation: 'POST /external/exhibitors/search-events',
    status: 201,
    name: 'no match',
    request: () => ({ body: { company_name: 'Nothing Like It', sponsor_match_starred: 1 } }),
  },
  {
    operation: 'POST /external/exhibitors/search-events',
    status: 400,
    name: 'missing name',
    invalidRequest: true,
    request: () => ({ body: {} }),
  },
  {
    operation: 'POST /external/exhibitors/search-events',
    status: 402,
    name: 'balance too low',
    request: () => ({ body: { company_name: KNOWN_COMPANY_NAME }, key: POOR }),
  },
  {
    operation: 'POST /external/exhibitors/search-events',
    status: 200,
    name: 'concurrency envelope',
    before: () =>
      sim.injectFault({ kind: 'concurrency-envelope', route: 'POST /external/exhibitors/search-events' }),
    request: () => ({ body: { company_name: KNOWN_COMPANY_NAME } }),
  },
  {
    operation: 'GET /external/exhibitors/profile',
    status: 200,
    name: 'profile',
    request: () => ({ query: { exhibitor_id: exhibitor()?.id ?? '' } }),
  },
  {
    operation: 'GET /external/exhibitors/profile',
    status: 400,
    name: 'non-numeric id',
    request: () => ({ query: { exhibitor_id: 'abc' } }),
  },
  {
    operation: 'GET /external/exhibitors/profile',
    status: 404,
    name: 'unknown',
    request: () => ({ query: { exhibitor_id: '1' } }),
  },
  {
    operation: 'GET /external/exhibitors/events',
    status: 200,
    name: 'events',
    request: () => ({ query: { exhibitor_id: exhibitor()?.id ?? '', attendance_scope: 'all' } }),
  },
  {
    operation: 'GET /external/exhibitors/events',
    status: 400,
    name: 'bad scope',
    invalidRequest: true,
    request: () => ({ query: { exhibitor_id: exhibitor()?.id ?? '', attendance_scope: 'everyone' } }),
  },
  {
    operation: 'GET /external/exhibitors/events',
    status: 404,
    name: 'unknown',
    request: () => ({ query: { exhibitor_id: '1' } }),
  },
  {
    operation: 'GET /external/personnel/list',
    status: 200,
    name: 'filtered preview',
    request: () => ({
      query: { event_id: visitorEvent()?.id ?? '', sourceType: 'exhibitor,visitors', pageSize: '20' },
    }),
  },
  {
    operation: 'GET /external/personnel/list',
    status: 200,
    name: 'full access',
    request: () => ({ query: { event_id: BIG_EVENT_ID, page: '5', department: 'sales' } }),
  },
  {
    operation: 'GET /external/personnel/list',
    status: 400,
    name: 'bad exhibitor_id',
    request: () => ({ query: { event_id: BIG_EVENT_ID, exhibitor_id: 'x1' } }),
  },
  {
    operation: 'GET /external/personnel/list',
    status: 404,
    name: 'unknown event',
    request: () => ({ query: { event_id: '1' } }),
  },
  {
    operation: 'GET /external/personnel/profile',
    status: 200,
    name: 'profile',
    request: () => ({ query: { personnel_id: bigPeople()[0]?.id ?? '' } }),
  },
  {
    operation: 'GET /external/personnel/profile',
    status: 400,
    name: 'non-numeric',
    request: () => ({ query: { personnel_id: 'abc' } }),
  },
  {
    operation: 'GET /external/personnel/profile',
    status: 404,
    name: 'unknown',
    request: () => ({ query: { personnel_id: '1' } }),
  },
  {
    operation: 'GET /external/personnel/events',
    status: 200,
    name: 'events',
    request: () => ({ query: { personnel_id: withEvents()?.id ?? '' } }),
  },
  {
    operation: 'GET /external/personnel/events',
    status: 400,
    name: 'non-numeric',
    request: () => ({ query: { personnel_id: 'abc' } }),
  },
  {
    operation: 'GET /external/personnel/events',
    status: 404,
    name: 'unknown',
    request: () => ({ query: { personnel_id: '1' } }),
  },
  {
    operation: 'GET /external/personnel/events/by-linkedin',
    status: 200,
    name: 'match',
    request: () => ({ query: { linkedin_url: withEvents()?.linkedinUrl ?? '' } }),
  },
  {
    operation: 'GET /external/personnel/events/by-linkedin',
    status: 404,
    name: 'no match',
    request: () => ({ query: { linkedin_url: 'https://www.linkedin.com/in/nobody' } }),
  },
  {
    operation: 'GET /external/personnel/events/by-linkedin',
    status: 400,
    name: 'missing url',
    invalidRequest: true,
    request: () => ({}),
  },
  {
    operation: 'GET /external/personnel/events/by-name',
    status: 200,
    name: 'match',
    request: () => ({ query: { person_name: KNOWN_PERSON_NAME, attendance_scope: 'all' } }),
  },
  {
    operation: 'GET /external/personnel/events/by-name',
    status: 403,
    name: 'unsubscribed',
    request: () => ({ query: { person_name: KNOWN_PERSON_NAME }, key: UNSUBSCRIBED_API_KEY }),
  },
  {
    operation: 'GET /external/personnel/events/by-name',
    status: 402,
    name: 'balance too low',
    request: () => ({ query: { person_name: KNOWN_PERSON_NAME }, key: POOR }),
  },
  {
    operation: 'GET /external/personnel/events/by-name',
    status: 400,
    name: 'missing name',
    invalidRequest: true,
    request: () => ({}),
  },
  {
    operation: 'GET /external/personnel/events/by-name',
    status: 200,
    name: 'concurrency envelope',
    before: () => sim.injectFault({ kind: 'concurrency-envelope' }),
    request: () => ({ query: { person_name: KNOWN_PERSON_NAME } }),
  },
  {
    operation: 'GET /external/personnel/events/by-name',
    status: 200,
    name: 'subscription envelope',
    before: () => sim.injectFault({ kind: 'subscription-envelope' }),
    request: () => ({ query: { person_name: KNOWN_PERSON_NAME } }),
  },
  {
    operation: 'POST /external/personnel/unlock-linkedin-activity',
    status: 201,
    name: 'start',
    request: () => ({ body: { personnel_ids: [bigPeople()[0]?.id ?? '', '1'] } }),
  },
  {
    operation: 'POST /external/personnel/unlock-linkedin-activity',
    status: 400,
    name: 'empty ids',
    invalidRequest: true,
    request: () => ({ body: { personnel_ids: [] } }),
  },
  {
    operation: 'POST /external/personnel/unlock-linkedin-activity',
    status: 422,
    name: 'too many ids',
    invalidRequest: true,
    request: () => ({ body: { personnel_ids: Array.from({ length: 2001 }, (_, i) => String(i + 1)) } }),
  },
  {
    operation: 'GET /external/contacts/search',
    status: 200,
    name: 'search',
    request: () => ({ query: { company_name: 'Acme', role: 'Sales' } }),
  },
  {
    operation: 'GET /external/contacts/search',
    status: 400,
    name: 'missing company',
    invalidRequest: true,
    request: () => ({}),
  },
  {
    operation: 'POST /external/contacts/unlock',
    status: 201,
    name: 'accepted',
    request: () => ({
      body: {
        personnel_ids: bigPeople()
          .map((p) => p.id)
          .slice(0, 5),
        event_id: BIG_EVENT_ID,
      },
    }),
  },
  {
    operation: 'POST /external/contacts/unlock',
    status: 201,
    name: 'nothing chargeable',
    request: () => ({
      body: { personnel_ids: ['abc', sim.seed.personnel.find((p) => !p.linked)?.id ?? ''] },
    }),
  },
  {
    operation: 'POST /external/contacts/unlock',
    status: 400,
    name: 'missing ids',
    invalidRequest: true,
    request: () => ({ body: {} }),
  },
  {
    operation: 'POST /external/contacts/unlock',
    status: 402,
    name: 'balance too low',
    request: () => ({
      body: {
        personnel_ids: bigPeople()
          .map((p) => p.id)
          .slice(10, 20),
      },
      key: POOR,
    }),
  },
  {
    operation: 'POST /external/contacts/unlock',
    status: 404,
    name: 'unknown event',
    request: () => ({ body: { personnel_ids: ['100001'], event_id: '1' } }),
  },
  {
    operation: 'POST /external/contacts/unlock',
    status: 422,
    name: 'too many ids',
    invalidRequest: true,
    request: () => ({ body: { personnel_ids: Array.from({ length: 2001 }, (_, i) => String(i + 1)) } }),
  },
  {
    operation: 'GET /external/contacts/unlock-tasks/{taskId}',
    status: 200,
    name: 'running task',
    request: () => ({ path: { taskId: shared.emailTaskId ?? '' } }),
  },
  {
    operation: 'GET /external/contacts/unlock-tasks/{taskId}',
    status: 200,
    name: 'completed task',
    before: () => sim.completeTasks(),
    request: () => ({ path: { taskId: shared.emailTaskId ?? '' } }),
  },
  {
    operation: 'GET /external/contacts/unlock-tasks/{taskId}',
    status: 404,
    name: 'unknown',
    request: () => ({ path: { taskId: '999999' } }),
  },
  {
    operation: 'POST /external/contacts/unlock-phone',
    status: 201,
    name: 'accepted',
    request: () => ({
      body: {
        personnel_ids: bigPeople()
          .map((p) => p.id)
          .slice(0, 3),
      },
    }),
  },
  {
    operation: 'POST /external/contacts/unlock-phone',
    status: 400,
    name: 'missing ids',
    invalidRequest: true,
    request: () => ({ body: { personnel_ids: 'x' } }),
  },
  {
    operation: 'POST /external/contacts/unlock-phone',
    status: 402,
    name: 'balance too low',
    request: () => ({
      body: {
        personnel_ids: bigPeople()
          .map((p) => p.id)
          .slice(0, 3),
      },
      key: POOR,
    }),
  },
  {
    operation: 'GET /external/contacts/unlock-phone-tasks/{taskId}',
    status: 200,
    name: 'task',
    request: () => ({ path: { taskId: shared.phoneTaskId ?? '' } }),
  },
  {
    operation: 'GET /external/contacts/unlock-phone-tasks/{taskId}',
    status: 404,
    name: 'an email task id',
    request: () => ({ path: { taskId: shared.emailTaskId ?? '' } }),
  },
  {
    operation: 'POST /external/profile-matching/actions/apply-recommended-events/paged',
    status: 201,
    name: 'recommendations',
    request: () => ({ body: { company_url: 'https://acme.example', country: 'Germany', pageSize: 5 } }),
  },
  {
    operation: 'POST /external/profile-matching/actions/apply-recommended-events/paged',
    status: 400,
    name: 'no profile context',
    invalidRequest: true,
    request: () => ({ body: { page: 1 } }),
  },
  {
    operation: 'GET /external/profile-matching/recommendations/exhibitors',
    status: 200,
    name: 'recommended',
    request: () => ({
      query: { event_id: BIG_EVENT_ID, employeesMin: '1', industry: ['Software', 'Retail'] },
    }),
  },
  {
    operation: 'GET /external/profile-matching/recommendations/exhibitors',
    status: 400,
    name: 'min above max',
    request: () => ({ query: { event_id: BIG_EVENT_ID, employeesMin: '50', employeesMax: '10' } }),
  },
  {
    operation: 'GET /external/profile-matching/recommendations/exhibitors',
    status: 404,
    name: 'unknown event',
    request: () => ({ query: { event_id: '1' } }),
  },
  {
    operation: 'POST /external/personnel/generate-outreach-message',
    status: 201,
    name: 'generate',
    request: () => ({
      body: {
        personnel_ids: [bigPeople()[0]?.id ?? ''],
        event_id: BIG_EVENT_ID,
        channels: ['email', 'linkedin_message'],
      },
    }),
  },
  {
    operation: 'POST /external/personnel/generate-outreach-message',
    status: 400,
    name: 'bad channel',
    invalidRequest: true,
    request: () => ({ body: { personnel_ids: ['100001'], channels: ['fax'] } }),
  },
  {
    operation: 'GET /external/personnel/outreach',
    status: 200,
    name: 'generated',
    request: () => ({ query: { personnel_id: bigPeople()[0]?.id ?? '', event_id: BIG_EVENT_ID } }),
  },
  {
    operation: 'GET /external/personnel/outreach',
    status: 200,
    name: 'not generated',
    request: () => ({ query: { personnel_id: '100002', event_id: BIG_EVENT_ID } }),
  },
  {
    operation: 'GET /external/personnel/outreach',
    status: 400,
    name: 'missing event_id',
    invalidRequest: true,
    request: () => ({ query: { personnel_id: '100002' } }),
  },
  {
    operation: 'GET /external/agent-files/list',
    status: 200,
    name: 'files',
    request: () => ({ query: { pageSize: '3' } }),
  },
  {
    operation: 'GET /external/exhibitors/list',
    status: 200,
    name: 'personnel filters with nested personnel',
    request: () => ({
      query: {
        event_id: BIG_EVENT_ID,
        jobTitle: ['Head of', 'Director of'],
        managementLevel: ['VP', 'Director'],
        department: ['Marketing', 'Sales'],
        personnelLimit: '3',
      },
    }),
  },
  {
    operation: 'GET /external/exhibitors/events',
    status: 200,
    name: 'exhibitor scope, second page',
    request: () => ({
      query: { exhibitor_id: exhibitor()?.id ?? '', attendance_scope: 'exhibitor', page: '2', pageSize: '1' },
    }),
  },
  {
    operation: 'GET /external/contacts/search',
    status: 200,
    name: 'every filter',
    request: () => ({
      query: { company_name: 'Acme', role: 'VP', person_name: 'a', page: '1', pageSize: '5' },
    }),
  },
  {
    operation: 'POST /external/personnel/unlock-linkedin-activity',
    status: 201,
    name: 'in an event, one person outside it',
    request: () => ({
      body: {
        personnel_ids: [
          bigPeople()[1]?.id ?? '',
          sim.seed.personnel.find((p) => p.attendance.length === 0)?.id ?? '',
        ],
        event_id: BIG_EVENT_ID,
      },
    }),
  },
  {
    operation: 'POST /external/personnel/unlock-linkedin-activity',
    status: 404,
    name: 'unknown event',
    request: () => ({ body: { personnel_ids: ['100001'], event_id: '1' } }),
  },
  {
    operation: 'POST /external/personnel/generate-outreach-message',
    status: 201,
    name: 'every member, LinkedIn variants',
    request: () => ({
      body: {
        personnel_ids: [bigPeople()[2]?.id ?? '', '1'],
        event_id: BIG_EVENT_ID,
        channels: ['email', 'linkedin_message'],
        linkedin_message_types: ['inmail', 'connection_note', 'connected_message'],
        outreach_purpose: 'Book a product demo',
      },
    }),
  },
  {
    operation: 'GET /external/personnel/outreach',
    status: 200,
    name: 'still being written',
    request: () => ({ query: { personnel_id: bigPeople()[2]?.id ?? '', event_id: BIG_EVENT_ID } }),
  },
  {
    operation: 'GET /external/personnel/outreach',
    status: 200,
    name: 'ready, with LinkedIn variants',
    before: () => sim.completeTasks(),
    request: () => ({ query: { personnel_id: bigPeople()[2]?.id ?? '', event_id: BIG_EVENT_ID } }),
  },
  {
    operation: 'POST /external/personnel/generate-outreach-message',
    status: 400,
    name: 'public eventId instead of the internal id',
    request: () => ({
      body: {
        personnel_ids: [bigPeople()[2]?.id ?? ''],
        event_id: big()?.eventId ?? '',
        channels: ['email'],
      },
    }),
  },
  {
    operation: 'POST /external/profile-matching/actions/apply-recommended-events/paged',
    status: 201,
    name: 'every filter',
    request: () => ({
      body: {
        target_audience: 'Retail operations leaders',
        linkedin_url: 'https://www.linkedin.com/in/jane-doe',
        page: 1,
        pageSize: 10,
        autoRecommendTop3EventsEnabled: false,
        city: 'Las Vegas',
        region: 'Nevada',
        country: 'United States',
        category: ['Consumer'],
        eventTypeIds: [1],
        dateStartFrom: sim.today,
        future: 1,
        attendeeCountMin: 1000,
        attendeeCountMax: 500000,
        company_description: 'Retail analytics',
        industry: 'Retail Technology',
        target_industry: ['Retail'],
        planned_events: 'NRF',
        target_management_level: ['VP'],
        target_job_titles: ['marketing'],
        timeout_ms: 60000,
      },
    }),
  },
  {
    operation: 'POST /external/profile-matching/actions/apply-recommended-events/paged',
    status: 400,
    name: 'attendee minimum above maximum',
    request: () => ({ body: { target_audience: 'x', attendeeCountMin: 10, attendeeCountMax: 5 } }),
  },
  { operation: '(unknown route)', status: 404, name: 'unknown path', request: () => ({}) },
];

beforeAll(async () => {
  sim = await startSimulator();
  sim.addKey(KEY, { balance: 1_000_000 });
  sim.addKey(POOR, { balance: 10 });
});

afterAll(async () => {
  await sim.close();
});

/** Each case beside its test title: operation, status, case name, and the spec exception it relies on. */
const TITLED_CASES = CASES.map((c): [title: string, contractCase: ContractCase] => {
  const exception = exceptionFor(c.operation, c.status);
  return [
    `${c.operation} answers ${c.status} (${c.name})${exception ? ` [spec exception: ${exception.reason}]` : ''}`,
    c,
  ];
});

describe('simulator responses match the OpenAPI schemas', () => {
  // Cases run in table order: later ones read task ids and unlocks that earlier ones made.
  it.each(TITLED_CASES)('%s', async (title, contractCase) => {
    // Prepare
    await contractCase.before?.();
    const request = contractCase.request();
    if (!contractCase.invalidRequest) validateRequest(contractCase.operation, request);

    // Act
    const reply = await send(contractCase.operation, request);

    // Assess
    expect(reply.status, JSON.stringify(reply.body).slice(0, 300)).toBe(contractCase.status);
    expectValid(ajv, responseSchema(contractCase.operation, reply.status), reply.body, title);
    if (reply.status >= 400)
      expect(Object.keys(asObject(reply.body, 'error')).sort()).toEqual([
        'code',
        'errorKey',
        'message',
        'traceId',
      ]);
    const taskId = asObject(reply.body, 'body').task_id;
    if (typeof taskId === 'string' && contractCase.operation === 'POST /external/contacts/unlock')
      shared.emailTaskId = taskId;
    if (typeof taskId === 'string' && contractCase.operation === 'POST /external/contacts/unlock-phone')
      shared.phoneTaskId = taskId;
  });

  it('answers 409 ApiErrors to overlapping unlocks of one event by one key', async () => {
    // Prepare
    const key = 'sk_contract_overlap';
    sim.addKey(key);
    sim.setLatency(80);
    const event = sim.events.find((e) => e.personnelCount > 0 && e.id !== BIG_EVENT_ID);

    // Act
    const replies = await Promise.all([
      send('POST /external/events/{id}/unlock', { path: { id: event?.id ?? '' }, key }),
      send('POST /external/events/{id}/unlock', { path: { id: event?.id ?? '' }, key }),
    ]);
    sim.setLatency(0);

    // Assess
    const conflict = replies.find((r) => r.status === 409);
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409]);
    expectValid(ajv, responseSchema('POST /external/events/{id}/unlock', 409), conflict?.body, 'unlock 409');
  });

  it('answers 409 ApiErrors to overlapping company-name searches [spec exception]', async () => {
    // Prepare
    sim.setLatency(80);
    const body = { company_name: KNOWN_COMPANY_NAME };

    // Act
    const replies = await Promise.all([
      send('POST /external/exhibitors/search-by-company-name', { body }),
      send('POST /external/exhibitors/search-by-company-name', { body }),
    ]);
    sim.setLatency(0);

    // Assess
    const conflict = replies.find((r) => r.status === 409);
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409]);
    expectValid(
      ajv,
      responseSchema('POST /external/exhibitors/search-by-company-name', 409),
      conflict?.body,
      '409',
    );
  });

  it.each(allOperations())('%s answers 401 and 429 with documented ApiErrors', async (operation) => {
    // Prepare
    const request: Request = { path: { id: BIG_EVENT_ID, taskId: '1' }, key: null };

    // Act
    const unauthorized = await send(operation, request);
    sim.injectFault({ kind: 'status', status: 429, route: operation });
    const limited = await send(operation, { ...request, key: KEY });

    // Assess
    expect([unauthorized.status, limited.status]).toEqual([401, 429]);
    expectValid(ajv, responseSchema(operation, 401), unauthorized.body, `${operation} 401`);
    expectValid(ajv, responseSchema(operation, 429), limited.body, `${operation} 429`);
  });

  it('has a success case and an error case for every OpenAPI operation and the agent files list', () => {
    // Prepare
    const operations = [...allOperations(), 'GET /external/agent-files/list'];

    // Act
    const missing = operations.filter(
      (op) =>
        !CASES.some((c) => c.operation === op && c.status < 300) ||
        (op !== 'GET /external/agent-files/list' &&
          op !== 'GET /external/credits/balance' &&
          !CASES.some((c) => c.operation === op && c.status >= 400)),
    );

    // Assess
    expect(missing).toEqual([]);
  });

  it('names every spec exception it relies on', () => {
    // Assess
    expect(SPEC_EXCEPTIONS.map((e) => e.operation)).toEqual(
      expect.arrayContaining(['POST /external/events/fit-score', 'GET /external/agent-files/list']),
    );
    for (const exception of SPEC_EXCEPTIONS) expect(exception.reason.length).toBeGreaterThan(20);
  });
});
