import { type ButtonCommands, runs } from '../../kit/command-buttons.ts';
import { EventValueSchema } from '../../kit/row-buttons.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';

/** A digest row's Unlock and Fit score: each runs its `/events` command for the show. */
export const DIGEST_BUTTONS = {
  [ACTION_IDS.digestUnlock]: (value) => {
    const { eventId } = EventValueSchema.parse(value);
    return runs({ name: 'unlock', eventId }, `unlock ${eventId}`);
  },
  [ACTION_IDS.digestFit]: (value) => {
    const { eventId } = EventValueSchema.parse(value);
    return runs({ name: 'fit', eventId }, `fit ${eventId}`);
  },
} satisfies ButtonCommands;
