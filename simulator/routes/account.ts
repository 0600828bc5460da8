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
import { matchShow, profileWords, type ShowMatch } from '../profile-match.ts';
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

/** Of a count, the share that matches the profile: more for a show the words found, some for a good fit. */
const matchedShare = (count: number, match: ShowMatch, factor: number): number =>
  Math.round(count * Math.min(1, 0.04 + 0.5 * match.relevance + 0.25 * (factor / 10)));

const quoted = (words: readonly string[]): string => words.map((w) => `“${w}”`).join(', ');

/**
 * The scorer's reason: the profile's words the show holds, else its strongest fit factor, as varied
 * as the service's. A show the words found always has one; of the others, one in six gets `null` (no
 * reason generated) and one in six none at all (the OpenAPI: "otherwise omitted or null").
 */
function relevanceReason(e: SeededEvent, match: ShowMatch, exhibitors: number, people: number) {
  const slot = Number(e.id) % 6;
  if (match.matched.length === 0 && slot === 4) return null;
  if (match.matched.length === 0 && slot === 5) return undefined;
  const topic = e.topics[0] ?? 'main';
  const focus = e.description.split(': ')[1]?.replace(/\.$/, '') ?? topic;
  if (match.matched.length > 0) {
    return `Matches ${quoted(match.matched.slice(0, 3))} in its focus on ${focus}: ${exhibitors} of its ${e.exhibitorCount} exhibitors look like companies you sell to.`;
  }
  const { profile_match: profile, matched_exhibitor_density: density, event_scale: scale } = e.fit.breakdown;
  if (scale > profile && scale > density) {
    return `Little here matches your profile; one of the larger ${topic} shows in ${e.country}, with ${e.exhibitorCount} exhibitors and about ${e.attendeeCount.toLocaleString('en-US')} attendees.`;
  }
  return `Little here matches your profile: a ${topic} ${e.eventType.toLowerCase()} where ${people} of its people hold roles like those you target.`;
}

function recommendedEvent(e: SeededEvent, match: ShowMatch, rank: number, unlocked: boolean, today: string) {
  const stamp = String(Date.parse(`${today}T00:00:00Z`));
  const exhibitors = matchedShare(e.exhibitorCount, match, e.fit.breakdown.matched_exhibitor_density);
  const people = matchedShare(e.personnelCount, match, e.fit.breakdown.profile_match);
  return {
    ...eventDetail(e, today),
    declaredExpectedAttendees: Math.round(e.attendeeCount * 0.8),
    quality: e.quality,
    sourceTags: e.hasVisitors ? ['visitors'] : [],
    previewPersonnelCount: Math.min(e.personnelCount, 50),
    matched_exhibitor_count: exhibitors,
    matched_personnel_count: people,
    match_score: match.score,
    unlocked,
    rank,
    relevanceReason: relevanceReason(e, match, exhibitors, people),
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
    const words = profileWords(input, state.seed.exhibitors);
    const matches = state.seed.events
      .filter(recommendationFilter(input, today))
      .map((event) => ({ event, match: matchShow(event, words) }))
      .sort(
        (a, b) =>
          b.match.score - a.match.score ||
          b.event.fit.score - a.event.fit.score ||
          a.event.id.localeCompare(b.event.id),
      );
    const page = paginate(matches, request);
    const offset = (request.page - 1) * request.pageSize;
    return created({
      ...page,
      items: page.items.map(({ event, match }, i) =>
        recommendedEvent(event, match, offset + i + 1, account.unlockedEvents.has(event.id), today),
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
