import { badRequest, conflict, featureUnavailableEnvelope, notFound } from '../errors.ts';
import {
  bodyRecord,
  includesText,
  multiQuery,
  optionalDate,
  optionalFlag,
  optionalQuery,
  pageRequest,
  paginate,
  resolveEvent,
  sameText,
} from '../params.ts';
import { EVENT_UNLOCK_CREDITS } from '../preview.ts';
import { created, ok, type Route, type RouteContext } from '../routing.ts';
import type { SeededEvent } from '../seed.ts';
import { eventDetail, eventIdentity, eventItem } from '../views.ts';

export const VISITOR_UNLOCK_CREDITS = 3000;

const byDate = (a: SeededEvent, b: SeededEvent): number =>
  a.dateStart.localeCompare(b.dateStart) || a.id.localeCompare(b.id);

const eventTarget = (ctx: RouteContext): string | undefined => {
  const event = ctx.state.eventsById.get(ctx.params.id ?? '');
  return event ? `event:${event.id}` : undefined;
};

const listEvents: Route = {
  method: 'GET',
  pattern: '/external/events/list',
  handle({ state, query }) {
    const request = pageRequest(query);
    const keyword = optionalQuery(query, 'keyword', 200);
    const country = optionalQuery(query, 'country', 100);
    const city = optionalQuery(query, 'city', 100);
    const from = optionalDate(query, 'date_start_from');
    const to = optionalDate(query, 'date_start_to');
    const types = multiQuery(query, 'event_type');
    const qualities = multiQuery(query, 'quality');
    const starred = optionalFlag(query, 'sponsor_match_starred');
    const visitors = optionalFlag(query, 'has_visitors');
    const matches = state.seed.events
      .filter(
        (e) =>
          (!keyword || [e.name, e.nickname, e.description, e.city].some((t) => includesText(t, keyword))) &&
          (!country || sameText(e.country, country)) &&
          (!city || sameText(e.city, city)) &&
          (!from || e.dateStart >= from) &&
          (!to || e.dateStart <= to) &&
          (types.length === 0 || types.some((t) => sameText(e.eventType, t))) &&
          (qualities.length === 0 || qualities.some((q) => sameText(e.quality, q))) &&
          (starred === undefined || e.sponsorMatchStarred === starred) &&
          (visitors === undefined || e.hasVisitors === (visitors === 1)),
      )
      .sort(byDate);
    const page = paginate(matches, request);
    return ok({ ...page, items: page.items.map(eventItem) });
  },
};

const eventBrief: Route = {
  method: 'GET',
  pattern: '/external/events/brief',
  handle({ state, query }) {
    const event = resolveEvent(state, query.get('event_id'));
    return ok({
      event: eventItem(event),
      summary: {
        attendeeCount: event.attendeeCount,
        exhibitorCount: event.exhibitorCount,
        topCategories: event.topics,
        dataFreshness: 'database_snapshot',
      },
    });
  },
};

/** The spec also names `GET /external/events/detail`; `?event_id=` is honoured on that path. */
const eventDetailRoute: Route = {
  method: 'GET',
  pattern: '/external/events/{id}',
  handle({ state, params, query, today }) {
    const raw = params.id === 'detail' ? query.get('event_id') : params.id;
    return ok({ event: eventDetail(resolveEvent(state, raw, 'id'), today) });
  },
};

/** The spec answers 200 here (the OpenAPI says 201). */
const fitScore: Route = {
  method: 'POST',
  pattern: '/external/events/fit-score',
  handle({ state, body }) {
    const eventId = bodyRecord(body).event_id;
    if (typeof eventId !== 'string' || eventId.length < 1 || eventId.length > 100) {
      throw badRequest('event_id must be a string of 1 to 100 characters');
    }
    const event = resolveEvent(state, eventId);
    const {
      id,
      eventId: publicId,
      name,
      description,
      url,
      dateStart,
      dateEnd,
      venue,
      city,
      region,
      country,
    } = event;
    return ok({
      event: {
        ...{
          id,
          eventId: publicId,
          name,
          description,
          url,
          dateStart,
          dateEnd,
          venue,
          city,
          region,
          country,
        },
        exhibitorCount: event.exhibitorCount,
        sponsorMatchStarred: event.sponsorMatchStarred,
        dataSource: 'Lensmor',
      },
      score: event.fit.score,
      recommendation: event.fit.recommendation,
      breakdown: event.fit.breakdown,
    });
  },
};

