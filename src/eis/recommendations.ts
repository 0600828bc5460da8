import * as z from 'zod';
import type { EisCore } from './core.ts';
import { EventIdInput, listInput, PageInput, pageSizeInput, parseInput, textInput } from './input.ts';
import { type RecommendedExhibitorPage, RecommendedExhibitorPageSchema } from './schemas.ts';

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

export interface RecommendationsApi {
  /** Exhibitors recommended for one event against the caller's stored profile. Free. */
  exhibitors(query: RecommendedExhibitorsQuery): Promise<RecommendedExhibitorPage>;
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
  };
}
