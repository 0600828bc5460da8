import * as z from 'zod';
import { EventIdSchema, PersonnelIdSchema } from '../../../domain/ids.ts';
import { type ButtonCommands, runs } from '../../kit/command-buttons.ts';
import { EventValueSchema } from '../../kit/row-buttons.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';

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

/** Emails / Phones: an unlock of these people's contacts (`event:` names the event whose list they are on). */
function contactUnlock<N extends 'emails' | 'phones'>(name: N) {
  return (value: unknown) => {
    const { personnelIds, eventId } = PeopleValueSchema.parse(value);
    const ids = [...new Set(personnelIds)];
    const words = `${name} ${ids.join(' ')}${eventId ? ` event:${eventId}` : ''}`;
    return runs({ name, personnelIds: ids, ...(eventId ? { eventId } : {}) }, words);
  };
}

/** The lists' buttons that stand for `/events` commands: a gated list's Unlock, and Emails / Phones. */
export const LIST_BUTTONS = {
  [ACTION_IDS.listUnlock]: (value) => {
    const { eventId } = EventValueSchema.parse(value);
    return runs({ name: 'unlock', eventId }, `unlock ${eventId}`);
  },
  [ACTION_IDS.peopleEmails]: contactUnlock('emails'),
  [ACTION_IDS.peoplePhones]: contactUnlock('phones'),
} satisfies ButtonCommands;
