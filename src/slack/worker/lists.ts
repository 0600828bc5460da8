import type * as z from 'zod';
import type { EisClient } from '../../eis/index.ts';
import { type ListKind, LIST_QUERIES } from '../button-values.ts';
import {
  contactList,
  eventList,
  exhibitorList,
  peopleList,
  personEventList,
  recommendedExhibitorList,
  similarExhibitorList,
} from '../views/lists.ts';
import type { SlackMessage } from '../views/types.ts';
import { labelsOf, numberOf, SOURCE_TYPES } from '../list-filter-words.ts';
import { recommendedEventList } from '../views/recommended-events.ts';
import { contactsCard } from '../views/contacts.ts';

/** Rows per Slack message: enough to scan, small enough to stay readable. */
export const PAGE_SIZE = 10;

/** The event's name for a list title (a free read); the title shows the id when it fails. */
async function eventName(eis: EisClient, eventId: string): Promise<string | undefined> {
  const event = await eis.events.detail(eventId).catch(() => null);
  return event?.name?.trim() || event?.nickname?.trim() || undefined;
}

/** `exhibitor,visitors` → the service's source types; none when empty. */
function sourceTypesOf(text: string | undefined): (typeof SOURCE_TYPES)[number][] | undefined {
  const types = SOURCE_TYPES.filter((type) => labelsOf(text)?.includes(type));
  return types.length > 0 ? types : undefined;
}

type Query<K extends ListKind> = z.output<(typeof LIST_QUERIES)[K]>;

/**
 * How each filtered list reads one page from the service, from its parsed query. Its card and its
 * Export CSV both read through these, so the file holds exactly the rows the card was filtered to.
 */
export const LIST_PAGES = {
  events: (query: Query<'events'>, page: number, pageSize: number, eis: EisClient) =>
    eis.events.list({
      page,
      pageSize,
      keyword: query.keywords,
      country: query.country,
      city: query.city,
      dateStartFrom: query.from,
      dateStartTo: query.to,
      eventType: labelsOf(query.type),
      quality: labelsOf(query.quality),
      hasVisitors: query.visitors === undefined ? undefined : query.visitors === 'yes' ? 1 : 0,
    }),
  exhibitors: (query: Query<'exhibitors'>, page: number, pageSize: number, eis: EisClient) =>
    eis.exhibitors.list({
      eventId: query.eventId,
      keyword: query.keyword,
      country: query.country,
      category: labelsOf(query.category),
      industry: labelsOf(query.industry),
      jobTitle: labelsOf(query.title),
      managementLevel: labelsOf(query.level),
      department: labelsOf(query.department),
      page,
      pageSize,
    }),
  people: (query: Query<'people'>, page: number, pageSize: number, eis: EisClient) =>
    eis.personnel.list({
      eventId: query.eventId,
      searchQuery: query.query,
      department: query.department,
      level: query.level,
      exhibitorId: query.exhibitor,
      sourceType: sourceTypesOf(query.source),
      page,
      pageSize,
    }),
  recommend: (query: Query<'recommend'>, page: number, pageSize: number, eis: EisClient) =>
    eis.recommendations.exhibitors({
      eventId: query.eventId,
      page,
      pageSize,
      searchQuery: query.keywords,
      location: query.country,
      category: labelsOf(query.category),
      industry: labelsOf(query.industry),
      exhibitorName: labelsOf(query.name),
      employeesMin: numberOf(query['employees-min']),
      employeesMax: numberOf(query['employees-max']),
    }),
  similar: (query: Query<'similar'>, page: number, pageSize: number, eis: EisClient) =>
    eis.exhibitors.searchByContext({ ...query, page, pageSize }),
  'contact-search': (query: Query<'contact-search'>, page: number, pageSize: number, eis: EisClient) =>
    eis.contacts.search({ ...query, page, pageSize }),
};

type ListRenderer = (
  rawQuery: Record<string, unknown>,
  page: number,
  eis: EisClient,
) => Promise<SlackMessage>;

