import * as z from 'zod';
import type { EisCore } from './core.ts';
import {
  CompanyScopeInput,
  EventIdInput,
  ExhibitorIdInput,
  FlagInput,
  listInput,
  PageInput,
  pageSizeInput,
  parseInput,
  textInput,
} from './input.ts';
import {
  type EventSearchPage,
  EventSearchPageSchema,
  type ExhibitorListPage,
  ExhibitorListPageSchema,
  type ExhibitorPage,
  ExhibitorPageSchema,
  type ExhibitorProfile,
  ExhibitorProfileSchema,
  type RelatedEventPage,
  RelatedEventPageSchema,
} from './schemas.ts';

export const ExhibitorListQuerySchema = z.object({
  eventId: EventIdInput,
  page: PageInput,
  pageSize: pageSizeInput(100),
  keyword: textInput(200),
  country: textInput(100),
  category: listInput(200),
  industry: listInput(200),
  jobTitle: listInput(200),
  managementLevel: listInput(200),
  department: listInput(200),
  personnelLimit: z.number().int().min(0).optional(),
});
export type ExhibitorListQuery = z.input<typeof ExhibitorListQuerySchema>;

export const ContextSearchInputSchema = z
  .object({
    companyUrl: z.url({ protocol: /^https?$/ }).optional(),
    targetAudience: z.string().trim().min(1).max(2000).optional(),
    page: PageInput,
    pageSize: pageSizeInput(100),
  })
  .refine((input) => input.companyUrl !== undefined || input.targetAudience !== undefined, {
    message: 'give companyUrl or targetAudience',
  });
export type ContextSearchInput = z.input<typeof ContextSearchInputSchema>;

const companyName = z.string().trim().min(1, 'company name is empty').max(200);

export const CompanyNameSearchInputSchema = z.object({
  companyName,
  page: PageInput,
  pageSize: pageSizeInput(100),
});
export type CompanyNameSearchInput = z.input<typeof CompanyNameSearchInputSchema>;

export const EventSearchInputSchema = z.object({
  companyName,
  sponsorMatchStarred: FlagInput,
  attendanceScope: CompanyScopeInput,
  page: PageInput,
  pageSize: pageSizeInput(100),
});
export type EventSearchInput = z.input<typeof EventSearchInputSchema>;

export const ExhibitorEventsQuerySchema = z.object({
  exhibitorId: ExhibitorIdInput,
  attendanceScope: CompanyScopeInput,
  page: PageInput,
  pageSize: pageSizeInput(100),
});
export type ExhibitorEventsQuery = z.input<typeof ExhibitorEventsQuerySchema>;

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
    async list(query) {
      const q = parseInput('exhibitors.list', ExhibitorListQuerySchema, query);
      return core.request({
        operation: 'exhibitors.list',
        method: 'GET',
        path: '/external/exhibitors/list',
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
        charging: false,
        schema: ExhibitorListPageSchema,
      });
    },

    async searchByContext(input) {
      const valid = parseInput('exhibitors.searchByContext', ContextSearchInputSchema, input);
      return core.request({
        operation: 'exhibitors.searchByContext',
        method: 'POST',
        path: '/external/exhibitors/search',
        body: {
          company_url: valid.companyUrl,
          target_audience: valid.targetAudience,
          page: valid.page,
          pageSize: valid.pageSize,
        },
        charging: false,
        schema: ExhibitorPageSchema,
      });
    },
  };
}

/** Searches by company name: each page asked for is a new search, charged when it is non-empty. */
function createChargingSearches(core: EisCore): Pick<ExhibitorsApi, 'searchByCompanyName' | 'searchEvents'> {
  return {
    async searchByCompanyName(input) {
      const valid = parseInput('exhibitors.searchByCompanyName', CompanyNameSearchInputSchema, input);
      return core.request({
        operation: 'exhibitors.searchByCompanyName',
        method: 'POST',
        path: '/external/exhibitors/search-by-company-name',
        body: { company_name: valid.companyName, page: valid.page, pageSize: valid.pageSize },
        charging: true,
        schema: ExhibitorPageSchema,
      });
    },

    async searchEvents(input) {
      const valid = parseInput('exhibitors.searchEvents', EventSearchInputSchema, input);
      return core.request({
        operation: 'exhibitors.searchEvents',
        method: 'POST',
        path: '/external/exhibitors/search-events',
        body: {
          company_name: valid.companyName,
          sponsor_match_starred: valid.sponsorMatchStarred,
          attendance_scope: valid.attendanceScope,
          page: valid.page,
          pageSize: valid.pageSize,
        },
        charging: true,
        schema: EventSearchPageSchema,
      });
    },
  };
}

function createAccountCalls(core: EisCore): Pick<ExhibitorsApi, 'profile' | 'events'> {
  return {
    async profile(exhibitorId) {
      const id = parseInput('exhibitors.profile', ExhibitorIdInput, exhibitorId);
      return core.request({
        operation: 'exhibitors.profile',
        method: 'GET',
        path: '/external/exhibitors/profile',
        query: { exhibitor_id: id },
        charging: false,
        schema: ExhibitorProfileSchema,
      });
    },

    async events(query) {
      const q = parseInput('exhibitors.events', ExhibitorEventsQuerySchema, query);
      return core.request({
        operation: 'exhibitors.events',
        method: 'GET',
        path: '/external/exhibitors/events',
        query: {
          exhibitor_id: q.exhibitorId,
          attendance_scope: q.attendanceScope,
          page: q.page,
          pageSize: q.pageSize,
        },
        charging: false,
        schema: RelatedEventPageSchema,
      });
    },
  };
}
