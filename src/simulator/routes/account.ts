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

const applyRecommendedEvents: Route = {
  method: 'POST',
  pattern: '/external/profile-matching/actions/apply-recommended-events/paged',
  handle({ state, account, body, today }) {
    const input = bodyRecord(body);
    if (input.company_url === undefined && input.target_audience === undefined) {
      throw badRequest('company_url or target_audience is required');
    }
    const request = pageRequest(input);
    const country = typeof input.country === 'string' ? input.country : undefined;
    const from = typeof input.dateStartFrom === 'string' ? input.dateStartFrom : today;
    const to = typeof input.dateStartTo === 'string' ? input.dateStartTo : undefined;
    const matches = state.seed.events
      .filter(
        (e) =>
          e.dateStart >= from && (!to || e.dateStart <= to) && (!country || includesText(e.country, country)),
      )
      .sort((a, b) => b.fit.score - a.fit.score || a.id.localeCompare(b.id));
    const page = paginate(matches, request);
    const offset = (request.page - 1) * request.pageSize;
    return created({
      ...page,
      items: page.items.map((e, i) => ({
        ...eventDetail(e, today),
        matched_exhibitor_count: Math.round(
          e.exhibitorCount * (e.fit.breakdown.matched_exhibitor_density / 10),
        ),
        matched_personnel_count: Math.round(e.personnelCount * (e.fit.breakdown.profile_match / 10)),
        match_score: Math.round(e.fit.score * 10) / 100,
        unlocked: account.unlockedEvents.has(e.id),
        rank: offset + i + 1,
        relevanceReason: `${e.fit.recommendation.replace('_', ' ')} for your profile`,
        createTime: String(Date.parse(`${today}T00:00:00Z`)),
        updateTime: String(Date.parse(`${today}T00:00:00Z`)),
      })),
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
