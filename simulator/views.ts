import { linkedinActivityOf, type OutreachJob } from './jobs.ts';
import type { SeededEvent, SeededExhibitor, SeededPersonnel } from './seed.ts';
import type { Account, SimulatorState } from './state.ts';

export const DATA_SOURCE = 'Lensmor';

export function eventItem(e: SeededEvent) {
  return {
    id: e.id,
    eventId: e.eventId,
    name: e.name,
    nickname: e.nickname,
    description: e.description,
    url: e.url,
    dateStart: e.dateStart,
    dateEnd: e.dateEnd,
    venue: e.venue,
    city: e.city,
    region: e.region,
    country: e.country,
    exhibitorCount: e.exhibitorCount,
    hasVisitors: e.hasVisitors,
    sponsorMatchStarred: e.sponsorMatchStarred,
    image: e.image,
    dataSource: DATA_SOURCE,
  };
}

export function eventDetail(e: SeededEvent, today: string) {
  return {
    ...eventItem(e),
    latitude: null,
    longitude: null,
    attendeeCount: e.attendeeCount,
    priceLower: null,
    priceUpper: null,
    eventType: e.eventType,
    categories: e.topics.map((name, i) => ({ id: String(i + 1), name })),
    topics: e.topics,
    topicsCount: e.topics.length,
    verified: 1,
    future: e.dateStart >= today ? 1 : 0,
    historic: e.dateEnd < today ? 1 : 0,
    historicEvent: null,
    personnelCount: e.personnelCount,
    eventTypes: [{ name: e.eventType }],
  };
}

export const eventIdentity = (e: SeededEvent) => ({ id: e.id, eventId: e.eventId, name: e.name });

/** Exhibitors of one event ordered by their match for the caller (the seed's matchScore). */
export function rankedExhibitors(state: SimulatorState, event: SeededEvent): SeededExhibitor[] {
  return event.exhibitorIds
    .map((id) => state.exhibitorsById.get(id))
    .filter((x): x is SeededExhibitor => x !== undefined)
    .sort((a, b) => b.matchScore - a.matchScore || a.id.localeCompare(b.id));
}

export const recommendedCount = (total: number): number => Math.ceil(total * 0.3);

export function matchTier(score: number): string {
  return score >= 0.8 ? 'top_match' : score >= 0.6 ? 'strong_match' : 'qualifying_match';
}

export function exhibitorBase(x: SeededExhibitor, state: SimulatorState) {
  return {
    id: x.id,
    companyName: x.companyName,
    domain: x.domain,
    description: x.description,
    website: x.website,
    industry: x.industry,
    employeeCount: x.employeeCount,
    country: x.country,
    logo: x.logo,
    linkedinUrl: x.linkedinUrl,
    fundingRound: x.fundingRound,
    matched_event_ids: x.eventIds.map((id) => state.eventsById.get(id)?.eventId ?? id),
    techStacks: x.techStacks,
    buyingSignalTags: [],
    buyingSignalStatus: null,
    ...(x.categories.length > 0 ? { categories: x.categories } : {}),
  };
}

/** An exhibitor as listed for one event, with the caller's recommendation fields. */
export function scopedExhibitor(
  x: SeededExhibitor,
  event: SeededEvent,
  rank: number,
  total: number,
  unlocked: boolean,
) {
  const recommended = rank <= recommendedCount(total);
  return {
    id: x.id,
    companyName: x.companyName,
    domain: x.domain,
    description: x.description,
    website: x.website,
    industry: x.industry,
    employeeCount: x.employeeCount,
    country: x.country,
    logo: x.logo,
    linkedinUrl: x.linkedinUrl,
    fundingRound: x.fundingRound,
    matched_event_ids: [event.eventId],
    isRecommended: recommended,
    recommendationRank: recommended ? rank : null,
    matchStatus: unlocked ? 'ready' : 'pending_unlock',
    matchScore: unlocked ? x.matchScore : null,
    matchTier: unlocked ? matchTier(x.matchScore) : null,
    matchReason:
      unlocked && recommended ? `Sells ${x.industry.toLowerCase()} solutions your profile targets` : null,
    techStacks: x.techStacks,
    buyingSignalTags: [],
    buyingSignalStatus: null,
    dataSource: DATA_SOURCE,
    ...(x.categories.length > 0 ? { categories: x.categories } : {}),
  };
}

