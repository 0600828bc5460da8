import type * as z from 'zod';
import { call } from './call.ts';
import type { EisCore } from './core.ts';
import { rowOf } from './operations.ts';
import type {
  RecommendedEventsInput,
  RecommendedEventsInputSchema,
  RecommendedExhibitorsQuery,
} from './requests.ts';
import type { RecommendedEventPage, RecommendedExhibitorPage } from './schemas.ts';

export interface RecommendationsApi {
  /** Exhibitors recommended for one event against the caller's stored profile. Free. */
  exhibitors(query: RecommendedExhibitorsQuery): Promise<RecommendedExhibitorPage>;
  /**
   * Events ranked for a company profile (a website or an audience), with scores and reasons: the
   * apply-recommended-events workflow, paged. Free; it answers synchronously, which can be slow.
   */
  events(input: RecommendedEventsInput): Promise<RecommendedEventPage>;
}

function recommendedEventsBody(q: z.output<typeof RecommendedEventsInputSchema>): Record<string, unknown> {
  return {
    company_url: q.companyUrl,
    target_audience: q.targetAudience,
    page: q.page,
    pageSize: q.pageSize,
    autoRecommendTop3EventsEnabled: q.autoRecommendTop3EventsEnabled,
    city: q.city,
    region: q.region,
    country: q.country,
    category: q.category,
    eventTypeIds: q.eventTypeIds,
    dateStartFrom: q.dateStartFrom,
    dateStartTo: q.dateStartTo,
    future: q.future,
    attendeeCountMin: q.attendeeCountMin,
    attendeeCountMax: q.attendeeCountMax,
    linkedin_url: q.linkedinUrl,
    company_description: q.companyDescription,
    industry: q.industry,
    target_industry: q.targetIndustry,
    planned_events: q.plannedEvents,
    target_management_level: q.targetManagementLevel,
    target_job_titles: q.targetJobTitles,
    timeout_ms: q.timeoutMs,
  };
}

export function createRecommendationsApi(core: EisCore): RecommendationsApi {
  return {
    exhibitors: (query) =>
      call(core, rowOf('recommendations.exhibitors'), query, (q) => ({
        query: {
          event_id: q.eventId,
          page: q.page,
          pageSize: q.pageSize,
          location: q.location,
          searchQuery: q.searchQuery,
          exhibitorName: q.exhibitorName,
          category: q.category,
          industry: q.industry,
          employeesMin: q.employeesMin,
          employeesMax: q.employeesMax,
        },
      })),
    // free and read-only in effect (it spends nothing, unlocks nothing): retried like a read
    events: (input) =>
      call(core, rowOf('recommendations.events'), input, (valid) => ({ body: recommendedEventsBody(valid) })),
  };
}
