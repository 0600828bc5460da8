import { call } from './call.ts';
import type { EisCore } from './core.ts';
import { rowOf } from './operations.ts';
import type {
  EventsByLinkedinInput,
  EventsByNameInput,
  PersonEventsOptions,
  PersonnelListQuery,
} from './requests.ts';
import type {
  LinkedinActivityUnlock,
  LinkedinEvents,
  PersonnelListPage,
  PersonnelProfile,
  RelatedEventPage,
} from './schemas.ts';
import { SOURCE_TYPES } from './source-types.ts';

export { SOURCE_TYPES };

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
   * documented price (see `EIS_OPERATIONS`): a charging row, so sent once, never retried after it may
   * have run.
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
    list: (query) =>
      call(core, rowOf('personnel.list'), query, (q) => ({
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
      })),
    profile: (personnelId) =>
      call(core, rowOf('personnel.profile'), { personnelId }, (valid) => ({
        query: { personnel_id: valid.personnelId },
      })),
    events: (personnelId, page, options = {}) =>
      call(core, rowOf('personnel.events'), { ...options, personnelId, page }, (valid) => ({
        query: {
          personnel_id: valid.personnelId,
          attendance_scope: valid.attendanceScope,
          page: valid.page,
          pageSize: valid.pageSize,
        },
      })),
  };
}

function createReverseLookups(core: EisCore): Pick<PersonnelApi, 'eventsByName' | 'eventsByLinkedin'> {
  return {
    eventsByName: (input) =>
      call(core, rowOf('personnel.eventsByName'), input, (valid) => ({
        query: {
          person_name: valid.personName,
          attendance_scope: valid.attendanceScope,
          date_start_from: valid.dateStartFrom,
          date_start_to: valid.dateStartTo,
          page: valid.page,
          pageSize: valid.pageSize,
        },
      })),
    eventsByLinkedin: (input) =>
      call(core, rowOf('personnel.eventsByLinkedin'), input, (valid) => ({
        query: {
          linkedin_url: valid.linkedinUrl,
          attendance_scope: valid.attendanceScope,
          page: valid.page,
          pageSize: valid.pageSize,
        },
      })),
  };
}

function createLinkedinCalls(core: EisCore): Pick<PersonnelApi, 'unlockLinkedinActivity'> {
  return {
    unlockLinkedinActivity: (personnelIds, options = {}) =>
      call(
        core,
        rowOf('personnel.unlockLinkedinActivity'),
        { personnelIds, eventId: options.eventId },
        (valid) => ({ body: { personnel_ids: valid.personnelIds, event_id: valid.eventId } }),
      ),
  };
}