const rankEvents: Route = {
  method: 'POST',
  pattern: '/external/events/rank',
  handle({ state, body }) {
    const ids = bodyRecord(body).event_ids;
    if (
      !Array.isArray(ids) ||
      ids.length === 0 ||
      ids.length > 100 ||
      !ids.every((i) => typeof i === 'string')
    ) {
      throw badRequest('event_ids must be a non-empty array of event identifiers');
    }
    const events = ids.map((id: string) => {
      const event = state.eventsById.get(id.trim());
      if (!event) throw notFound(`Event ${id} not found`);
      return { id, event };
    });
    const ranked = events.sort((a, b) => b.event.fit.score - a.event.fit.score);
    return created({
      items: ranked.map(({ id, event }, i) => ({
        event_id: id,
        name: event.name,
        rank: i + 1,
        match_score: Math.round(event.fit.score * 10) / 100,
        reasons: [`${event.fit.recommendation.replace('_', ' ')} for your profile`],
      })),
    });
  },
};

const unlockEvent: Route = {
  method: 'POST',
  pattern: '/external/events/{id}/unlock',
  lockTarget: eventTarget,
  handle(ctx) {
    const { state, account, params } = ctx;
    const event = resolveEvent(state, params.id, 'id');
    const already = account.unlockedEvents.has(event.id);
    if (!already) {
      if (event.personnelCount === 0 && event.exhibitorCount === 0) {
        throw conflict('No contacts are available for this event', 'NO_CONTACTS_AVAILABLE');
      }
      ctx.charge('unlock_event', EVENT_UNLOCK_CREDITS, { eventId: event.id });
      account.unlockedEvents.add(event.id);
    }
    return created({
      success: true,
      alreadyUnlocked: already,
      creditsUsed: already ? 0 : EVENT_UNLOCK_CREDITS,
      balanceAfter: state.shortBalance(account),
      event: eventIdentity(event),
    });
  },
};

const unlockVisitors: Route = {
  method: 'POST',
  pattern: '/external/events/{id}/visitors/unlock',
  lockTarget: eventTarget,
  handle(ctx) {
    const { state, account, params, traceId } = ctx;
    const event = resolveEvent(state, params.id, 'id');
    if (!account.subscribed) return ok(featureUnavailableEnvelope(traceId));
    const already = account.visitorEvents.has(event.id);
    if (!already) {
      if (!event.hasVisitors)
        throw conflict('Visitor data is not available for this event', 'VISITOR_DATA_UNAVAILABLE');
      if (!account.unlockedEvents.has(event.id)) {
        throw conflict('Base event access is required before unlocking visitors', 'EVENT_ACCESS_REQUIRED');
      }
      ctx.charge('unlock_event_visitors', VISITOR_UNLOCK_CREDITS, { eventId: event.id });
      account.visitorEvents.add(event.id);
    }
    return created({
      success: true,
      alreadyUnlocked: already,
      creditsSpent: already ? 0 : VISITOR_UNLOCK_CREDITS,
      balanceAfter: state.creditBalance(account),
      event: eventIdentity(event),
    });
  },
};

const unlockFullAccess: Route = {
  method: 'POST',
  pattern: '/external/events/{id}/full-access/unlock',
  lockTarget: eventTarget,
  handle(ctx) {
    const { state, account, params, traceId } = ctx;
    const event = resolveEvent(state, params.id, 'id');
    if (!account.subscribed) return ok(featureUnavailableEnvelope(traceId));
    const cost = fullAccessCost(
      event,
      account.unlockedEvents.has(event.id),
      account.visitorEvents.has(event.id),
    );
    if (cost.credits > 0) ctx.charge('unlock_event_full_access', cost.credits, { eventId: event.id });
    if (cost.base) account.unlockedEvents.add(event.id);
    if (cost.visitors) account.visitorEvents.add(event.id);
    return created({
      success: true,
      alreadyUnlocked: cost.credits === 0,
      eventUnlocked: cost.base,
      visitorUnlocked: cost.visitors,
      visitorSkipped: !event.hasVisitors,
      totalCreditsUsed: cost.credits,
      balanceAfter: state.shortBalance(account),
      event: eventIdentity(event),
    });
  },
};

/** Which layers a full-access unlock would add, and their price. */
export function fullAccessCost(event: SeededEvent, hasBase: boolean, hasVisitors: boolean) {
  const base = !hasBase;
  const visitors = event.hasVisitors && !hasVisitors;
  return {
    base,
    visitors,
    credits: (base ? EVENT_UNLOCK_CREDITS : 0) + (visitors ? VISITOR_UNLOCK_CREDITS : 0),
  };
}

export const eventRoutes: Route[] = [
  listEvents,
  eventBrief,
  fitScore,
  rankEvents,
  eventDetailRoute,
  unlockEvent,
  unlockVisitors,
  unlockFullAccess,
];
