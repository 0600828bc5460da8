import { call } from './call.ts';
import type { EisCore } from './core.ts';
import { rowOf } from './operations.ts';
import type {
  CompanyNameSearchInput,
  ContextSearchInput,
  EventSearchInput,
  ExhibitorEventsQuery,
  ExhibitorListQuery,
} from './requests.ts';
import type {
  EventSearchPage,
  ExhibitorListPage,
  ExhibitorPage,
  ExhibitorProfile,
  RelatedEventPage,
} from './schemas.ts';

export interface ExhibitorsApi {
  /** Exhibitors of one event; preview-limited until the event is unlocked. Free. */
  list(query: ExhibitorListQuery): Promise<ExhibitorListPage>;
  /** Exhibitors matching a company URL or target audience. Free. */
  searchByContext(input: ContextSearchInput): Promise<ExhibitorPage>;
  /** Exhibitors by company name. CHARGES 50 credits when the result is non-empty. */
  searchByCompanyName(input: CompanyNameSearchInput): Promise<ExhibitorPage>;
  /** Events where a company exhibits. CHARGES 50 credits when the result is non-empty. */
  searchEvents(input: EventSearchInput): Promise<EventSearchPage>;
  /** One exhibitor's company profile, with compact event references. Free. */
  profile(exhibitorId: string): Promise<ExhibitorProfile>;
  /** The events one known exhibitor is linked to, paged. Free (unlike `searchEvents` by name). */
  events(query: ExhibitorEventsQuery): Promise<RelatedEventPage>;
}

export function createExhibitorsApi(core: EisCore): ExhibitorsApi {
  return { ...createListCalls(core), ...createChargingSearches(core), ...createAccountCalls(core) };
}

function createListCalls(core: EisCore): Pick<ExhibitorsApi, 'list' | 'searchByContext'> {
  return {
    list: (query) =>
      call(core, rowOf('exhibitors.list'), query, (q) => ({
        query: {
          event_id: q.eventId,
          page: q.page,
          pageSize: q.pageSize,
          keyword: q.keyword,
          country: q.country,
          category: q.category,
          industry: q.industry,
          jobTitle: q.jobTitle,
          managementLevel: q.managementLevel,
          department: q.department,
          personnelLimit: q.personnelLimit,
        },
      })),
    searchByContext: (input) =>
      call(core, rowOf('exhibitors.searchByContext'), input, (valid) => ({
        body: {
          company_url: valid.companyUrl,
          target_audience: valid.targetAudience,
          page: valid.page,
          pageSize: valid.pageSize,
        },
      })),
  };
}

/** Searches by company name: each page asked for is a new search, charged when it is non-empty. */
function createChargingSearches(core: EisCore): Pick<ExhibitorsApi, 'searchByCompanyName' | 'searchEvents'> {
  return {
    searchByCompanyName: (input) =>
      call(core, rowOf('exhibitors.searchByCompanyName'), input, (valid) => ({
        body: { company_name: valid.companyName, page: valid.page, pageSize: valid.pageSize },
      })),
    searchEvents: (input) =>
      call(core, rowOf('exhibitors.searchEvents'), input, (valid) => ({
        body: {
          company_name: valid.companyName,
          sponsor_match_starred: valid.sponsorMatchStarred,
          attendance_scope: valid.attendanceScope,
          page: valid.page,
          pageSize: valid.pageSize,
        },
      })),
  };
}

function createAccountCalls(core: EisCore): Pick<ExhibitorsApi, 'profile' | 'events'> {
  return {
    profile: (exhibitorId) =>
      call(core, rowOf('exhibitors.profile'), exhibitorId, (id) => ({ query: { exhibitor_id: id } })),
    events: (query) =>
      call(core, rowOf('exhibitors.events'), query, (q) => ({
        query: {
          exhibitor_id: q.exhibitorId,
          attendance_scope: q.attendanceScope,
          page: q.page,
          pageSize: q.pageSize,
        },
      })),
  };
}
