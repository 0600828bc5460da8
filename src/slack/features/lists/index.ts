import type { Audience } from '../../../domain/audience.ts';
import type { EisClient } from '../../../eis/index.ts';
import type { SlackMessage } from '../../views/types.ts';
import { CONTACT_SEARCH } from './contact-search.ts';
import { CONTACTS } from './contacts.ts';
import type { ExportSource, ListOperations } from './definition.ts';
import { EVENTS } from './events.ts';
import { EXHIBITORS } from './exhibitors.ts';
import { PEOPLE } from './people.ts';
import { PERSON_EVENTS } from './person-events.ts';
import { RECOMMEND } from './recommend.ts';
import { SHOWS_FOR } from './shows-for.ts';
import { SIMILAR } from './similar.ts';
import type { ListKind } from '../../kit/job-values.ts';

/** Every list of the bot, by the name its buttons carry; the compiler wants one per list kind. */
export const LISTS: Readonly<Record<ListKind, ListOperations>> = {
  events: EVENTS,
  exhibitors: EXHIBITORS,
  people: PEOPLE,
  recommend: RECOMMEND,
  'shows-for': SHOWS_FOR,
  similar: SIMILAR,
  'person-events': PERSON_EVENTS,
  'contact-search': CONTACT_SEARCH,
  contacts: CONTACTS,
};

/** Whom a list is for (its definition's audience), for its pages, exports and shares. */
export const listAudience = (list: ListKind): Audience => LISTS[list].audience;

/** Fetches one page of a free list from the service and renders it; `today` (UTC) marks past shows. */
export const renderList = (
  list: ListKind,
  rawQuery: Record<string, unknown>,
  page: number,
  eis: EisClient,
  today: string,
): Promise<SlackMessage> => LISTS[list].render(rawQuery, page, eis, today);

/** The list as its export reads it; undefined when it cannot be exported (paid searches charge again). */
export const exportSourceOf = (
  list: ListKind,
  rawQuery: Record<string, unknown>,
  eis: EisClient,
  today: string,
): ExportSource | undefined => LISTS[list].exportSource?.(rawQuery, eis, today);

/** What a paid search's results and a people unlock's card show: the lists' cards and Show all. */
export { eventList, personEventList } from './event-views.ts';
export { companyExhibitorList } from './exhibitor-views.ts';
export { showAllPeopleButton } from './people-views.ts';
