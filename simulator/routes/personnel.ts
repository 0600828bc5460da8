import { badRequest, notFound, SimError } from '../errors.ts';
import {
  includesText,
  multiQuery,
  numericId,
  optionalDate,
  optionalQuery,
  pageRequest,
  paginate,
  requiredQuery,
  resolveEvent,
  sameText,
} from '../params.ts';
import { previewPage } from '../preview.ts';
import { ok, type Route } from '../routing.ts';
import type { PersonnelIdentity, SeededEvent, SeededPersonnel, SourceType } from '../seed.ts';
import type { SimulatorState } from '../state.ts';
import { contactItem, eventItem } from '../views.ts';
import { SEARCH_CREDITS } from './exhibitors.ts';

const SOURCE_TYPES: SourceType[] = ['exhibitor', 'social', 'visitors'];
const SCOPES = ['all', 'exhibitor_employee', 'visitor'];
/** At most this many personnel records are considered by an exact-name lookup. */
const NAME_CANDIDATES = 50;

function personOrThrow(state: SimulatorState, raw: string | null): SeededPersonnel {
  const person = state.personnelById.get(numericId('personnel_id', raw ?? undefined));
  if (!person) throw notFound('Personnel not found');
  return person;
}

function scopeOf(raw: string | null): string {
  if (raw === null) return 'all';
  if (!SCOPES.includes(raw)) throw badRequest('attendance_scope must be all, exhibitor_employee or visitor');
  return raw;
}

function inScope(identity: PersonnelIdentity[], scope: string): boolean {
  if (scope === 'exhibitor_employee') return identity.includes('exhibitor_employee');
  if (scope === 'visitor') return !identity.includes('exhibitor_employee') && identity.includes('visitor');
  return identity.length > 0;
}

/** Events of the given people, deduplicated, with their attendance identities combined per event. */
function relatedEvents(state: SimulatorState, people: SeededPersonnel[], scope: string) {
  const byEvent = new Map<string, { event: SeededEvent; identity: Set<PersonnelIdentity> }>();
  for (const person of people) {
    for (const { eventId, identity } of person.attendance) {
      const event = state.eventsById.get(eventId);
      if (!event) continue;
      const entry = byEvent.get(event.id) ?? { event, identity: new Set<PersonnelIdentity>() };
      for (const i of identity) entry.identity.add(i);
      byEvent.set(event.id, entry);
    }
  }
  return [...byEvent.values()]
    .map(({ event, identity }) => ({ event, identity: [...identity].sort() }))
    .filter(({ identity }) => inScope(identity, scope))
    .sort(
      (a, b) => a.event.dateStart.localeCompare(b.event.dateStart) || a.event.id.localeCompare(b.event.id),
    );
}

const relatedItem = ({ event, identity }: { event: SeededEvent; identity: PersonnelIdentity[] }) => ({
  ...eventItem(event),
  attendance_identity: identity,
});

const listPersonnel: Route = {
  method: 'GET',
  pattern: '/external/personnel/list',
  handle({ state, account, query }) {
    const event = resolveEvent(state, query.get('event_id'));
    const request = pageRequest(query, 20, 100);
    const exhibitorId = query.get('exhibitor_id')
      ? numericId('exhibitor_id', query.get('exhibitor_id'))
      : undefined;
    const department = optionalQuery(query, 'department', 100);
    const level = optionalQuery(query, 'level', 50);
    const search = optionalQuery(query, 'search_query', 200);
    const sources = multiQuery(query, 'sourceType');
    const unknownSource = sources.find((s) => !SOURCE_TYPES.some((t) => sameText(t, s)));
    if (unknownSource) throw badRequest('sourceType must be exhibitor, social or visitors');
    const matches = event.personnelIds
      .map((id) => state.personnelById.get(id))
      .filter((p): p is SeededPersonnel => p !== undefined)
      .filter(
        (p) =>
          (!exhibitorId || p.exhibitorId === exhibitorId) &&
          (!department || sameText(p.department, department)) &&
          (!level || sameText(p.seniorityLevel, level)) &&
          (!search || includesText(p.title, search) || includesText(p.fullName, search)) &&
          (sources.length === 0 || sources.some((s) => p.sourceType.some((t) => sameText(t, s)))),
      );
    const page = previewPage(matches, request, account.unlockedEvents.has(event.id), 'unlock_event_contacts');
    return ok({ ...page, items: page.items.map((p) => contactItem(p, account)) });
  },
};

const personnelProfile: Route = {
  method: 'GET',
  pattern: '/external/personnel/profile',
  handle({ state, account, query }) {
    return ok(contactItem(personOrThrow(state, query.get('personnel_id')), account));
  },
};

const personnelEvents: Route = {
  method: 'GET',
  pattern: '/external/personnel/events',
  handle({ state, query }) {
    const person = personOrThrow(state, query.get('personnel_id'));
    const scope = scopeOf(query.get('attendance_scope'));
    const page = paginate(relatedEvents(state, [person], scope), pageRequest(query));
    return ok({ ...page, items: page.items.map(relatedItem) });
  },
};

const eventsByLinkedin: Route = {
  method: 'GET',
  pattern: '/external/personnel/events/by-linkedin',
  handle({ state, account, query }) {
    const url = requiredQuery(query, 'linkedin_url', 500).replace(/\/+$/, '').toLowerCase();
    const person = state.seed.personnel.find((p) => p.linkedinUrl.toLowerCase() === url);
    if (!person) throw notFound('No personnel matches this LinkedIn URL');
    const scope = scopeOf(query.get('attendance_scope'));
    const page = paginate(relatedEvents(state, [person], scope), pageRequest(query));
    return ok({
      personnel: contactItem(person, account),
      events: { ...page, items: page.items.map(relatedItem) },
    });
  },
};

const eventsByName: Route = {
  method: 'GET',
  pattern: '/external/personnel/events/by-name',
  concurrencyLimit: 10,
  handle(ctx) {
    const { state, account, query, today } = ctx;
    if (!account.subscribed) {
      throw new SimError(403, 'SUBSCRIPTION_REQUIRED', 'An active paid subscription is required');
    }
    const name = requiredQuery(query, 'person_name', 200);
    const scope = scopeOf(query.get('attendance_scope'));
    const from = optionalDate(query, 'date_start_from') ?? today;
    const to = optionalDate(query, 'date_start_to');
    const request = pageRequest(query);
    const people = state.seed.personnel.filter((p) => sameText(p.fullName, name)).slice(0, NAME_CANDIDATES);
    const events = relatedEvents(state, people, scope).filter(
      ({ event }) => event.dateStart >= from && (!to || event.dateStart <= to),
    );
    if (events.length > 0) ctx.charge('search_personnel_events_by_name', SEARCH_CREDITS);
    const page = paginate(events, request);
    return ok({ ...page, items: page.items.map(relatedItem) });
  },
};

export function personnelIds(body: Record<string, unknown>, max = 2000): string[] {
  const ids = body.personnel_ids;
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((i) => typeof i === 'string')) {
    throw badRequest('personnel_ids must be a non-empty array of strings');
  }
  if (ids.length > max) {
    throw new SimError(
      422,
      'LEAD_SELECTION_LIMIT_EXCEEDED',
      `Selected leads limit exceeded: requested ${ids.length}, limit ${max}`,
    );
  }
  return ids;
}

export const personnelRoutes: Route[] = [
  listPersonnel,
  personnelProfile,
  eventsByLinkedin,
  eventsByName,
  personnelEvents,
];
