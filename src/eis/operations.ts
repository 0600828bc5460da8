import type * as z from 'zod';
import type { ActionsApi } from './actions.ts';
import { PRICES, type PricedKind } from '../platform/prices.ts';
import type { AgentFilesApi } from './agent-files.ts';
import type { ContactsApi } from './contacts.ts';
import type { CreditsApi } from './credits.ts';
import type { EventsApi } from './events.ts';
import type { ExhibitorsApi } from './exhibitors.ts';
import type { OutreachApi } from './outreach.ts';
import type { PersonnelApi } from './personnel.ts';
import type { RecommendationsApi } from './recommendations.ts';
import {
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
 * Every operation of the vendor OpenAPI 0.27.0, the client method that calls it, and what calling it can
 * cost: the one place the bot asks "is this free, and if not, how much and how do I quote it?". Prices and
 * precheck codes are the one price table (src/platform/prices.ts); the service's precheck has the last
 * word where an action code exists.
 */

interface ClientApis {
  credits: CreditsApi;
  actions: ActionsApi;
  events: EventsApi;
  exhibitors: ExhibitorsApi;
  personnel: PersonnelApi;
  contacts: ContactsApi;
  outreach: OutreachApi;
  recommendations: RecommendationsApi;
  agentFiles: AgentFilesApi;
}

type MethodNames<T> = { [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T] &
  string;

/** A client method by its path on `EisClient`, e.g. `'events.brief'`. */
export type ClientMethod = {
  [A in keyof ClientApis]: `${A}.${MethodNames<ClientApis[A]>}`;
}[keyof ClientApis];

/** `METHOD /path` exactly as the OpenAPI writes it. */
export type OperationKey = `${'GET' | 'POST'} /external/${string}`;

/** What calling an operation can cost. `precheck` is the action code to ask first, where there is one. */
export type Charging =
  /** Never spends credits. */
  | { kind: 'free'; note?: string }
  /** A fixed price for the first success; repeating it once done is free. */
  | { kind: 'flat'; credits: number; precheck: string; note: string }
  /** Anywhere from `min` to `max`, depending on what is still locked: quote the precheck's figure. */
  | { kind: 'range'; min: number; max: number; precheck: string; note: string }
  /** `credits` per chargeable contact: "up to", since contacts already unlocked or skipped cost nothing. */
  | { kind: 'per-contact'; credits: number; precheck: string; note: string }
  /** `credits` when the answer is non-empty, nothing when empty: "up to". Every page asked for is a new search. */
  | { kind: 'on-match'; credits: number; precheck: string; note: string }
  /** May spend credits, but neither the spec nor the vendor gives a price or an action code. */
  | { kind: 'undocumented'; note: string };

export interface EisOperation {
  operation: OperationKey;
  operationId: string;
  clientMethod: ClientMethod;
  charging: Charging;
  /** The schema the client parses the 2xx answer with. */
  response: z.ZodType;
}

const FREE: Charging = { kind: 'free' };
const SEARCH_NOTE = 'charged again for every page requested, each time that page is non-empty';
const CONTACT_NOTE = 'already unlocked, unlocking, unlinked and unknown contacts are skipped, not charged';

/** How a kind of charge is charged, from the one price table (src/platform/prices.ts). */
function priced(kind: PricedKind, note: string): Charging {
  const { credits, basis, precheck } = PRICES[kind];
  if (credits === null || precheck === null) return { kind: 'undocumented', note };
  switch (basis) {
    case 'fixed':
      return { kind: 'flat', credits, precheck, note };
    case 'missing-layers':
      return { kind: 'range', min: 0, max: credits, precheck, note };
    case 'per-contact':
      return { kind: 'per-contact', credits, precheck, note };
    case 'if-found':
      return { kind: 'on-match', credits, precheck, note };
  }
}

/** Every OpenAPI 0.27.0 operation, in the document's order. */
export const EIS_OPERATIONS: readonly EisOperation[] = [
  op(
    'GET /external/credits/balance',
    'getExternalCreditsBalance',
    'credits.balance',
    FREE,
    CreditBalanceSchema,
  ),
  op(
    'POST /external/actions/precheck',
    'precheckExternalAction',
    'actions.precheck',
    FREE,
    PrecheckResponseSchema,
  ),
  op('GET /external/events/list', 'listEvents', 'events.list', FREE, EventPageSchema),
  op('GET /external/events/{id}', 'getEventDetail', 'events.detail', FREE, EventDetailResponseSchema),
  op('GET /external/events/brief', 'getEventBrief', 'events.brief', FREE, EventBriefSchema),
  op('POST /external/events/fit-score', 'scoreEventFit', 'events.fitScore', FREE, FitScoreSchema),
  op('POST /external/events/rank', 'rankEvents', 'events.rank', FREE, EventRankSchema),
  op(
    'POST /external/events/{id}/unlock',
    'unlockEvent',
    'events.unlock',
    priced(
      'event-unlock',
      'typical price (the spec: "examples show 2000"); free when already unlocked; the precheck quotes it',
    ),
    EventUnlockResultSchema,
  ),
  op(
    'POST /external/events/{id}/visitors/unlock',
    'unlockEventVisitors',
    'events.unlockVisitors',
    priced('visitors-unlock', 'after base access, with a subscription and visitor data; repeated unlocks are free'),
    VisitorUnlockResultSchema,
  ),
  op(
    'POST /external/events/{id}/full-access/unlock',
    'unlockEventFullAccess',
    'events.unlockFullAccess',
    priced('full-access-unlock', 'the missing layers only: base access plus visitors'),
    FullAccessUnlockResultSchema,
  ),
  op('GET /external/exhibitors/list', 'listExhibitors', 'exhibitors.list', FREE, ExhibitorListPageSchema),
  op(
    'POST /external/exhibitors/search',
    'searchExhibitors',
    'exhibitors.searchByContext',
    FREE,
    ExhibitorPageSchema,
  ),
  op(
    'POST /external/exhibitors/search-by-company-name',
    'searchExhibitorsByCompanyName',
    'exhibitors.searchByCompanyName',
    priced('exhibitor-search', SEARCH_NOTE),
    ExhibitorPageSchema,
  ),
  op(
    'POST /external/exhibitors/search-events',
    'searchEventsByExhibitorCompanyName',
    'exhibitors.searchEvents',
    priced('exhibitor-events', SEARCH_NOTE),
    EventSearchPageSchema,
  ),
  op(
    'GET /external/exhibitors/profile',
    'getExhibitorProfile',
    'exhibitors.profile',
    FREE,
    ExhibitorProfileSchema,
  ),
  op(
    'GET /external/exhibitors/events',
    'listExhibitorEvents',
    'exhibitors.events',
    FREE,
    RelatedEventPageSchema,
  ),
  op('GET /external/personnel/list', 'listPersonnel', 'personnel.list', FREE, PersonnelListPageSchema),
  op(
    'GET /external/personnel/profile',
    'getPersonnelProfile',
    'personnel.profile',
    FREE,
    PersonnelProfileSchema,
  ),
  op(
    'GET /external/personnel/events',
    'listPersonnelEvents',
    'personnel.events',
    FREE,
    RelatedEventPageSchema,
  ),
  op(
    'GET /external/personnel/events/by-linkedin',
    'listPersonnelEventsByLinkedin',
    'personnel.eventsByLinkedin',
    FREE,
    LinkedinEventsSchema,
  ),
  op(
    'GET /external/personnel/events/by-name',
    'searchPersonnelEventsByName',
    'personnel.eventsByName',
    priced('people-by-name', `active paid users only; ${SEARCH_NOTE}`),
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
    LinkedinActivityUnlockSchema,
  ),
  op('GET /external/contacts/search', 'searchContacts', 'contacts.search', FREE, ContactPageSchema),
  op(
    'POST /external/contacts/unlock',
    'unlockContactEmails',
    'contacts.unlockEmails',
    priced('email-unlock', CONTACT_NOTE),
    ContactUnlockSubmissionSchema,
  ),
  op(
    'GET /external/contacts/unlock-tasks/{taskId}',
    'getContactUnlockTask',
    'contacts.emailTask',
    FREE,
    EmailUnlockTaskSchema,
  ),
  op(
    'POST /external/profile-matching/actions/apply-recommended-events/paged',
    'applyRecommendedEventsPaged',
    'recommendations.events',
    { kind: 'free', note: 'the OpenAPI: "does not spend credits or unlock event access"' },
    RecommendedEventPageSchema,
  ),
  op(
    'GET /external/profile-matching/recommendations/exhibitors',
    'getRecommendedExhibitors',
    'recommendations.exhibitors',
    FREE,
    RecommendedExhibitorPageSchema,
  ),
  op(
    'POST /external/contacts/unlock-phone',
    'unlockContactPhones',
    'contacts.unlockPhones',
    priced('phone-unlock', CONTACT_NOTE),
    ContactUnlockSubmissionSchema,
  ),
  op(
    'GET /external/contacts/unlock-phone-tasks/{taskId}',
    'getPhoneUnlockTask',
    'contacts.phoneTask',
    FREE,
    PhoneUnlockTaskSchema,
  ),
  op(
    'POST /external/personnel/generate-outreach-message',
    'generateOutreachMessage',
    'outreach.generate',
    { kind: 'free', note: 'the OpenAPI: "does not deduct credits"; drafts only, nothing is sent' },
    OutreachGenerationSchema,
  ),
  op('GET /external/personnel/outreach', 'getOutreachDetail', 'outreach.detail', FREE, OutreachDetailSchema),
];

/** OpenAPI operations the client deliberately does not call, with the reason. None today. */
export const EIS_OPERATIONS_NOT_IN_CLIENT: readonly { operation: OperationKey; reason: string }[] = [];

/** Client methods for routes outside the OpenAPI, with the reason they exist. */
export const EIS_METHODS_OUTSIDE_OPENAPI: readonly { clientMethod: ClientMethod; reason: string }[] = [
  {
    clientMethod: 'agentFiles.list',
    reason:
      'GET /external/agent-files/list is in the spec but excluded from the OpenAPI as "not customer-facing"',
  },
];

function op(
  operation: OperationKey,
  operationId: string,
  clientMethod: ClientMethod,
  charging: Charging,
  response: z.ZodType,
): EisOperation {
  return { operation, operationId, clientMethod, charging, response };
}

/** The operation a client method calls; undefined for methods outside the OpenAPI. */
export function operationOf(clientMethod: ClientMethod): EisOperation | undefined {
  return EIS_OPERATIONS.find((entry) => entry.clientMethod === clientMethod);
}

/** What a client method can cost (`free` for the agent-files list, which the spec lists as read-only). */
export function chargingOf(clientMethod: ClientMethod): Charging {
  return operationOf(clientMethod)?.charging ?? FREE;
}

export interface ListPrice {
  /** Credits at most; null when no price is documented. */
  credits: number | null;
  /** The real charge may be lower (a search that finds nothing, contacts already unlocked, layers owned). */
  upTo: boolean;
  /** The precheck action code that quotes the real figure, when the service has one. */
  precheck: string | null;
}

/**
 * The documented price of one call, for a confirmation card when the precheck cannot be had (or has no
 * action code). `contacts` counts the people of a per-contact unlock.
 */
export function listPrice(clientMethod: ClientMethod, contacts = 1): ListPrice {
  const charging = chargingOf(clientMethod);
  switch (charging.kind) {
    case 'free':
      return { credits: 0, upTo: false, precheck: null };
    case 'flat':
      return { credits: charging.credits, upTo: false, precheck: charging.precheck };
    case 'range':
      return { credits: charging.max, upTo: true, precheck: charging.precheck };
    case 'per-contact':
      return { credits: charging.credits * contacts, upTo: true, precheck: charging.precheck };
    case 'on-match':
      return { credits: charging.credits, upTo: true, precheck: charging.precheck };
    case 'undocumented':
      return { credits: null, upTo: true, precheck: null };
  }
}

/** Whether a call can spend credits at all (anything but `free`): such calls go through a confirmation. */
export const canCharge = (clientMethod: ClientMethod): boolean => chargingOf(clientMethod).kind !== 'free';
