import { type ActionsApi, createActionsApi } from './actions.ts';
import { type AgentFilesApi, createAgentFilesApi } from './agent-files.ts';
import { type ContactsApi, createContactsApi } from './contacts.ts';
import { createEisCore, type EisClientOptions } from './core.ts';
import type { ClientMethod } from './operations.ts';
import { type CreditsApi, createCreditsApi } from './credits.ts';
import { createEventsApi, type EventsApi } from './events.ts';
import { createExhibitorsApi, type ExhibitorsApi } from './exhibitors.ts';
import { createOutreachApi, type OutreachApi } from './outreach.ts';
import { iteratePages } from './pagination.ts';
import { createPersonnelApi, type PersonnelApi } from './personnel.ts';
import { createRecommendationsApi, type RecommendationsApi } from './recommendations.ts';

export interface EisClient {
  readonly credits: CreditsApi;
  readonly actions: ActionsApi;
  readonly events: EventsApi;
  readonly exhibitors: ExhibitorsApi;
  readonly personnel: PersonnelApi;
  readonly contacts: ContactsApi;
  readonly outreach: OutreachApi;
  readonly recommendations: RecommendationsApi;
  readonly agentFiles: AgentFilesApi;
  readonly iteratePages: typeof iteratePages;
  /**
   * Releases what the client holds: nothing today (it sends through Node's shared keep-alive pool, and
   * an injected dispatcher is left to its owner); kept so callers need not know which.
   */
  close(): Promise<void>;
}

type Area = Exclude<keyof EisClient, 'iteratePages' | 'close'>;
type MethodsOf<T> = { [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T] &
  string;
/** `area.method` of every call the client offers, e.g. `'events.brief'`. */
type OfferedMethod = { [A in Area]: `${A}.${MethodsOf<EisClient[A]>}` }[Area];
/** The table and the client name the same calls: a row without a method, or a method without a row, does not compile. */
const sameCalls: [OfferedMethod] extends [ClientMethod]
  ? [ClientMethod] extends [OfferedMethod]
    ? true
    : 'a row names no client method'
  : 'a client method has no row' = true;
void sameCalls;

/**
 * The Event Intelligence Service client. The API key lives only in the core's closure: no field of the
 * client, of its modules or of any error it throws holds it.
 */
export function createEisClient(options: EisClientOptions): EisClient {
  const core = createEisCore(options);
  return Object.freeze({
    credits: createCreditsApi(core),
    actions: createActionsApi(core),
    events: createEventsApi(core),
    exhibitors: createExhibitorsApi(core),
    personnel: createPersonnelApi(core),
    contacts: createContactsApi(core),
    outreach: createOutreachApi(core),
    recommendations: createRecommendationsApi(core),
    agentFiles: createAgentFilesApi(core),
    iteratePages,
    close: () => core.close(),
  });
}

export type { ActionsApi } from './actions.ts';
export type { AgentFilesApi } from './agent-files.ts';
export type { ContactsApi, UnlockContactsOptions } from './contacts.ts';
export type { EisClientOptions } from './core.ts';
export { traceIdOf } from '../platform/trace-ids.ts';
export type { CreditsApi } from './credits.ts';
export * from './errors.ts';
export type { EventsApi } from './events.ts';
export {
  type EventExhibitorMatches,
  type EventExhibitorScan,
  listEventExhibitorMatches,
  listExhibitorEventsAll,
  type PagingOptions,
  scanEventExhibitors,
  searchExhibitorsByDomain,
} from './exhibitor-lookups.ts';
export type { ExhibitorsApi } from './exhibitors.ts';
export {
  MAX_IN_FLIGHT_PER_KEY,
  POLL_IN_FLIGHT,
  pollSharesForKey,
  type Semaphore,
  WATCH_IN_FLIGHT_PER_KEY,
  watchSemaphoreForKey,
} from './limiter.ts';
export { type IteratePagesOptions, iteratePages, type PageLike } from './pagination.ts';
export { type Charging, type ListPrice } from './charging.ts';
export {
  canCharge,
  chargingOf,
  type ClientMethod,
  EIS_METHODS_OUTSIDE_OPENAPI,
  EIS_OPERATIONS,
  EIS_OPERATIONS_NOT_IN_CLIENT,
  type EisOperation,
  listPrice,
  type OperationKey,
  operationOf,
} from './operations.ts';
export type { OutreachApi } from './outreach.ts';
export type { PersonnelApi } from './personnel.ts';
export type { RecommendationsApi } from './recommendations.ts';
export type {
  CompanyNameSearchInput,
  ContactSearchInput,
  ContextSearchInput,
  EventListQuery,
  EventSearchInput,
  EventsByLinkedinInput,
  EventsByNameInput,
  ExhibitorEventsQuery,
  ExhibitorListQuery,
  OutreachDetailInput,
  OutreachGenerationInput,
  PersonEventsOptions,
  PersonnelListQuery,
  PrecheckInput,
  RankInput,
  RecommendedEventsInput,
  RecommendedExhibitorsQuery,
} from './requests.ts';
export * from './schemas.ts';
