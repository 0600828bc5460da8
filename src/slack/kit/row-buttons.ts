import type { Button, KnownBlock } from '@slack/types';
import * as z from 'zod';
import { EventIdSchema } from '../../domain/ids.ts';
import { isPastShow, type ShowDays } from '../../domain/past-show.ts';
import { ACTION_IDS } from '../views/action-ids.ts';
import { actions, button } from '../views/blocks.ts';
import { truncate } from '../views/mrkdwn.ts';
import type { EventSummary } from '../views/types.ts';
import { type ListPageValue, MIN_SHOWS } from './job-values.ts';
import { plural } from '../views/format.ts';

/**
 * An event, on the event and fit cards' buttons (Unlock, Exhibitors, People, Recommend, Fit score).
 * Shared: the lists' Unlock and the digest's Fit score / Unlock carry it too.
 */
export const EventValueSchema = z.object({ eventId: EventIdSchema });

/** A show as a row or card names it: its id and, for telling a past one, its dates. */
export type ListedShow = { eventId: string } & ShowDays;

/**
 * Where a show leads on, the same on every row or card that names one (search rows, compare
 * columns, the plan): its fit, its exhibitors, its people, and Add to plan, which a past show
 * (src/domain/past-show.ts, by `today`, `YYYY-MM-DD`) does not offer. Each runs the `/events`
 * command for the show (value: EventValueSchema), free until a confirmation card says otherwise.
 */
export function eventLeadsOn(show: ListedShow, today: string | undefined): (Button | undefined)[] {
  const value = { eventId: show.eventId };
  const past = today !== undefined && isPastShow(show, today);
  return [
    button('Fit', ACTION_IDS.eventFit, value),
    button('Exhibitors', ACTION_IDS.fitExhibitors, value),
    button('People', ACTION_IDS.fitPeople, value),
    past ? undefined : button('Add to plan', ACTION_IDS.planAdd, value),
  ];
}

/**
 * Outcome… on a past show (by `today`, `YYYY-MM-DD`), on its fit card and its plan row: opens the Log
 * for a show form with the show (value: EventValueSchema). None on a show still ahead.
 */
export function outcomeButton(show: ListedShow, today: string | undefined): Button | undefined {
  return today !== undefined && isPastShow(show, today)
    ? button('Outcome…', ACTION_IDS.outcomeOpen, { eventId: show.eventId })
    : undefined;
}

/** Fit / Exhibitors / People / Add to plan for one event row (account, LinkedIn and shows-for rows). */
export function eventButtons(show: ListedShow, today: string | undefined): KnownBlock | undefined {
  return actions(eventLeadsOn(show, today), `event-${show.eventId}`);
}

/** Compare… under a list of shows: its value carries the page's shows (ids and names) for the modal. */
export function compareButton(events: readonly EventSummary[]): Button | undefined {
  const shows = events.slice(0, 10).map((event) => ({
    eventId: event.eventId,
    name: truncate(event.name?.trim() || `Event ${event.eventId}`, 60),
  }));
  if (shows.length < MIN_SHOWS) return undefined;
  return button('Compare…', ACTION_IDS.compareOpen, { shows });
}

/**
 * Unlock emails… / Unlock phone numbers… for the people given, each only when someone is left to
 * unlock; `eventId` rides along when the people came from an event's list.
 */
export function contactUnlockButtons(people: {
  emails: readonly string[];
  phones: readonly string[];
  eventId?: string;
}): (Button | undefined)[] {
  const { emails, phones, eventId } = people;
  const scope = eventId === undefined ? {} : { eventId };
  return [
    emails.length > 0
      ? button(`Unlock ${plural(emails.length, 'email', 'emails')}…`, ACTION_IDS.peopleEmails, {
          personnelIds: emails,
          ...scope,
        })
      : undefined,
    phones.length > 0
      ? button(`Unlock ${plural(phones.length, 'phone number', 'phone numbers')}…`, ACTION_IDS.peoplePhones, {
          personnelIds: phones,
          ...scope,
        })
      : undefined,
  ];
}

/** "Export CSV" on a free list card: every page of the same query, as one file in the card's thread. */
export function exportButton(value: ListPageValue): Button | undefined {
  return button('Export CSV', ACTION_IDS.listExport, value);
}

/** An exhibitor id, numeric as `/events account` takes it (Open on a company-name search's records). */
export const ExhibitorValueSchema = z.object({ exhibitorId: z.string().regex(/^\d{1,20}$/) });
