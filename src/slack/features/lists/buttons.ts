import * as z from 'zod';
import { EventIdSchema, PersonnelIdSchema } from '../../../domain/ids.ts';

/**
 * What the lists' buttons carry in their `value`: the views write these shapes, the listeners and the
 * worker parse them back (a button may come from a message rendered by an older release).
 */

/** Emails / Phones under a people list. */
export const PeopleValueSchema = z.object({
  personnelIds: z.array(PersonnelIdSchema).min(1).max(100),
  /** The event whose people list the button is on: the unlock sends it as `event_id`. */
  eventId: EventIdSchema.optional(),
});
