import * as z from 'zod';
import type { EisCore } from './core.ts';
import {
  DateInput,
  EventIdInput,
  FlagInput,
  HttpUrlInput,
  listInput,
  PageInput,
  pageSizeInput,
  parseInput,
  textInput,
} from './input.ts';
import {
  type RecommendedEventPage,
  RecommendedEventPageSchema,
  type RecommendedExhibitorPage,
  RecommendedExhibitorPageSchema,
} from './schemas.ts';

export const RecommendedExhibitorsQuerySchema = z
  .object({
    eventId: EventIdInput,
    page: PageInput,
    pageSize: pageSizeInput(100),
    location: textInput(200),
    searchQuery: textInput(500),
    exhibitorName: listInput(200),
    category: listInput(200),
    industry: listInput(200),
    employeesMin: z.number().int().min(0).optional(),
    employeesMax: z.number().int().min(0).optional(),
  })
  .refine(
    (q) => q.employeesMin === undefined || q.employeesMax === undefined || q.employeesMin <= q.employeesMax,
    { message: 'employeesMin is above employeesMax' },
  );
export type RecommendedExhibitorsQuery = z.input<typeof RecommendedExhibitorsQuerySchema>;

const count = z.number().int().min(0).optional();

/** Every member of the OpenAPI ProfileMatchingBody, camel-cased. */
export const RecommendedEventsInputSchema = z
  .object({
    companyUrl: HttpUrlInput.optional(),
    targetAudience: z.string().trim().min(1).max(2000).optional(),
    page: PageInput,
    pageSize: pageSizeInput(100),
    autoRecommendTop3EventsEnabled: z.boolean().optional(),
    city: textInput(100),
    region: textInput(100),
    country: textInput(100),
    category: listInput(200),
    eventTypeIds: z.array(z.number().int().min(0)).optional(),
    dateStartFrom: DateInput,
    dateStartTo: DateInput,
    future: FlagInput,
    attendeeCountMin: count,
    attendeeCountMax: count,
    linkedinUrl: HttpUrlInput.optional(),
    companyDescription: textInput(2000),
    industry: textInput(255),
    targetIndustry: listInput(255),
    plannedEvents: textInput(500),
    targetManagementLevel: listInput(100),
    targetJobTitles: listInput(255),
    timeoutMs: z.number().int().min(60_000).max(3_600_000).optional(),
  })
  .refine((q) => q.companyUrl !== undefined || q.targetAudience !== undefined, {
    message: 'give companyUrl or targetAudience',
  })
  .refine(
    (q) =>
      q.attendeeCountMin === undefined ||
      q.attendeeCountMax === undefined ||
      q.attendeeCountMin <= q.attendeeCountMax,
    { message: 'attendeeCountMin is above attendeeCountMax' },
  )
  .refine(
    (q) => q.dateStartFrom === undefined || q.dateStartTo === undefined || q.dateStartFrom <= q.dateStartTo,
    { message: 'dateStartFrom is after dateStartTo' },
  );
export type RecommendedEventsInput = z.input<typeof RecommendedEventsInputSchema>;

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
    async exhibitors(query) {
      const q = parseInput('recommendations.exhibitors', RecommendedExhibitorsQuerySchema, query);
      return core.request({
        operation: 'recommendations.exhibitors',
        method: 'GET',
        path: '/external/profile-matching/recommendations/exhibitors',
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
        charging: false,
        schema: RecommendedExhibitorPageSchema,
      });
    },

    async events(input) {
      const valid = parseInput('recommendations.events', RecommendedEventsInputSchema, input);
      return core.request({
        operation: 'recommendations.events',
        method: 'POST',
        path: '/external/profile-matching/actions/apply-recommended-events/paged',
        body: recommendedEventsBody(valid),
        // free and read-only in effect (it spends nothing, unlocks nothing): retried like a read
        charging: false,
        schema: RecommendedEventPageSchema,
      });
    },
  };
}
