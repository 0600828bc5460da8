import * as z from 'zod';
import type { EisClient } from '../eis/index.ts';
import type { Logger } from '../platform/log.ts';
import { utcDate } from '../time/local-time.ts';
import type { FitScoreCache } from './ports/index.ts';
import { isServiceError, SERVICE_ERROR_CODE } from './ports/service.ts';

/** What a show's fit is read from: the service, and today's cached fit scores of its account. */
export interface ShowFitSources {
  eis: { events: Pick<EisClient['events'], 'fitScore'> };
  /** Today's fit scores of this service account, shared with the digests. */
  fitScores: Pick<FitScoreCache, 'get' | 'put'>;
  logger: Logger;
  now: () => Date;
}

/**
 * A fit as it is cached with its three factors (compare and the plan read it): the digest's two
 * numbers, which it reads from the same entry, and the breakdown. An entry the digest wrote from a
 * rank has no factors, so the fit is asked for again.
 */
const CachedFitSchema = z.object({
  score: z.number(),
  recommendation: z.string().nullable(),
  breakdown: z.object({
    profile_match: z.number(),
    matched_exhibitor_density: z.number(),
    event_scale: z.number(),
  }),
});
export type ShowFit = z.infer<typeof CachedFitSchema>;

/**
 * A show's fit, from today's cache or the service (then cached). Null when the service gives none
 * just now; a revoked key is the user's to see, so it is thrown.
 */
export async function showFit(sources: ShowFitSources, eventId: string): Promise<ShowFit | null> {
  const day = utcDate(sources.now());
  const cached = await sources.fitScores.get(eventId, day).catch((error: unknown) => {
    sources.logger.warn('cached fit score unreadable', { eventId, error });
    return null;
  });
  const parsed = CachedFitSchema.safeParse(cached?.value);
  if (parsed.success) return parsed.data;
  try {
    const { score, recommendation, breakdown } = await sources.eis.events.fitScore(eventId);
    const fit = { score, recommendation, breakdown: CachedFitSchema.shape.breakdown.parse(breakdown) };
    await sources.fitScores.put(eventId, day, fit).catch((error: unknown) => {
      sources.logger.warn('fit score not cached', { eventId, error });
    });
    return fit;
  } catch (error) {
    if (isServiceError(error, SERVICE_ERROR_CODE.unauthorized)) throw error;
    return null;
  }
}