/** Why an exhibitor is recommended, in words that follow its tier (the OpenAPI's example: "Strong fit…"). */
function recommendationReason(x: SeededExhibitor): string {
  const tier = matchTier(x.matchScore);
  const tags = x.categories.length > 0 ? `, tagged ${x.categories.join(' and ')}` : '';
  if (tier === 'top_match')
    return `Strong fit for the active profile: a ${x.industry} company of ${x.companySize} employees${tags}.`;
  if (tier === 'strong_match')
    return `Sells into ${x.industry.toLowerCase()}, which your profile targets${tags}.`;
  return `Qualifies on its industry (${x.industry}); fewer signals match your profile.`;
}

export function recommendedExhibitor(x: SeededExhibitor, rank: number) {
  return {
    id: x.id,
    companyName: x.companyName,
    description: x.description,
    logo: x.logo,
    website: x.website,
    country: x.country,
    industry: x.industry,
    categories: x.categories,
    employeeCount: x.employeeCount,
    companySize: x.companySize,
    fundingRound: x.fundingRound,
    techStacks: x.techStacks,
    isRecommended: true,
    recommendationRank: rank,
    matchStatus: 'ready',
    matchScore: x.matchScore,
    matchTier: matchTier(x.matchScore),
    reason: recommendationReason(x),
  };
}

export function contactUnlockStatus(p: SeededPersonnel, account: Account): string {
  const result = account.emails.get(p.id);
  if (result) return result;
  return account.emailPending.has(p.id) ? 'unlocking' : 'locked';
}

function phoneUnlockStatus(p: SeededPersonnel, account: Account): string | null {
  const result = account.phones.get(p.id);
  if (result) return result === 'unlocked' ? 'ready' : 'failed';
  return account.phonePending.has(p.id) ? 'processing' : null;
}

/** The person's most recent outreach drafts for this key, whatever the event. */
function latestOutreach(p: SeededPersonnel, account: Account): OutreachJob | undefined {
  let latest: OutreachJob | undefined;
  for (const job of account.outreach.values()) {
    if (job.personnelId === p.id && (!latest || job.createdAt >= latest.createdAt)) latest = job;
  }
  return latest;
}

/** LinkedIn activity as this key sees it; contact search always answers null for both (OpenAPI). */
function linkedinFields(p: SeededPersonnel, account: Account, shown: boolean) {
  const job = shown ? account.linkedinActivity.get(p.id) : undefined;
  return {
    linkedinActivity: job?.status === 'ready' ? linkedinActivityOf(p, job) : null,
    linkedinActivityStatus: job?.status ?? null,
  };
}

/** A personnel record as this key sees it: email and phone only once unlocked by this key. */
export function contactItem(p: SeededPersonnel, account: Account, options: { linkedin?: boolean } = {}) {
  const outreach = latestOutreach(p, account);
  return {
    id: p.id,
    fullName: p.fullName,
    title: p.title,
    department: p.department,
    seniorityLevel: p.seniorityLevel,
    linkedinUrl: p.linkedinUrl,
    companyName: p.companyName,
    sourceType: p.sourceType,
    email: account.emails.get(p.id) === 'unlocked' ? p.email : null,
    phone: account.phones.get(p.id) === 'unlocked' ? p.phone : null,
    contactUnlockStatus: contactUnlockStatus(p, account),
    phoneUnlockStatus: phoneUnlockStatus(p, account),
    ...linkedinFields(p, account, options.linkedin ?? true),
    eventCount: p.attendance.length,
    outreachMessageStatus: outreach?.status ?? null,
    outreachMessageChannels: outreach?.channels ?? [],
  };
}
