import type { App } from '@slack/bolt';
import { registerCommandButtons } from '../../kit/command-buttons.ts';
import type { ListenerDeps } from '../../kit/listener-deps.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { EventValueSchema } from '../../kit/row-buttons.ts';

/** Add to plan (on any row or card naming a show) and Remove (on the plan card), each its `/events plan` command. */
export function registerPlan(app: App, deps: ListenerDeps): void {
  registerCommandButtons(app, deps, {
    [ACTION_IDS.planAdd]: (value) => `plan add ${EventValueSchema.parse(value).eventId}`,
    [ACTION_IDS.planRemove]: (value) => `plan remove ${EventValueSchema.parse(value).eventId}`,
  });
}
