import * as z from 'zod';
import type { EisCore } from './core.ts';
import {
  DateInput,
  EventIdInput,
  HttpUrlInput,
  NumericIdInput,
  PageInput,
  pageSizeInput,
  parseInput,
  PersonnelIdsInput,
  PersonScopeInput,
  textInput,
} from './input.ts';
import {
  type LinkedinActivityUnlock,
  LinkedinActivityUnlockSchema,
  type LinkedinEvents,
  LinkedinEventsSchema,
  type PersonnelListPage,
  PersonnelListPageSchema,
  type PersonnelProfile,
  PersonnelProfileSchema,
  type RelatedEventPage,
  RelatedEventPageSchema,
} from './schemas.ts';
import { SOURCE_TYPES } from './source-types.ts';

export { SOURCE_TYPES };

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
  attendanceScope: PersonScopeInput,
  dateStartFrom: DateInput,
  dateStartTo: DateInput,
  page: PageInput,
  pageSize: pageSizeInput(100),
});
export type EventsByNameInput = z.input<typeof EventsByNameInputSchema>;

export const PersonEventsOptionsSchema = z.object({
  pageSize: pageSizeInput(100),
  attendanceScope: PersonScopeInput,
});
export type PersonEventsOptions = z.input<typeof PersonEventsOptionsSchema>;

export const EventsByLinkedinInputSchema = z.object({
  linkedinUrl: HttpUrlInput,
  attendanceScope: PersonScopeInput,
  page: PageInput,
  pageSize: pageSizeInput(100),
});
export type EventsByLinkedinInput = z.input<typeof EventsByLinkedinInputSchema>;

export const LinkedinActivityInputSchema = z.object({
  personnelIds: PersonnelIdsInput,
  // the OpenAPI's LinkedinActivityUnlockRequest allows at most 20 characters here
  eventId: z.string().min(1).max(20).optional(),
});

export interface PersonnelApi {
  /** Personnel of one event; preview-limited until the event is unlocked. Free. */
  list(query: PersonnelListQuery): Promise<PersonnelListPage>;
  /** One person's record (name, title, company, unlock, LinkedIn and outreach status). Free. */
  profile(personnelId: string): Promise<PersonnelProfile>;
  /** Events related to one person. Free. */
  events(personnelId: string, page?: number, options?: PersonEventsOptions): Promise<RelatedEventPage>;
  /** Events of people whose full name matches exactly. CHARGES 50 credits when non-empty; paid users only. */
  eventsByName(input: EventsByNameInput): Promise<RelatedEventPage>;
  /** The person behind a LinkedIn profile URL and their events. Free; 404 when no one matches. */
  eventsByLinkedin(input: EventsByLinkedinInput): Promise<LinkedinEvents>;
  /**
   * Starts LinkedIn activity analysis; progress shows on the person's `linkedinActivityStatus`. No
   * documented price (see `EIS_OPERATIONS`): sent once, never retried after it may have run.
   */
  unlockLinkedinActivity(
    personnelIds: readonly string[],
    options?: { eventId?: string },
  ): Promise<LinkedinActivityUnlock>;
}

export function createPersonnelApi(core: EisCore): PersonnelApi {
  return { ...createPersonnelReads(core), ...createReverseLookups(core), ...createLinkedinCalls(core) };
}

function createPersonnelReads(core: EisCore): Pick<PersonnelApi, 'list' | 'profile' | 'events'> {
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
        schema: PersonnelProfileSchema,
      });
    },

    async events(personnelId, page, options = {}) {
      const valid = parseInput(
        'personnel.events',
        PersonEventsOptionsSchema.extend({ personnelId: NumericIdInput, page: PageInput }),
        { ...options, personnelId, page },
      );
      return core.request({
        operation: 'personnel.events',
        method: 'GET',
        path: '/external/personnel/events',
        query: {
          personnel_id: valid.personnelId,
          attendance_scope: valid.attendanceScope,
          page: valid.page,
          pageSize: valid.pageSize,
        },
        charging: false,
        schema: RelatedEventPageSchema,
      });
    },
  };
}

function createReverseLookups(core: EisCore): Pick<PersonnelApi, 'eventsByName' | 'eventsByLinkedin'> {
  return {
    async eventsByName(input) {
      const valid = parseInput('personnel.eventsByName', EventsByNameInputSchema, input);
      return core.request({
        operation: 'personnel.eventsByName',
        method: 'GET',
        path: '/external/personnel/events/by-name',
        query: {
          person_name: valid.personName,
          attendance_scope: valid.attendanceScope,
          date_start_from: valid.dateStartFrom,
          date_start_to: valid.dateStartTo,
          page: valid.page,
          pageSize: valid.pageSize,
        },
        charging: true,
        schema: RelatedEventPageSchema,
      });
    },

    async eventsByLinkedin(input) {
      const valid = parseInput('personnel.eventsByLinkedin', EventsByLinkedinInputSchema, input);
      return core.request({
        operation: 'personnel.eventsByLinkedin',
        method: 'GET',
        path: '/external/personnel/events/by-linkedin',
        query: {
          linkedin_url: valid.linkedinUrl,
          attendance_scope: valid.attendanceScope,
          page: valid.page,
          pageSize: valid.pageSize,
        },
        charging: false,
        schema: LinkedinEventsSchema,
      });
    },
  };
}

function createLinkedinCalls(core: EisCore): Pick<PersonnelApi, 'unlockLinkedinActivity'> {
  return {
    async unlockLinkedinActivity(personnelIds, options = {}) {
      const valid = parseInput('personnel.unlockLinkedinActivity', LinkedinActivityInputSchema, {
        personnelIds,
        eventId: options.eventId,
      });
      return core.request({
        operation: 'personnel.unlockLinkedinActivity',
        method: 'POST',
        path: '/external/personnel/unlock-linkedin-activity',
        body: { personnel_ids: valid.personnelIds, event_id: valid.eventId },
        // no documented price, and it starts work: never resent once it may have reached the service
        charging: true,
        schema: LinkedinActivityUnlockSchema,
      });
    },
  };
}
