import type { WatchExhibitor, WatchLookups, WatchShow } from '../../../domain/ports/index.ts';
import { seenShowOf } from '../../../domain/watch/index.ts';
import {
  type EisClient,
  listEventExhibitorMatches,
  listExhibitorEventsAll,
  scanEventExhibitors,
  searchExhibitorsByDomain,
  type Semaphore,
} from '../../../eis/index.ts';

const identity = ({ id, companyName, domain, website, country }: WatchExhibitor): WatchExhibitor => ({
  id,
  companyName,
  domain: domain ?? null,
  website: website ?? null,
  country: country ?? null,
});

/** Account watch's look-ups over the service client: every one free (none is a priced operation). */
export function eisWatchLookups(eis: EisClient): WatchLookups {
  return {
    exhibitorShows: async (exhibitorId) =>
      (await listExhibitorEventsAll(eis.exhibitors, exhibitorId)).map(seenShowOf),
    upcomingShows: async (fromDay, limit): Promise<WatchShow[]> =>
      (await eis.events.list({ dateStartFrom: fromDay, pageSize: limit })).items.map(seenShowOf),
    showExhibitorMatches: async (eventId, keyword) =>
      (await listEventExhibitorMatches(eis.exhibitors, eventId, keyword)).exhibitors.map(identity),
    showExhibitors: async (eventId) => {
      const { exhibitors, complete, unseen } = await scanEventExhibitors(eis.exhibitors, eventId);
      return { exhibitors: exhibitors.map(identity), complete, unseen };
    },
    exhibitorName: async (exhibitorId) => (await eis.exhibitors.profile(exhibitorId)).companyName,
    exhibitorsByDomain: async (domain) =>
      (await searchExhibitorsByDomain(eis.exhibitors, domain)).map(identity),
    peopleAt: async (eventId, exhibitorId, limit) =>
      (await eis.personnel.list({ eventId, exhibitorId, pageSize: limit })).items.map((person) => ({
        personnelId: person.id,
        name: person.fullName,
        title: person.title ?? null,
      })),
    fitScore: async (eventId) => {
      const { score, recommendation } = await eis.events.fitScore(eventId);
      return { score, recommendation };
    },
  };
}

/**
 * The look-ups, each holding one of `slots` while it runs (the key's watch share, for every check of
 * the key in this process at once; the service's own 10 are held per request below it).
 */
export function limitedLookups(lookups: WatchLookups, slots: Semaphore): WatchLookups {
  const limited =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A) => {
      const release = await slots.acquire();
      try {
        return await call(...args);
      } finally {
        release();
      }
    };
  const { showExhibitors, exhibitorName } = lookups;
  return {
    exhibitorShows: limited(lookups.exhibitorShows),
    ...(exhibitorName ? { exhibitorName: limited(exhibitorName) } : {}),
    upcomingShows: limited(lookups.upcomingShows),
    showExhibitorMatches: limited(lookups.showExhibitorMatches),
    ...(showExhibitors ? { showExhibitors: limited(showExhibitors) } : {}),
    exhibitorsByDomain: limited(lookups.exhibitorsByDomain),
    peopleAt: limited(lookups.peopleAt),
    fitScore: limited(lookups.fitScore),
  };
}
