import { type ActionsApi, createActionsApi } from './actions.ts';
import { type AgentFilesApi, createAgentFilesApi } from './agent-files.ts';
import { type ContactsApi, createContactsApi } from './contacts.ts';
import { createEisCore, type EisClientOptions } from './core.ts';
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

export type { ActionsApi, PrecheckInput } from './actions.ts';
export type { AgentFilesApi } from './agent-files.ts';
export type { ContactSearchInput, ContactsApi, UnlockContactsOptions } from './contacts.ts';
export type { EisClientOptions } from './core.ts';
export { traceIdOf } from '../platform/trace-ids.ts';
export type { CreditsApi } from './credits.ts';
export * from './errors.ts';
export type { EventListQuery, EventsApi, RankInput } from './events.ts';
export {
  type EventExhibitorMatches,
  listEventExhibitorMatches,
  listExhibitorEventsAll,
  type PagingOptions,
  searchExhibitorsByDomain,
} from './exhibitor-lookups.ts';
export type {
  CompanyNameSearchInput,
  ContextSearchInput,
  EventSearchInput,
  ExhibitorEventsQuery,
  ExhibitorListQuery,
  ExhibitorsApi,
} from './exhibitors.ts';
export { MAX_IN_FLIGHT_PER_KEY } from './limiter.ts';
export { type IteratePagesOptions, iteratePages, type PageLike } from './pagination.ts';
export {
  canCharge,
  type Charging,
  chargingOf,
  type ClientMethod,
  EIS_METHODS_OUTSIDE_OPENAPI,
  EIS_OPERATIONS,
  EIS_OPERATIONS_NOT_IN_CLIENT,
  type EisOperation,
  listPrice,
  type ListPrice,
  type OperationKey,
  operationOf,
} from './operations.ts';
export {
  type OutreachApi,
  type OutreachDetailInput,
  type OutreachGenerationInput,
} from './outreach.ts';
export type {
  EventsByLinkedinInput,
  EventsByNameInput,
  PersonEventsOptions,
  PersonnelApi,
  PersonnelListQuery,
} from './personnel.ts';
export type {
  RecommendationsApi,
  RecommendedEventsInput,
  RecommendedExhibitorsQuery,
} from './recommendations.ts';
export * from './schemas.ts';
