import type { App } from '@slack/bolt';
import { registerCommandButtons } from '../../kit/command-buttons.ts';
import type { ListenerDeps } from '../../kit/listener-deps.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { OutcomeValueSchema } from './buttons.ts';

/** Delete, on an outcome's card: `/events outcome delete <id>`, held to that command's audience. */
export function registerOutcomes(app: App, deps: ListenerDeps): void {
  registerCommandButtons(app, deps, {
    [ACTION_IDS.outcomeDelete]: (value) => `outcome delete ${OutcomeValueSchema.parse(value).id}`,
  });
}
