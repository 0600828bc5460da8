import type { Button } from '@slack/types';
import * as z from 'zod';
import { EventIdSchema } from '../../domain/ids.ts';
import { ACTION_IDS } from './action-ids.ts';
import { button } from './blocks.ts';

/**
 * An event, on the event and fit cards' buttons (Unlock, Exhibitors, People, Recommend, Fit score).
 * Shared: the lists' Unlock and the digest's Fit score / Unlock carry it too.
 */
export const EventValueSchema = z.object({ eventId: EventIdSchema });

/**
 * Where a show leads on, the same on every row or card that names one (search rows, compare
 * columns, the plan): its fit, its exhibitors, its people, and Add to plan. Each runs the `/events`
 * command for the show (value: EventValueSchema), free until a confirmation card says otherwise.
 */
export function eventLeadsOn(eventId: string): (Button | undefined)[] {
  const value = { eventId };
  return [
    button('Fit', ACTION_IDS.eventFit, value),
    button('Exhibitors', ACTION_IDS.fitExhibitors, value),
    button('People', ACTION_IDS.fitPeople, value),
    button('Add to plan', ACTION_IDS.planAdd, value),
  ];
}
