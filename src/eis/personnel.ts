import * as z from 'zod';
import type { EisCore } from './core.ts';
import {
  DateInput,
  EventIdInput,
  NumericIdInput,
  PageInput,
  pageSizeInput,
  parseInput,
  textInput,
} from './input.ts';
import {
  type EventPage,
  EventPageSchema,
  type PersonnelItem,
  PersonnelItemSchema,
  type PersonnelListPage,
  PersonnelListPageSchema,
} from './schemas.ts';

export const SOURCE_TYPES = ['exhibitor', 'social', 'visitors'] as const;

export const PersonnelListQuerySchema = z.object({
  eventId: EventIdInput,
  page: PageInput,
  // the spec states both 100 and 50 as the maximum for personnel lists: 50 is valid under either
  pageSize: pageSizeInput(50),
  exhibitorId: NumericIdInput.optional(),
  department: textInput(100),
  level: textInput(50),
  searchQuery: textInput(200),
  sourceType: z.array(z.enum(SOURCE_TYPES)).min(1).optional(),
});
export type PersonnelListQuery = z.input<typeof PersonnelListQuerySchema>;

export const EventsByNameInputSchema = z.object({
  personName: z.string().trim().min(1, 'person name is empty').max(200),
  dateStartFrom: DateInput,
  dateStartTo: DateInput,
  page: PageInput,
  pageSize: pageSizeInput(100),
});
export type EventsByNameInput = z.input<typeof EventsByNameInputSchema>;

export interface PersonnelApi {
  /** Personnel of one event; preview-limited until the event is unlocked. Free. */
  list(query: PersonnelListQuery): Promise<PersonnelListPage>;
  /** One person's record (name, title, company, unlock status). Free. */
  profile(personnelId: string): Promise<PersonnelItem>;
  /** Events related to one person. Free. */
  events(personnelId: string, page?: number): Promise<EventPage>;
  /** Events of people whose full name matches exactly. CHARGES 50 credits when non-empty; paid users only. */
  eventsByName(input: EventsByNameInput): Promise<EventPage>;
}

export function createPersonnelApi(core: EisCore): PersonnelApi {
  return {
    async list(query) {
      const q = parseInput('personnel.list', PersonnelListQuerySchema, query);
      return core.request({
        operation: 'personnel.list',
        method: 'GET',
        path: '/external/personnel/list',
        query: {
          event_id: q.eventId,
          page: q.page,
          pageSize: q.pageSize,
          exhibitor_id: q.exhibitorId,
          department: q.department,
          level: q.level,
          search_query: q.searchQuery,
          // one multi-value string parameter in the OpenAPI: values joined by commas
          sourceType: q.sourceType?.join(','),
        },
        charging: false,
        schema: PersonnelListPageSchema,
      });
    },

    async profile(personnelId) {
      const valid = parseInput('personnel.profile', z.object({ personnelId: NumericIdInput }), {
        personnelId,
      });
      return core.request({
        operation: 'personnel.profile',
        method: 'GET',
        path: '/external/personnel/profile',
        query: { personnel_id: valid.personnelId },
        charging: false,
        schema: PersonnelItemSchema,
      });
    },

    async events(personnelId, page) {
      const valid = parseInput(
        'personnel.events',
        z.object({ personnelId: NumericIdInput, page: PageInput }),
        { personnelId, page },
      );
      return core.request({
        operation: 'personnel.events',
        method: 'GET',
        path: '/external/personnel/events',
        query: { personnel_id: valid.personnelId, page: valid.page },
        charging: false,
        schema: EventPageSchema,
      });
    },

    async eventsByName(input) {
      const valid = parseInput('personnel.eventsByName', EventsByNameInputSchema, input);
      return core.request({
        operation: 'personnel.eventsByName',
        method: 'GET',
        path: '/external/personnel/events/by-name',
        query: {
          person_name: valid.personName,
          date_start_from: valid.dateStartFrom,
          date_start_to: valid.dateStartTo,
          page: valid.page,
          pageSize: valid.pageSize,
        },
        charging: true,
        schema: EventPageSchema,
      });
    },
  };
}
