import { type ButtonCommands, runs } from '../../kit/command-buttons.ts';
import { EventValueSchema } from '../../kit/row-buttons.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';

/** The event and fit cards' buttons: each runs its `/events` command for the event. */
export const EVENT_BUTTONS = {
  [ACTION_IDS.fitUnlock]: (value) => {
    const { eventId } = EventValueSchema.parse(value);
    return runs({ name: 'unlock', eventId }, `unlock ${eventId}`);
  },
  [ACTION_IDS.fitExhibitors]: (value) => {
    const { eventId } = EventValueSchema.parse(value);
    return runs({ name: 'exhibitors', eventId }, `exhibitors ${eventId}`);
  },
  [ACTION_IDS.fitPeople]: (value) => {
    const { eventId } = EventValueSchema.parse(value);
    return runs({ name: 'people', eventId }, `people ${eventId}`);
  },
  [ACTION_IDS.fitRecommend]: (value) => {
    const { eventId } = EventValueSchema.parse(value);
    return runs({ name: 'recommend', eventId, filters: {} }, `recommend ${eventId}`);
  },
  [ACTION_IDS.eventFit]: (value) => {
    const { eventId } = EventValueSchema.parse(value);
    return runs({ name: 'fit', eventId }, `fit ${eventId}`);
  },
} satisfies ButtonCommands;
