import * as z from 'zod';
import type { EisClient, EventItem } from '../eis/index.ts';
import type { Logger } from '../platform/log.ts';
import type { DigestFilters, FitScoreCache } from './ports/index.ts';
import { searchEvents } from './event-search.ts';
import { readRegion } from './regions.ts';
import { utcDate } from '../time/local-time.ts';

/*
 * The upcoming events a digest shows: the soonest matching its filters within the horizon, best fit
 * first. Fit scores come from one rank call (or fit scores one by one when ranking fails) and are
 * cached per event per day, for every digest of that day.
 */

/** How far ahead a digest looks for events, in days. */
export const HORIZON_DAYS = 90;
/** Events shown per digest, best fit first. */
export const MAX_DIGEST_EVENTS = 10;
/** Events considered for scoring: the soonest ones matching the filters. */
export const MAX_FIT_CANDIDATES = 20;
/** Fit-score calls per digest when ranking fails; scores cached today (by any digest) are free. */
export const MAX_FIT_CALLS = 10;
const DAY_MS = 24 * 60 * 60_000;

export interface DigestFit {
  /** Out of 10. */
  score: number;
  recommendation: string | null;
}

/** What the events of a digest are read from: read-only calls and the day's cached scores. */
export interface DigestEventSources {
  eis: { events: Pick<EisClient['events'], 'list' | 'rank' | 'fitScore'> };
  fitScores: Pick<FitScoreCache, 'get' | 'put'>;
  logger: Logger;
  now: () => Date;
}

/**
 * What is cached per event per day: the two numbers the digest shows, not the whole answer. A rank's
 * match score and a fit score are the same measure (the rank's is the fit score over ten), so either
 * serves every digest of the day, in any channel.
 */
const CachedFitSchema = z.object({ score: z.number(), recommendation: z.string().nullable() });

const addDays = (day: string, days: number) =>
  utcDate(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
const later = (a: string, b: string | undefined) => (b && b > a ? b : a);
const earlier = (a: string, b: string | undefined) => (b && b < a ? b : a);

/** Fit scores one by one, at most `MAX_FIT_CALLS`, failures left out: the fallback when ranking fails. */
async function fitScoresOf(events: readonly EventItem[], sources: DigestEventSources) {
  const scores = new Map<string, DigestFit>();
  for (const event of events.slice(0, MAX_FIT_CALLS)) {
    try {
      const fit = await sources.eis.events.fitScore(event.eventId);
      scores.set(event.eventId, { score: fit.score, recommendation: fit.recommendation });
    } catch (error) {
      sources.logger.warn('fit score unavailable for the digest', { eventId: event.eventId, error });
    }
  }
  return scores;
}

/** The events scored with one `events.rank` call (match scores 0–1, out of 10). Throws when ranking fails. */
async function rankScoresOf(events: readonly EventItem[], sources: DigestEventSources) {
  const { items } = await sources.eis.events.rank({ eventIds: events.map((event) => event.eventId) });
  const scores = new Map<string, DigestFit>();
  for (const item of items) {
    // The OpenAPI's scores are fractions (0.86); a score already out of 10 is taken as it is.
    const score = item.match_score <= 1 ? item.match_score * 10 : item.match_score;
    scores.set(item.event_id, { score: Math.min(10, Math.max(0, score)), recommendation: null });
  }
  return scores;
}

/**
 * The candidates best fit first (unscored ones after, soonest first: the list's order). Scores cached
 * today are read; the rest come from one rank call, or fit scores when ranking fails, and are cached.
 */
async function rankedOf(events: readonly EventItem[], sources: DigestEventSources) {
  const day = utcDate(sources.now());
  const cached = await Promise.all(
    events.map((event) =>
      sources.fitScores.get(event.eventId, day).catch((error: unknown) => {
        sources.logger.warn('cached fit score unreadable for the digest', { eventId: event.eventId, error });
        return null;
      }),
    ),
  );
  const scores = new Map<string, DigestFit>();
  events.forEach((event, index) => {
    const parsed = CachedFitSchema.safeParse(cached[index]?.value);
    if (parsed.success) scores.set(event.eventId, parsed.data);
  });
  const unscored = events.filter((event) => !scores.has(event.eventId));
  if (unscored.length > 0) {
    const fresh = await rankScoresOf(unscored, sources).catch((error: unknown) => {
      sources.logger.warn('ranking unavailable for the digest: fit scores instead', { error });
      return fitScoresOf(unscored, sources);
    });
    await Promise.all(
      [...fresh].map(async ([eventId, fit]) => {
        scores.set(eventId, fit);
        await sources.fitScores.put(eventId, day, fit).catch((error: unknown) => {
          sources.logger.warn('fit score not cached for the digest', { eventId, error });
        });
      }),
    );
  }
  return events
    .map((event, index) => ({ event, fit: scores.get(event.eventId) ?? null, index }))
    .sort((a, b) => (b.fit?.score ?? -1) - (a.fit?.score ?? -1) || a.index - b.index)
    .map(({ event, fit }) => ({ event, fit }));
}

/** The best-fitting upcoming events for `filters` from `today`, and how many more match. */
export async function upcomingEvents(filters: DigestFilters, today: string, sources: DigestEventSources) {
  const from = later(today, filters.from);
  const to = earlier(addDays(today, HORIZON_DAYS), filters.to);
  if (from > to) return { events: [], moreEvents: 0 };
  // Several words and a region are read as search reads them (event-search.ts), best matches first.
  const page = await searchEvents(
    (request) => sources.eis.events.list(request),
    {
      keywords: filters.keywords,
      region: filters.region === undefined ? undefined : readRegion(filters.region),
      country: filters.country,
      city: filters.city,
      dateStartFrom: from,
      dateStartTo: to,
    },
    1,
    MAX_FIT_CANDIDATES,
  );
  const candidates = page.items.slice(0, MAX_FIT_CANDIDATES);
  const ranked = candidates.length === 0 ? [] : await rankedOf(candidates, sources);
  const total = Math.max(page.total, page.items.length);
  return {
    events: ranked.slice(0, MAX_DIGEST_EVENTS),
    moreEvents: total - Math.min(ranked.length, MAX_DIGEST_EVENTS),
  };
}
