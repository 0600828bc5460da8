import type * as z from 'zod';
import { ExhibitorIdInput, EventIdInput, PageInput, TaskIdInput } from './input.ts';
import { type Charging, FREE, isCharging, type ListPrice, listPriceOf, priced } from './charging.ts';
import {
  CompanyNameSearchInputSchema,
  ContactSearchInputSchema,
  ContextSearchInputSchema,
  EventListQuerySchema,
  EventsByLinkedinInputSchema,
  EventsByNameInputSchema,
  EventSearchInputSchema,
  ExhibitorEventsQuerySchema,
  ExhibitorListQuerySchema,
  LinkedinActivityInputSchema,
  NoInput,
  OutreachDetailInputSchema,
  OutreachGenerationInputSchema,
  PersonEventsInputSchema,
  PersonnelListQuerySchema,
  PersonnelProfileInputSchema,
  PrecheckInputSchema,
  RankInputSchema,
  RecommendedEventsInputSchema,
  RecommendedExhibitorsQuerySchema,
  UnlockContactsInputSchema,
} from './requests.ts';
import {
  AgentFilePageSchema,
  ContactPageSchema,
  ContactUnlockSubmissionSchema,
  CreditBalanceSchema,
  EmailUnlockTaskSchema,
  EventBriefSchema,
  EventDetailResponseSchema,
  EventPageSchema,
  EventRankSchema,
  EventSearchPageSchema,
  EventUnlockResultSchema,
  ExhibitorListPageSchema,
  ExhibitorPageSchema,
  ExhibitorProfileSchema,
  FitScoreSchema,
  FullAccessUnlockResultSchema,
  LinkedinActivityUnlockSchema,
  LinkedinEventsSchema,
  OutreachDetailSchema,
  OutreachGenerationSchema,
  PersonnelListPageSchema,
  PersonnelProfileSchema,
  PhoneUnlockTaskSchema,
  PrecheckResponseSchema,
  RecommendedEventPageSchema,
  RecommendedExhibitorPageSchema,
  RelatedEventPageSchema,
  VisitorUnlockResultSchema,
} from './schemas.ts';

/*
 * The operation table: one row per operation of the vendor OpenAPI 0.27.0 (client method, HTTP method and
 * path, request and response schemas, what it can cost), and the client is built from it (`call.ts`).
 * The one place that says whether a call is free, how it is priced (src/platform/prices.ts; the service's
 * precheck has the last word) and so whether it may be retried once sent.
 */

/** `METHOD /path` exactly as the OpenAPI writes it. */
export type OperationKey = `${'GET' | 'POST'} /external/${string}`;

/**
 * One operation: what the client needs to call it. `clientMethod` is its method on `EisClient` and the
 * name its errors and logs carry.
 */
export interface CallRow<
  M extends string = string,
  I extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  K extends OperationKey = OperationKey,
> {
  clientMethod: M;
  operation: K;
  charging: Charging;
  /** The schema the input is checked with before any HTTP call. */
  request: I;
  /** The schema the client parses the 2xx answer with. */
  response: R;
}

/** A row of the OpenAPI: a call row with the OpenAPI's operationId. */
export interface EisOperation<
  M extends string = string,
  I extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  K extends OperationKey = OperationKey,
> extends CallRow<M, I, R, K> {
  operationId: string;
}

const SEARCH_NOTE = 'charged again for every page requested, each time that page is non-empty';
const CONTACT_NOTE = 'already unlocked, unlocking, unlinked and unknown contacts are skipped, not charged';

