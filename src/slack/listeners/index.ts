import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../kit/listener-deps.ts';
import { registerCommandButtons } from '../kit/command-buttons.ts';
import { BUTTON_COMMANDS } from '../commands/buttons.ts';
import { registerAccount } from '../features/account/listeners.ts';
import { registerConfirmationActions } from '../features/charges/listeners.ts';
import { registerCompare } from '../features/compare/listeners.ts';
import { registerDigests } from '../features/digests/listeners.ts';
import { registerEventsCommand } from './events-command.ts';
import { registerFollowUpActions } from '../features/follow-up/listeners.ts';
import { registerHome } from '../features/home/listeners.ts';
import { registerLists } from '../features/lists/listeners.ts';
import { registerShare } from './share.ts';
import { registerUninstall } from './uninstall.ts';
import { registerUnfurls } from '../features/unfurls/listeners.ts';
import { registerUntilConnected } from '../features/workspace-admin/until-connected.ts';
import { registerWorkflowStep } from '../features/workflow-step/listeners.ts';
import { registerWorkspaceAdmin } from '../features/workspace-admin/listeners.ts';
import { registerWatch } from '../features/watch/listeners.ts';
import { registerPlan } from '../features/plan/listeners.ts';
import { registerOutcomes } from '../features/outcomes/listeners.ts';

export function registerListeners(app: App, deps: ListenerDeps): void {
  // First: its middleware answers a workspace without a service key before the others run.
  registerUntilConnected(app, deps);
  registerWorkspaceAdmin(app, deps);
  registerEventsCommand(app, deps);
  registerCommandButtons(app, deps, BUTTON_COMMANDS);
  registerLists(app, deps);
  registerCompare(app, deps);
  registerAccount(app, deps);
  registerDigests(app, deps);
  registerWatch(app, deps);
  registerPlan(app, deps);
  registerOutcomes(app, deps);
  registerShare(app, deps);
  registerFollowUpActions(app, deps);
  registerConfirmationActions(app, deps);
  registerHome(app, deps);
  registerUnfurls(app, deps);
  registerWorkflowStep(app, deps);
  registerUninstall(app, deps);
  // The last line of defence: log once, and never show the user a stack.
  app.error((error) => {
    deps.logger.error('unhandled error in a Slack listener', { error: error.original ?? error });
    return Promise.resolve();
  });
}
