import { badRequest } from '../errors.ts';
import {
  bodyRecord,
  includesText,
  multiQuery,
  optionalInteger,
  optionalQuery,
  pageRequest,
  paginate,
  resolveEvent,
} from '../params.ts';
import { created, ok, type Route } from '../routing.ts';
import type { SeededEvent } from '../seed.ts';
import { eventDetail, rankedExhibitors, recommendedCount, recommendedExhibitor } from '../views.ts';

const creditsBalance: Route = {
  method: 'GET',
  pattern: '/external/credits/balance',
  handle: ({ state, account }) => ok(state.creditBalance(account)),
};

/** Not in the OpenAPI; shape from the spec's Agent file item. Newest first. */
const agentFiles: Route = {
  method: 'GET',
  pattern: '/external/agent-files/list',
  handle({ state, query }) {
    const files = [...state.seed.agentFiles].sort((a, b) => Number(b.createdAt) - Number(a.createdAt));
    return ok(paginate(files, pageRequest(query)));
  },
};

const recommendedExhibitors: Route = {
  method: 'GET',
  pattern: '/external/profile-matching/recommendations/exhibitors',
  handle({ state, query }) {
    const event = resolveEvent(state, query.get('event_id'));
    const request = pageRequest(query);
    const locations = multiQuery(query, 'location');
    const search = optionalQuery(query, 'searchQuery', 200);
    const names = query
      .getAll('exhibitorName')
      .map((n) => n.trim().toLowerCase())
      .filter((n) => n !== '');
    const categories = multiQuery(query, 'category').map((c) => c.toLowerCase());
    const industries = multiQuery(query, 'industry').map((i) => i.toLowerCase());
    const min = optionalInteger('employeesMin', query.get('employeesMin') ?? undefined);
    const max = optionalInteger('employeesMax', query.get('employeesMax') ?? undefined);
    if (min !== undefined && max !== undefined && min > max)
      throw badRequest('employeesMin must not exceed employeesMax');
    const ranked = rankedExhibitors(state, event);
    const top = ranked.slice(0, recommendedCount(ranked.length)).map((x, i) => ({ x, rank: i + 1 }));
    const matches = top.filter(
      ({ x }) =>
        (locations.length === 0 || locations.some((l) => includesText(x.country, l))) &&
        (!search || includesText(x.companyName, search) || includesText(x.description, search)) &&
        (names.length === 0 || names.includes(x.companyName.toLowerCase())) &&
        (categories.length === 0 || x.categories.some((c) => categories.includes(c.toLowerCase()))) &&
        (industries.length === 0 || industries.includes(x.industry.toLowerCase())) &&
        (min === undefined || x.employeeCount >= min) &&
        (max === undefined || x.employeeCount <= max),
    );
    const page = paginate(matches, request);
    return ok({
      ...page,
      items: page.items.map(({ x, rank }) => recommendedExhibitor(x, rank)),
      recommendationProcessing: event.recommendationProcessing,
      code: null,
      show_refresh_hint: event.recommendationProcessing,
    });
  },
};

const EVENT_TYPE_IDS: Record<number, string> = { 1: 'Trade Show', 2: 'Conference', 3: 'Exhibition' };
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function text(input: Record<string, unknown>, name: string, max = 500): string | undefined {
  const value = input[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > max)
    throw badRequest(`${name} must be a string of at most ${max}`);
  return value.trim() || undefined;
}

function date(input: Record<string, unknown>, name: string): string | undefined {
  const value = input[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !DATE.test(value)) throw badRequest(`${name} must be a date (YYYY-MM-DD)`);
  return value;
}

/** Arrays and comma-separated strings are both accepted (the OpenAPI: "normalized"). */
function list(input: Record<string, unknown>, name: string): string[] {
  const value = input[name];
  if (value === undefined) return [];
  const parts = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(parts) || !parts.every((v) => typeof v === 'string')) {
    throw badRequest(`${name} must be an array of strings`);
  }
  return parts.map((v: string) => v.trim()).filter((v) => v !== '');
}

function profileContext(input: Record<string, unknown>): void {
  const url = text(input, 'company_url');
  const audience = text(input, 'target_audience', 2000);
  if (url === undefined && audience === undefined)
    throw badRequest('company_url or target_audience is required');
  for (const name of ['company_url', 'linkedin_url']) {
    const value = text(input, name);
    if (value !== undefined && !/^https?:\/\/[^\s/]+\.[^\s]+$/i.test(value)) {
      throw badRequest(`${name} must be a valid http(s) URL`);
    }
  }
  optionalInteger('timeout_ms', input.timeout_ms, 60_000, 3_600_000);
}