/** Every OpenAPI 0.27.0 operation, in the document's order. */
export const EIS_OPERATIONS = [
  op(
    'GET /external/credits/balance',
    'getExternalCreditsBalance',
    'credits.balance',
    FREE,
    NoInput,
    CreditBalanceSchema,
  ),
  op(
    'POST /external/actions/precheck',
    'precheckExternalAction',
    'actions.precheck',
    FREE,
    PrecheckInputSchema,
    PrecheckResponseSchema,
  ),
  op('GET /external/events/list', 'listEvents', 'events.list', FREE, EventListQuerySchema, EventPageSchema),
  op(
    'GET /external/events/{id}',
    'getEventDetail',
    'events.detail',
    FREE,
    EventIdInput,
    EventDetailResponseSchema,
  ),
  op('GET /external/events/brief', 'getEventBrief', 'events.brief', FREE, EventIdInput, EventBriefSchema),
  op(
    'POST /external/events/fit-score',
    'scoreEventFit',
    'events.fitScore',
    FREE,
    EventIdInput,
    FitScoreSchema,
  ),
  op('POST /external/events/rank', 'rankEvents', 'events.rank', FREE, RankInputSchema, EventRankSchema),
  op(
    'POST /external/events/{id}/unlock',
    'unlockEvent',
    'events.unlock',
    priced(
      'event-unlock',
      'typical price (the spec: "examples show 2000"); free when already unlocked; the precheck quotes it',
    ),
    EventIdInput,
    EventUnlockResultSchema,
  ),
  op(
    'POST /external/events/{id}/visitors/unlock',
    'unlockEventVisitors',
    'events.unlockVisitors',
    priced(
      'visitors-unlock',
      'after base access, with a subscription and visitor data; repeated unlocks are free',
    ),
    EventIdInput,
    VisitorUnlockResultSchema,
  ),
  op(
    'POST /external/events/{id}/full-access/unlock',
    'unlockEventFullAccess',
    'events.unlockFullAccess',
    priced('full-access-unlock', 'the missing layers only: base access plus visitors'),
    EventIdInput,
    FullAccessUnlockResultSchema,
  ),
  op(
    'GET /external/exhibitors/list',
    'listExhibitors',
    'exhibitors.list',
    FREE,
    ExhibitorListQuerySchema,
    ExhibitorListPageSchema,
  ),
  op(
    'POST /external/exhibitors/search',
    'searchExhibitors',
    'exhibitors.searchByContext',
    FREE,
    ContextSearchInputSchema,
    ExhibitorPageSchema,
  ),
  op(
    'POST /external/exhibitors/search-by-company-name',
    'searchExhibitorsByCompanyName',
    'exhibitors.searchByCompanyName',
    priced('exhibitor-search', SEARCH_NOTE),
    CompanyNameSearchInputSchema,
    ExhibitorPageSchema,
  ),
  op(
    'POST /external/exhibitors/search-events',
    'searchEventsByExhibitorCompanyName',
    'exhibitors.searchEvents',
    priced('exhibitor-events', SEARCH_NOTE),
    EventSearchInputSchema,
    EventSearchPageSchema,
  ),
  op(
    'GET /external/exhibitors/profile',
    'getExhibitorProfile',
    'exhibitors.profile',
    FREE,
    ExhibitorIdInput,
    ExhibitorProfileSchema,
  ),
  op(
    'GET /external/exhibitors/events',
    'listExhibitorEvents',
    'exhibitors.events',
    FREE,
    ExhibitorEventsQuerySchema,
    RelatedEventPageSchema,
  ),
  op(
    'GET /external/personnel/list',
    'listPersonnel',
    'personnel.list',
    FREE,
    PersonnelListQuerySchema,
    PersonnelListPageSchema,
  ),
  op(
    'GET /external/personnel/profile',
    'getPersonnelProfile',
    'personnel.profile',
    FREE,
    PersonnelProfileInputSchema,
    PersonnelProfileSchema,
  ),
  op(
    'GET /external/personnel/events',
    'listPersonnelEvents',
    'personnel.events',
    FREE,
    PersonEventsInputSchema,
    RelatedEventPageSchema,
  ),
  op(
    'GET /external/personnel/events/by-linkedin',
    'listPersonnelEventsByLinkedin',
    'personnel.eventsByLinkedin',
    FREE,
    EventsByLinkedinInputSchema,
    LinkedinEventsSchema,
  ),
  op(
    'GET /external/personnel/events/by-name',
    'searchPersonnelEventsByName',
    'personnel.eventsByName',
    priced('people-by-name', `active paid users only; ${SEARCH_NOTE}`),
    EventsByNameInputSchema,
    RelatedEventPageSchema,
  ),
  op(
    'POST /external/personnel/unlock-linkedin-activity',
    'unlockLinkedinActivity',
    'personnel.unlockLinkedinActivity',
    priced(
      'linkedin-activity',
      'the credits page says only "no email-unlock charge"; the OpenAPI lists no 402 and no precheck code',
    ),
    LinkedinActivityInputSchema,
    LinkedinActivityUnlockSchema,
  ),
  op(
    'GET /external/contacts/search',
    'searchContacts',
    'contacts.search',
    FREE,
    ContactSearchInputSchema,
    ContactPageSchema,
  ),
  op(
    'POST /external/contacts/unlock',
    'unlockContactEmails',
    'contacts.unlockEmails',
    priced('email-unlock', CONTACT_NOTE),
    UnlockContactsInputSchema,
    ContactUnlockSubmissionSchema,
  ),
  op(
    'GET /external/contacts/unlock-tasks/{taskId}',
    'getContactUnlockTask',
    'contacts.emailTask',
    FREE,
    TaskIdInput,
    EmailUnlockTaskSchema,
  ),
  op(
    'POST /external/profile-matching/actions/apply-recommended-events/paged',
    'applyRecommendedEventsPaged',
    'recommendations.events',
    { kind: 'free', note: 'the OpenAPI: "does not spend credits or unlock event access"' },
    RecommendedEventsInputSchema,
    RecommendedEventPageSchema,
  ),
  op(
    'GET /external/profile-matching/recommendations/exhibitors',
    'getRecommendedExhibitors',
    'recommendations.exhibitors',
    FREE,
    RecommendedExhibitorsQuerySchema,
    RecommendedExhibitorPageSchema,
  ),
  op(
    'POST /external/contacts/unlock-phone',
    'unlockContactPhones',
    'contacts.unlockPhones',
    priced('phone-unlock', CONTACT_NOTE),
    UnlockContactsInputSchema,
    ContactUnlockSubmissionSchema,
  ),
  op(
    'GET /external/contacts/unlock-phone-tasks/{taskId}',
    'getPhoneUnlockTask',
    'contacts.phoneTask',
    FREE,
    TaskIdInput,
    PhoneUnlockTaskSchema,
  ),
  op(
    'POST /external/personnel/generate-outreach-message',
    'generateOutreachMessage',
    'outreach.generate',
    { kind: 'free', note: 'the OpenAPI: "does not deduct credits"; drafts only, nothing is sent' },
    OutreachGenerationInputSchema,
    OutreachGenerationSchema,
  ),
  op(
    'GET /external/personnel/outreach',
    'getOutreachDetail',
    'outreach.detail',
    FREE,
    OutreachDetailInputSchema,
    OutreachDetailSchema,
  ),
] as const;

