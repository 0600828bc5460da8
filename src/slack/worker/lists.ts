import { z } from 'zod';
import type { EisClient } from '../../eis/index.ts';
import {
  contactList,
  eventList,
  exhibitorList,
  fileList,
  peopleList,
  personEventList,
  recommendedExhibitorList,
  similarExhibitorList,
} from '../views/lists.ts';
import type { SlackMessage } from '../views/types.ts';
import { EventIdSchema, PersonnelIdSchema } from '../../domain/ids.ts';

/** Rows per Slack message: enough to scan, small enough to stay readable. */
export const PAGE_SIZE = 10;

const text = z.string().max(500).optional();
const EventId = EventIdSchema;
const PersonnelId = PersonnelIdSchema;

/** The query each list is made from; Previous / Next buttons carry it back, so it is parsed again. */
const LIST_QUERIES = {
  events: z.object({ keywords: text, country: text, city: text, from: text, to: text }),
  exhibitors: z.object({ eventId: EventId, keyword: text }),
  people: z.object({ eventId: EventId, query: text }),
  recommend: z.object({ eventId: EventId }),
  files: z.object({}),
  similar: z.object({ companyUrl: text, targetAudience: text }),
  'person-events': z.object({ personnelId: PersonnelId }),
  contacts: z.object({ personnelIds: z.array(PersonnelId).min(1).max(100) }),
} as const;
export type ListName = keyof typeof LIST_QUERIES;

export const isListName = (name: string): name is ListName => name in LIST_QUERIES;

/** The event's name for a list title (a free read); the title shows the id when it fails. */
async function eventName(eis: EisClient, eventId: string): Promise<string | undefined> {
  const event = await eis.events.detail(eventId).catch(() => null);
  return event?.name?.trim() || event?.nickname?.trim() || undefined;
}

/** Fetches one page of a free list from the service and renders it. */
export async function renderList(
  list: ListName,
  rawQuery: Record<string, unknown>,
  page: number,
  eis: EisClient,
): Promise<SlackMessage> {
  switch (list) {
    case 'events': {
      const query = LIST_QUERIES.events.parse(rawQuery);
      const result = await eis.events.list({
        page,
        pageSize: PAGE_SIZE,
        keyword: query.keywords,
        country: query.country,
        city: query.city,
        dateStartFrom: query.from,
        dateStartTo: query.to,
      });
      return eventList({ page: result, query });
    }
    case 'exhibitors': {
      const query = LIST_QUERIES.exhibitors.parse(rawQuery);
      const [result, name] = await Promise.all([
        eis.exhibitors.list({ eventId: query.eventId, keyword: query.keyword, page, pageSize: PAGE_SIZE }),
        eventName(eis, query.eventId),
      ]);
      return exhibitorList({ page: result, query, eventId: query.eventId, names: { eventId: name } });
    }
    case 'people': {
      const query = LIST_QUERIES.people.parse(rawQuery);
      const [result, name] = await Promise.all([
        eis.personnel.list({ eventId: query.eventId, searchQuery: query.query, page, pageSize: PAGE_SIZE }),
        eventName(eis, query.eventId),
      ]);
      return peopleList({ page: result, query, eventId: query.eventId, names: { eventId: name } });
    }
    case 'recommend': {
      const query = LIST_QUERIES.recommend.parse(rawQuery);
      const [result, name] = await Promise.all([
        eis.recommendations.exhibitors({ eventId: query.eventId, page, pageSize: PAGE_SIZE }),
        eventName(eis, query.eventId),
      ]);
      return recommendedExhibitorList({ page: result, query, names: { eventId: name } });
    }
    case 'files': {
      const result = await eis.agentFiles.list(page);
      return fileList({ page: result, query: {} });
    }
    case 'similar': {
      const query = LIST_QUERIES.similar.parse(rawQuery);
      const result = await eis.exhibitors.searchByContext({ ...query, page, pageSize: PAGE_SIZE });
      return similarExhibitorList({ page: result, query });
    }
    case 'person-events': {
      const query = LIST_QUERIES['person-events'].parse(rawQuery);
      const [result, person] = await Promise.all([
        eis.personnel.events(query.personnelId, page),
        eis.personnel.profile(query.personnelId).catch(() => null),
      ]);
      return personEventList({ page: result, query, names: { personnelId: person?.fullName } });
    }
    case 'contacts': {
      // One free profile read per person on this page: the ids alone would say nothing to a reader.
      const query = LIST_QUERIES.contacts.parse(rawQuery);
      const ids = query.personnelIds.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
      const items = await Promise.all(
        ids.map((id) =>
          eis.personnel
            .profile(id)
            .catch(() => ({ id, fullName: 'Name unavailable', contactUnlockStatus: 'unknown' })),
        ),
      );
      const total = query.personnelIds.length;
      const totalPages = Math.ceil(total / PAGE_SIZE);
      return contactList({
        page: { items, page, pageSize: PAGE_SIZE, total, totalPages, hasMore: page < totalPages },
        query,
      });
    }
  }
}
