import type { WatchExhibitor, WatchLookups, WatchShow } from '../../../domain/ports/index.ts';
import { seenShowOf } from '../../../domain/watch/index.ts';
import {
  type EisClient,
  listEventExhibitorMatches,
  listExhibitorEventsAll,
  searchExhibitorsByDomain,
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
