import type { App } from '@slack/bolt';
import type { ConfirmationDeps, SpendPolicy } from '../../domain/confirmations.ts';
import type { DeliveryLog } from '../../store/index.ts';
import type { Logger } from '../../log.ts';
import type { Dispatch } from '../jobs.ts';
import { registerButtonActions } from './button-actions.ts';
import { registerConfirmationActions } from './confirmation-actions.ts';
import { registerEventsCommand } from './events-command.ts';

export interface ListenerDeps {
  dispatch: Dispatch;
  confirmations: ConfirmationDeps['confirmations'];
  /** Slash commands are deduplicated on their `trigger_id`. */
  deliveries: Pick<DeliveryLog, 'first'>;
  policy: SpendPolicy;
  logger: Logger;
}

export function registerListeners(app: App, deps: ListenerDeps): void {
  registerEventsCommand(app, deps);
  registerButtonActions(app, deps);
  registerConfirmationActions(app, deps);
  // The last line of defence: log once, and never show the user a stack.
  app.error((error) => {
    deps.logger.error('unhandled error in a Slack listener', { error: error.original ?? error });
    return Promise.resolve();
  });
}
