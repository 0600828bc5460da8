import type { App } from '@slack/bolt';
import type { ListenerDeps } from './deps.ts';
import { registerButtonActions } from './button-actions.ts';
import { registerConfirmationActions } from './confirmation-actions.ts';
import { registerEventsCommand } from './events-command.ts';
import { registerHome } from './home.ts';
import { registerShortcuts } from './shortcuts.ts';
import { registerUninstall } from './uninstall.ts';
import { registerUnfurls } from './unfurls.ts';
import { registerUntilConnected } from './until-connected.ts';
import { registerWorkflowStep } from './workflow-step.ts';
import { registerWorkspaceAdmin } from './workspace-admin.ts';

export function registerListeners(app: App, deps: ListenerDeps): void {
  // First: its middleware answers a workspace without a service key before the others run.
  registerUntilConnected(app, deps);
  registerWorkspaceAdmin(app, deps);
  registerEventsCommand(app, deps);
  registerButtonActions(app, deps);
  registerConfirmationActions(app, deps);
  registerHome(app, deps);
  registerShortcuts(app, deps);
  registerUnfurls(app, deps);
  registerWorkflowStep(app, deps);
  registerUninstall(app, deps);
  // The last line of defence: log once, and never show the user a stack.
  app.error((error) => {
    deps.logger.error('unhandled error in a Slack listener', { error: error.original ?? error });
    return Promise.resolve();
  });
}
