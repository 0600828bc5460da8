import { badRequest, notFound } from '../errors.ts';
import {
  bodyRecord,
  includesText,
  multiQuery,
  numericId,
  optionalInteger,
  optionalQuery,
  pageRequest,
  paginate,
  resolveEvent,
  sameText,
} from '../params.ts';
import { previewPage } from '../preview.ts';
import { created, ok, type Route, type RouteContext } from '../routing.ts';
import type { SeededEvent, SeededExhibitor, SeededPersonnel } from '../seed.ts';
import type { SimulatorState } from '../state.ts';
import { contactItem, eventItem, exhibitorBase, rankedExhibitors, scopedExhibitor } from '../views.ts';

export const SEARCH_CREDITS = 50;
const ATTENDANCE_SCOPES = ['all', 'exhibitor', 'visitor'];

function companyName(body: Record<string, unknown>): string {
  const value = body.company_name;
  if (typeof value !== 'string' || value.trim() === '')
    throw badRequest('company_name must be a non-empty string');
  if (value.length > 200) throw badRequest('company_name must be at most 200 characters');
  return value.trim();
}

function matchingCompanies(state: SimulatorState, name: string): SeededExhibitor[] {
  return state.seed.exhibitors.filter((x) => includesText(x.companyName, name));
}

function exhibitorOrThrow(state: SimulatorState, raw: string | null): SeededExhibitor {
  const exhibitor = state.exhibitorsById.get(numericId('exhibitor_id', raw ?? undefined));
  if (!exhibitor) throw notFound('Exhibitor not found');
  return exhibitor;
}

function attendanceScope(raw: unknown): string {
  if (raw === undefined) return 'all';
  if (typeof raw !== 'string' || !ATTENDANCE_SCOPES.includes(raw)) {
    throw badRequest('attendance_scope must be all, exhibitor or visitor');
  }
  return raw;
}

const searchTarget = (route: string) => (ctx: RouteContext) => {
  const name = bodyRecord(ctx.body).company_name;
  return typeof name === 'string' ? `${route}:${name.trim().toLowerCase()}` : undefined;
};

interface PersonnelFilters {
  jobTitles: string[];
  levels: string[];
  departments: string[];
}

function personnelFilters(query: URLSearchParams): PersonnelFilters {
  return {
    jobTitles: multiQuery(query, 'jobTitle'),
    levels: multiQuery(query, 'managementLevel'),
    departments: multiQuery(query, 'department'),
  };
}

const filtersPeople = (f: PersonnelFilters): boolean =>
  f.jobTitles.length + f.levels.length + f.departments.length > 0;

const personMatches = (p: SeededPersonnel, f: PersonnelFilters): boolean =>
  (f.jobTitles.length === 0 || f.jobTitles.some((t) => includesText(p.title, t))) &&
  (f.levels.length === 0 || f.levels.some((l) => sameText(p.seniorityLevel, l))) &&
  (f.departments.length === 0 || f.departments.some((d) => sameText(p.department, d)));

/** The event's people working for one exhibitor and matching the personnel filters. */
function peopleOf(
  state: SimulatorState,
  event: SeededEvent,
  exhibitor: SeededExhibitor,
  f: PersonnelFilters,
) {
  return event.personnelIds
    .map((id) => state.personnelById.get(id))
    .filter((p): p is SeededPersonnel => p?.exhibitorId === exhibitor.id && personMatches(p, f));
}

/** Company filters on the exhibitor; personnel filters keep exhibitors with at least one matching person. */
function exhibitorMatches(state: SimulatorState, event: SeededEvent, query: URLSearchParams) {
  const keyword = optionalQuery(query, 'keyword', 200);
  const country = optionalQuery(query, 'country', 100);
  const categories = multiQuery(query, 'category');
  const industries = multiQuery(query, 'industry');
  const people = personnelFilters(query);
  return (x: SeededExhibitor): boolean =>
    (!keyword || includesText(x.companyName, keyword) || includesText(x.description, keyword)) &&
    (!country || sameText(x.country, country)) &&
    (categories.length === 0 || categories.some((c) => x.categories.some((xc) => sameText(xc, c)))) &&
    (industries.length === 0 || industries.some((i) => sameText(x.industry, i))) &&
    (!filtersPeople(people) || peopleOf(state, event, x, people).length > 0);
}

const listExhibitors: Route = {
  method: 'GET',
  pattern: '/external/exhibitors/list',
  handle({ state, account, query }) {
    const event = resolveEvent(state, query.get('event_id'));
    const request = pageRequest(query, 50, 100);
    const personnelLimit =
      optionalInteger('personnelLimit', query.get('personnelLimit') ?? undefined, 0, 100) ?? 0;
    const ranked = rankedExhibitors(state, event);
    // Listed as a directory, by name; the caller's recommendation rank is a field of each row.
    const listed = [...ranked].sort(
      (a, b) => a.companyName.localeCompare(b.companyName) || a.id.localeCompare(b.id),
    );
    const matches = listed.filter(exhibitorMatches(state, event, query));
    const unlocked = account.unlockedEvents.has(event.id);
    const page = previewPage(matches, request, unlocked, 'unlock_event_exhibitors');
    const people = personnelFilters(query);
    const items = page.items.map((x) => {
      const item = scopedExhibitor(x, event, ranked.indexOf(x) + 1, ranked.length, unlocked);
      if (personnelLimit === 0) return item;
      const nested = peopleOf(state, event, x, people).slice(0, personnelLimit);
      return { ...item, personnel: nested.map((p) => contactItem(p, account)) };
    });
    return ok({
      ...page,
      items,
      recommendationProcessing: event.recommendationProcessing,
      recommendationProcessingFeature: event.recommendationProcessing ? 'exhibitor_recommendation' : null,
    });
  },
};

