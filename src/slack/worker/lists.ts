import { z } from 'zod';
import type { EisClient } from '../../eis/index.ts';
import {
  eventList,
  exhibitorList,
  fileList,
  peopleList,
  personEventList,
  recommendedExhibitorList,
  similarExhibitorList,
} from '../views/lists.ts';
import type { SlackMessage } from '../views/types.ts';

/** Rows per Slack message: enough to scan, small enough to stay readable. */
export const PAGE_SIZE = 10;

const text = z.string().max(500).optional();
const EventId = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/);

/** The query each list is made from; Previous / Next buttons carry it back, so it is parsed again. */
const LIST_QUERIES = {
  events: z.object({ keywords: text, country: text, city: text, from: text, to: text }),
  exhibitors: z.object({ eventId: EventId, keyword: text }),
  people: z.object({ eventId: EventId, query: text }),
  recommend: z.object({ eventId: EventId }),
  files: z.object({}),
  similar: z.object({ companyUrl: text, targetAudience: text }),
  'person-events': z.object({ personnelId: z.string().regex(/^\d{1,20}$/) }),
} as const;
export type ListName = keyof typeof LIST_QUERIES;

export const isListName = (name: string): name is ListName => name in LIST_QUERIES;

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
      const result = await eis.exhibitors.list({
        eventId: query.eventId,
        keyword: query.keyword,
        page,
        pageSize: PAGE_SIZE,
      });
      return exhibitorList({ page: result, query, eventId: query.eventId });
    }
    case 'people': {
      const query = LIST_QUERIES.people.parse(rawQuery);
      const result = await eis.personnel.list({
        eventId: query.eventId,
        searchQuery: query.query,
        page,
        pageSize: PAGE_SIZE,
      });
      return peopleList({ page: result, query, eventId: query.eventId });
    }
    case 'recommend': {
      const query = LIST_QUERIES.recommend.parse(rawQuery);
      const result = await eis.recommendations.exhibitors({
        eventId: query.eventId,
        page,
        pageSize: PAGE_SIZE,
      });
      return recommendedExhibitorList({ page: result, query });
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
      const result = await eis.personnel.events(query.personnelId, page);
      return personEventList({ page: result, query });
    }
  }
}