/** Every filter of the ProfileMatchingBody, as one predicate over events. */
function recommendationFilter(input: Record<string, unknown>, today: string) {
  const city = text(input, 'city');
  const region = text(input, 'region');
  const country = text(input, 'country');
  const categories = list(input, 'category');
  const typeIds = input.eventTypeIds;
  if (typeIds !== undefined && (!Array.isArray(typeIds) || !typeIds.every((t) => Number.isInteger(t)))) {
    throw badRequest('eventTypeIds must be an array of integers');
  }
  const types = ((typeIds ?? []) as number[]).map((t) => EVENT_TYPE_IDS[t] ?? `type ${t}`);
  const future = optionalInteger('future', input.future, 0, 1);
  const from = date(input, 'dateStartFrom') ?? (future === 0 ? undefined : today);
  const to = date(input, 'dateStartTo');
  const min = optionalInteger('attendeeCountMin', input.attendeeCountMin);
  const max = optionalInteger('attendeeCountMax', input.attendeeCountMax);
  if (min !== undefined && max !== undefined && min > max)
    throw badRequest('attendeeCountMin exceeds attendeeCountMax');
  return (e: SeededEvent): boolean =>
    (!city || includesText(e.city, city)) &&
    (!region || includesText(e.region, region)) &&
    (!country || includesText(e.country, country)) &&
    (categories.length === 0 || categories.some((c) => e.topics.some((t) => includesText(t, c)))) &&
    (types.length === 0 || types.includes(e.eventType)) &&
    (future === undefined || e.dateStart >= today === (future === 1)) &&
    (!from || e.dateStart >= from) &&
    (!to || e.dateStart <= to) &&
    (min === undefined || e.attendeeCount >= min) &&
    (max === undefined || e.attendeeCount <= max);
}

/**
 * The scorer's reason, led by the event's strongest fit factor, as varied as the service's. One
 * event in six gets `null` (no reason generated) and one in six none at all (the OpenAPI: "otherwise
 * omitted or null").
 */
function relevanceReason(e: SeededEvent, exhibitors: number, people: number): string | null | undefined {
  const slot = Number(e.id) % 6;
  if (slot === 4) return null;
  if (slot === 5) return undefined;
  const { profile_match: profile, matched_exhibitor_density: density, event_scale: scale } = e.fit.breakdown;
  const topic = e.topics[0] ?? 'main';
  if (profile >= density && profile >= scale) {
    return `Your audience matches the ${topic} focus of this ${e.eventType.toLowerCase()}: ${people} of its people hold roles you target.`;
  }
  if (density >= scale) {
    return `${exhibitors} of its ${e.exhibitorCount} exhibitors look like companies you sell to.`;
  }
  return `One of the larger ${topic} shows in ${e.country}: ${e.exhibitorCount} exhibitors and about ${e.attendeeCount.toLocaleString('en-US')} attendees in ${e.city}.`;
}

function recommendedEvent(e: SeededEvent, rank: number, unlocked: boolean, today: string) {
  const stamp = String(Date.parse(`${today}T00:00:00Z`));
  const exhibitors = Math.round(e.exhibitorCount * (e.fit.breakdown.matched_exhibitor_density / 10));
  const people = Math.round(e.personnelCount * (e.fit.breakdown.profile_match / 10));
  return {
    ...eventDetail(e, today),
    declaredExpectedAttendees: Math.round(e.attendeeCount * 0.8),
    quality: e.quality,
    sourceTags: e.hasVisitors ? ['visitors'] : [],
    previewPersonnelCount: Math.min(e.personnelCount, 50),
    matched_exhibitor_count: exhibitors,
    matched_personnel_count: people,
    match_score: Math.round(e.fit.score * 10) / 100,
    unlocked,
    rank,
    relevanceReason: relevanceReason(e, exhibitors, people),
    createTime: stamp,
    updateTime: stamp,
  };
}

const applyRecommendedEvents: Route = {
  method: 'POST',
  pattern: '/external/profile-matching/actions/apply-recommended-events/paged',
  handle({ state, account, body, today }) {
    const input = bodyRecord(body);
    profileContext(input);
    const request = pageRequest(input);
    const matches = state.seed.events
      .filter(recommendationFilter(input, today))
      .sort((a, b) => b.fit.score - a.fit.score || a.id.localeCompare(b.id));
    const page = paginate(matches, request);
    const offset = (request.page - 1) * request.pageSize;
    return created({
      ...page,
      items: page.items.map((e, i) =>
        recommendedEvent(e, offset + i + 1, account.unlockedEvents.has(e.id), today),
      ),
      status: page.total === 0 ? 'completed_empty' : 'completed',
      condition_tags: {},
      profile_version: 1,
      active_result_version: 1,
      is_stale: false,
    });
  },
};

export const accountRoutes: Route[] = [
  creditsBalance,
  agentFiles,
  recommendedExhibitors,
  applyRecommendedEvents,
];