const searchExhibitors: Route = {
  method: 'POST',
  pattern: '/external/exhibitors/search',
  handle({ state, body }) {
    const input = bodyRecord(body);
    const { company_url: url, target_audience: audience } = input;
    if (url === undefined && audience === undefined)
      throw badRequest('company_url or target_audience is required');
    if (url !== undefined && (typeof url !== 'string' || !isHttpUrl(url))) {
      throw badRequest('company_url must be a valid http(s) URL');
    }
    if (audience !== undefined && (typeof audience !== 'string' || audience.trim() === '')) {
      throw badRequest('target_audience must be a non-empty string');
    }
    const request = pageRequest(input);
    const words = [
      typeof audience === 'string' ? audience : '',
      typeof url === 'string' ? new URL(url).hostname : '',
    ]
      .join(' ')
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w.length > 3);
    // A company's own site finds that company first (account watch resolves domains this way).
    const host = typeof url === 'string' ? new URL(url).hostname.toLowerCase().replace(/^www\./, '') : '';
    const owner = state.seed.exhibitors.filter((x) => x.domain === host);
    const related = state.seed.exhibitors.filter(
      (x) =>
        x.domain !== host &&
        words.some(
          (w) =>
            includesText(x.industry, w) || includesText(x.description, w) || includesText(x.companyName, w),
        ),
    );
    const page = paginate([...owner, ...related], request);
    return created({ ...page, items: page.items.map((x) => exhibitorBase(x, state)) });
  },
};

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
  } catch {
    return false;
  }
}

const searchByCompanyName: Route = {
  method: 'POST',
  pattern: '/external/exhibitors/search-by-company-name',
  lockTarget: searchTarget('company-search'),
  handle(ctx) {
    const input = bodyRecord(ctx.body);
    const name = companyName(input);
    const request = pageRequest(input);
    const matches = matchingCompanies(ctx.state, name);
    if (matches.length > 0) ctx.charge('search_exhibitors_by_company_name', SEARCH_CREDITS);
    const page = paginate(matches, request);
    return created({ ...page, items: page.items.map((x) => exhibitorBase(x, ctx.state)) });
  },
};

const searchEvents: Route = {
  method: 'POST',
  pattern: '/external/exhibitors/search-events',
  lockTarget: searchTarget('event-search'),
  handle(ctx) {
    const input = bodyRecord(ctx.body);
    const name = companyName(input);
    const request = pageRequest(input);
    const starred = input.sponsor_match_starred;
    if (starred !== undefined && starred !== 0 && starred !== 1)
      throw badRequest('sponsor_match_starred must be 0 or 1');
    const scope = attendanceScope(input.attendance_scope);
    const companies = matchingCompanies(ctx.state, name);
    const events = scope === 'visitor' ? [] : eventsOf(ctx.state, companies);
    const matches = events.filter(
      ({ event }) => starred === undefined || event.sponsorMatchStarred === starred,
    );
    if (matches.length > 0) ctx.charge('search_exhibitor_events', SEARCH_CREDITS);
    const page = paginate(matches, request);
    return created({
      ...page,
      items: page.items.map(({ event, exhibitors }) => ({
        ...eventItem(event),
        matchedExhibitors: exhibitors.map((x) => ({ id: x.id, companyName: x.companyName })),
        attendance_identity: ['exhibitor'],
      })),
    });
  },
};

function eventsOf(state: SimulatorState, companies: SeededExhibitor[]) {
  const byEvent = new Map<string, { event: SeededEvent; exhibitors: SeededExhibitor[] }>();
  for (const company of companies) {
    for (const id of company.eventIds) {
      const event = state.eventsById.get(id);
      if (!event) continue;
      const entry = byEvent.get(id) ?? { event, exhibitors: [] };
      entry.exhibitors.push(company);
      byEvent.set(id, entry);
    }
  }
  return [...byEvent.values()].sort((a, b) => a.event.dateStart.localeCompare(b.event.dateStart));
}

const exhibitorProfile: Route = {
  method: 'GET',
  pattern: '/external/exhibitors/profile',
  handle({ state, query }) {
    const exhibitor = exhibitorOrThrow(state, query.get('exhibitor_id'));
    const events = exhibitor.eventIds.flatMap((id) => {
      const e = state.eventsById.get(id);
      return e ? [{ id: e.id, eventId: e.eventId, name: e.name }] : [];
    });
    return ok({ ...exhibitorBase(exhibitor, state), events });
  },
};

const exhibitorEvents: Route = {
  method: 'GET',
  pattern: '/external/exhibitors/events',
  handle({ state, query }) {
    const exhibitor = exhibitorOrThrow(state, query.get('exhibitor_id'));
    const scope = attendanceScope(query.get('attendance_scope') ?? undefined);
    const request = pageRequest(query);
    const events = scope === 'visitor' ? [] : eventsOf(state, [exhibitor]);
    const page = paginate(events, request);
    return ok({
      ...page,
      items: page.items.map(({ event }) => ({ ...eventItem(event), attendance_identity: ['exhibitor'] })),
    });
  },
};

export const exhibitorRoutes: Route[] = [
  listExhibitors,
  searchExhibitors,
  searchByCompanyName,
  searchEvents,
  exhibitorProfile,
  exhibitorEvents,
];