/** How each list fetches one page from the service and renders it, from the query its buttons carry. */
const RENDERERS: Record<ListKind, ListRenderer> = {
  async events(rawQuery, page, eis) {
    const query = LIST_QUERIES.events.parse(rawQuery);
    const result = await LIST_PAGES.events(query, page, PAGE_SIZE, eis);
    return eventList({ page: result, query });
  },
  async exhibitors(rawQuery, page, eis) {
    const query = LIST_QUERIES.exhibitors.parse(rawQuery);
    const [result, name] = await Promise.all([
      LIST_PAGES.exhibitors(query, page, PAGE_SIZE, eis),
      eventName(eis, query.eventId),
    ]);
    return exhibitorList({
      page: result,
      query,
      eventId: query.eventId,
      names: { eventId: name },
    });
  },
  async people(rawQuery, page, eis) {
    const query = LIST_QUERIES.people.parse(rawQuery);
    const [result, name] = await Promise.all([
      LIST_PAGES.people(query, page, PAGE_SIZE, eis),
      eventName(eis, query.eventId),
    ]);
    return peopleList({
      page: result,
      query,
      eventId: query.eventId,
      names: { eventId: name },
    });
  },
  async recommend(rawQuery, page, eis) {
    const query = LIST_QUERIES.recommend.parse(rawQuery);
    const [result, name] = await Promise.all([
      LIST_PAGES.recommend(query, page, PAGE_SIZE, eis),
      eventName(eis, query.eventId),
    ]);
    return recommendedExhibitorList({ page: result, query, names: { eventId: name } });
  },
  async 'shows-for'(rawQuery, page, eis) {
    const query = LIST_QUERIES['shows-for'].parse(rawQuery);
    const result = await eis.recommendations.events({
      companyUrl: query.companyUrl,
      targetAudience: query.targetAudience,
      page,
      pageSize: PAGE_SIZE,
      country: query.country,
      city: query.city,
      region: query.region,
      category: labelsOf(query.category),
      dateStartFrom: query.from,
      dateStartTo: query.to,
      industry: query.industry,
      targetIndustry: labelsOf(query['target-industry']),
      targetManagementLevel: labelsOf(query.level),
      targetJobTitles: labelsOf(query.title),
      attendeeCountMin: numberOf(query['attendees-min']),
      attendeeCountMax: numberOf(query['attendees-max']),
    });
    return recommendedEventList({ page: result, query });
  },
  async similar(rawQuery, page, eis) {
    const query = LIST_QUERIES.similar.parse(rawQuery);
    const result = await LIST_PAGES.similar(query, page, PAGE_SIZE, eis);
    return similarExhibitorList({ page: result, query });
  },
  async 'person-events'(rawQuery, page, eis) {
    const query = LIST_QUERIES['person-events'].parse(rawQuery);
    const [result, person] = await Promise.all([
      eis.personnel.events(query.personnelId, page),
      eis.personnel.profile(query.personnelId).catch(() => null),
    ]);
    return personEventList({ page: result, query, names: { personnelId: person?.fullName } });
  },
  async 'contact-search'(rawQuery, page, eis) {
    const query = LIST_QUERIES['contact-search'].parse(rawQuery);
    const result = await LIST_PAGES['contact-search'](query, page, PAGE_SIZE, eis);
    return contactsCard({ page: result, query });
  },
  async contacts(rawQuery, page, eis) {
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
      page: {
        items: items,
        page,
        pageSize: PAGE_SIZE,
        total,
        totalPages,
        hasMore: page < totalPages,
      },
      query,
    });
  },
};

/** Fetches one page of a free list from the service and renders it. */
export const renderList = (
  list: ListKind,
  rawQuery: Record<string, unknown>,
  page: number,
  eis: EisClient,
): Promise<SlackMessage> => RENDERERS[list](rawQuery, page, eis);
