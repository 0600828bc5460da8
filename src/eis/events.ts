import * as z from 'zod';
import { type EisCore, pathOf } from './core.ts';
import {
  DateInput,
  EventIdInput,
  FlagInput,
  listInput,
  PageInput,
  pageSizeInput,
  parseInput,
  textInput,
} from './input.ts';
import {
  type EventBrief,
  EventBriefSchema,
  type EventDetail,
  EventDetailResponseSchema,
  type EventPage,
  EventPageSchema,
  type EventRank,
  EventRankSchema,
  type EventUnlockResult,
  EventUnlockResultSchema,
  type FitScore,
  FitScoreSchema,
  type FullAccessUnlockResult,
  FullAccessUnlockResultSchema,
  type VisitorUnlockResult,
  VisitorUnlockResultSchema,
} from './schemas.ts';

export const EventListQuerySchema = z.object({
  page: PageInput,
  pageSize: pageSizeInput(100),
  keyword: textInput(200),
  country: textInput(100),
  city: textInput(100),
  dateStartFrom: DateInput,
  dateStartTo: DateInput,
  eventType: listInput(200),
  quality: listInput(200),
  sponsorMatchStarred: FlagInput,
  hasVisitors: FlagInput,
});
export type EventListQuery = z.input<typeof EventListQuerySchema>;

export const RankInputSchema = z.object({ eventIds: z.array(EventIdInput).min(1).max(100) });
export type RankInput = z.input<typeof RankInputSchema>;

export interface EventsApi {
  /** Discover events. Free. */
  list(query?: EventListQuery): Promise<EventPage>;
  /** One event in detail. Free. */
  detail(eventId: string): Promise<EventDetail>;
  /** A lightweight summary: the event plus coverage counts and top categories. Free. */
  brief(eventId: string): Promise<EventBrief>;
  /** Profile-dependent fit score, without unlocking. Free. */
  fitScore(eventId: string): Promise<FitScore>;
  /** Rank a set of events against the caller's profile. Free. */
  rank(input: RankInput): Promise<EventRank>;
  /** Base event unlock. CHARGES (examples show 2000 credits). */
  unlock(eventId: string): Promise<EventUnlockResult>;
  /** Visitor layer unlock, after base access. CHARGES 3000 credits. */
  unlockVisitors(eventId: string): Promise<VisitorUnlockResult>;
  /** Base and visitor layers at once. CHARGES 0 to 5000 credits. */
  unlockFullAccess(eventId: string): Promise<FullAccessUnlockResult>;
}

const eventIdOf = (operation: string, eventId: string) => parseInput(operation, EventIdInput, eventId);

export function createEventsApi(core: EisCore): EventsApi {
  return { ...createFreeEventCalls(core), ...createBriefCall(core), ...createChargingEventCalls(core) };
}

function createBriefCall(core: EisCore): Pick<EventsApi, 'brief'> {
  return {
    async brief(eventId) {
      const id = eventIdOf('events.brief', eventId);
      return core.request({
        operation: 'events.brief',
        method: 'GET',
        path: '/external/events/brief',
        query: { event_id: id },
        charging: false,
        schema: EventBriefSchema,
      });
    },
  };
}

function createFreeEventCalls(core: EisCore): Pick<EventsApi, 'list' | 'detail' | 'fitScore' | 'rank'> {
  return {
    async list(query = {}) {
      const q = parseInput('events.list', EventListQuerySchema, query);
      return core.request({
        operation: 'events.list',
        method: 'GET',
        path: '/external/events/list',
        query: {
          page: q.page,
          pageSize: q.pageSize,
          keyword: q.keyword,
          country: q.country,
          city: q.city,
          date_start_from: q.dateStartFrom,
          date_start_to: q.dateStartTo,
          event_type: q.eventType,
          quality: q.quality,
          sponsor_match_starred: q.sponsorMatchStarred,
          has_visitors: q.hasVisitors,
        },
        charging: false,
        schema: EventPageSchema,
      });
    },

    async detail(eventId) {
      const id = eventIdOf('events.detail', eventId);
      const response = await core.request({
        operation: 'events.detail',
        method: 'GET',
        path: pathOf`/external/events/${id}`,
        charging: false,
        schema: EventDetailResponseSchema,
      });
      return response.event;
    },

    async fitScore(eventId) {
      const id = eventIdOf('events.fitScore', eventId);
      return core.request({
        operation: 'events.fitScore',
        method: 'POST',
        path: '/external/events/fit-score',
        body: { event_id: id },
        charging: false,
        schema: FitScoreSchema,
      });
    },

    async rank(input) {
      const valid = parseInput('events.rank', RankInputSchema, input);
      return core.request({
        operation: 'events.rank',
        method: 'POST',
        path: '/external/events/rank',
        body: { event_ids: valid.eventIds },
        charging: false,
        schema: EventRankSchema,
      });
    },
  };
}

/** The unlocks: each spends credits, so the core retries them only where the service provably did not run them. */
function createChargingEventCalls(
  core: EisCore,
): Pick<EventsApi, 'unlock' | 'unlockVisitors' | 'unlockFullAccess'> {
  return {
    async unlock(eventId) {
      const id = eventIdOf('events.unlock', eventId);
      return core.request({
        operation: 'events.unlock',
        method: 'POST',
        path: pathOf`/external/events/${id}/unlock`,
        charging: true,
        schema: EventUnlockResultSchema,
      });
    },

    async unlockVisitors(eventId) {
      const id = eventIdOf('events.unlockVisitors', eventId);
      return core.request({
        operation: 'events.unlockVisitors',
        method: 'POST',
        path: pathOf`/external/events/${id}/visitors/unlock`,
        charging: true,
        schema: VisitorUnlockResultSchema,
      });
    },

    async unlockFullAccess(eventId) {
      const id = eventIdOf('events.unlockFullAccess', eventId);
      return core.request({
        operation: 'events.unlockFullAccess',
        method: 'POST',
        path: pathOf`/external/events/${id}/full-access/unlock`,
        charging: true,
        schema: FullAccessUnlockResultSchema,
      });
    },
  };
}
