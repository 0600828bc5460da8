import * as z from 'zod';
import { EventIdSchema } from '../../../domain/ids.ts';

/**
 * An event, on the event and fit cards' buttons (Unlock, Exhibitors, People, Recommend, Fit score).
 * Shared: the lists' Unlock and the digest's Fit score / Unlock carry it too.
 */
export const EventValueSchema = z.object({ eventId: EventIdSchema });