/** OpenAPI operations the client deliberately does not call, with the reason. None today. */
export const EIS_OPERATIONS_NOT_IN_CLIENT: readonly { operation: OperationKey; reason: string }[] = [];

/** Client methods for routes outside the OpenAPI: their rows, with the reason they exist. */
export const EIS_METHODS_OUTSIDE_OPENAPI = [
  {
    clientMethod: 'agentFiles.list',
    operation: 'GET /external/agent-files/list',
    charging: { kind: 'free', note: 'the spec lists it as read-only' },
    request: PageInput,
    response: AgentFilePageSchema,
    reason:
      'GET /external/agent-files/list is in the spec but excluded from the OpenAPI as "not customer-facing"',
  },
] as const satisfies readonly (CallRow & { reason: string })[];

type Row = (typeof EIS_OPERATIONS)[number] | (typeof EIS_METHODS_OUTSIDE_OPENAPI)[number];

/** A client method by its path on `EisClient`, e.g. `'events.brief'`. */
export type ClientMethod = Row['clientMethod'];

const ROWS: ReadonlyMap<string, Row> = new Map(
  [...EIS_OPERATIONS, ...EIS_METHODS_OUTSIDE_OPENAPI].map((row) => [row.clientMethod, row]),
);

/** The row a client method is built from. */
export function rowOf<M extends ClientMethod>(clientMethod: M): Extract<Row, { clientMethod: M }> {
  return ROWS.get(clientMethod) as Extract<Row, { clientMethod: M }>;
}

function op<const K extends OperationKey, const M extends string, I extends z.ZodType, R extends z.ZodType>(
  operation: K,
  operationId: string,
  clientMethod: M,
  charging: Charging,
  request: I,
  response: R,
): EisOperation<M, I, R, K> {
  return { operation, operationId, clientMethod, charging, request, response };
}

/** The operation a client method calls; undefined for methods outside the OpenAPI. */
export function operationOf(clientMethod: ClientMethod): EisOperation | undefined {
  return EIS_OPERATIONS.find((entry) => entry.clientMethod === clientMethod);
}

/** What a client method can cost (`free` for the agent-files list, which the spec lists as read-only). */
export function chargingOf(clientMethod: ClientMethod): Charging {
  return rowOf(clientMethod).charging;
}

/**
 * The documented price of one call, for a confirmation card when the precheck cannot be had (or has no
 * action code). `contacts` counts the people of a per-contact unlock.
 */
export const listPrice = (clientMethod: ClientMethod, contacts = 1): ListPrice =>
  listPriceOf(chargingOf(clientMethod), contacts);

/** Whether a call can spend credits at all (anything but `free`): such calls go through a confirmation. */
export const canCharge = (clientMethod: ClientMethod): boolean => isCharging(chargingOf(clientMethod));
