import { call } from './call.ts';
import type { EisCore } from './core.ts';
import { rowOf } from './operations.ts';
import type { EventListQuery, RankInput } from './requests.ts';
import type {
  EventBrief,
  EventDetail,
  EventPage,
  EventRank,
  EventUnlockResult,
  FitScore,
  FullAccessUnlockResult,
  VisitorUnlockResult,
} from './schemas.ts';

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

/** The unlocks are charging rows: the core retries them only where the service provably did not run them. */
export function createEventsApi(core: EisCore): EventsApi {
  const byId = (id: string) => ({ path: { id } });
  return {
    list: (query = {}) =>
      call(core, rowOf('events.list'), query, (q) => ({
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
      })),
    detail: async (eventId) => (await call(core, rowOf('events.detail'), eventId, byId)).event,
    brief: (eventId) => call(core, rowOf('events.brief'), eventId, (id) => ({ query: { event_id: id } })),
    fitScore: (eventId) =>
      call(core, rowOf('events.fitScore'), eventId, (id) => ({ body: { event_id: id } })),
    rank: (input) =>
      call(core, rowOf('events.rank'), input, (valid) => ({ body: { event_ids: valid.eventIds } })),
    unlock: (eventId) => call(core, rowOf('events.unlock'), eventId, byId),
    unlockVisitors: (eventId) => call(core, rowOf('events.unlockVisitors'), eventId, byId),
    unlockFullAccess: (eventId) => call(core, rowOf('events.unlockFullAccess'), eventId, byId),
  };
}
