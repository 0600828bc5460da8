import type { App } from '@slack/bolt';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { registerCommandButtons } from '../../kit/command-buttons.ts';
import type { ListenerDeps } from '../../kit/listener-deps.ts';
import { EventValueSchema } from '../../kit/row-buttons.ts';

/** The event and fit cards' buttons: each runs its `/events` command for the event. */
export function registerEventCards(app: App, deps: ListenerDeps): void {
  registerCommandButtons(app, deps, {
    [ACTION_IDS.fitUnlock]: (value) => `unlock ${EventValueSchema.parse(value).eventId}`,
    [ACTION_IDS.fitExhibitors]: (value) => `exhibitors ${EventValueSchema.parse(value).eventId}`,
    [ACTION_IDS.fitPeople]: (value) => `people ${EventValueSchema.parse(value).eventId}`,
    [ACTION_IDS.fitRecommend]: (value) => `recommend ${EventValueSchema.parse(value).eventId}`,
    [ACTION_IDS.eventFit]: (value) => `fit ${EventValueSchema.parse(value).eventId}`,
  });
}
