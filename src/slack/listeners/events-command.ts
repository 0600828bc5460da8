import type { App } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import { digestModal } from '../features/digests/settings-views.ts';
import { errorMessage } from '../views/messages.ts';
import type { ListenerDeps } from '../kit/listener-deps.ts';
import { fillDigestModal } from '../features/digests/listeners.ts';
import { watchImportModal } from '../features/watch/import-views.ts';
import { openModal } from '../kit/interaction.ts';
import { answerCommand, isBareDigestOn, type ModalCommand } from './command-answer.ts';

/** The view a modal command opens, and what to say when it cannot open. */
function modalFor(command: ModalCommand, channelId: string): { view: ModalView; failed: string } {
  switch (command.name) {
    case 'watch-import':
      return {
        view: watchImportModal(channelId),
        failed:
          'The import form could not open just now. Try again, or add accounts with `/events watch add Acme Robotics, globex.com` (comma-separated).',
      };
    case 'digest-on':
      return {
        view: digestModal(channelId),
        failed:
          'The digest settings could not open just now. Type the settings instead, e.g. `/events digest on 08:30 Europe/Berlin keywords:fintech`.',
      };
  }
}

/**
 * `/events …` (`command-answer.ts`): parse, answer bad input at once with usage help, hand everything
 * else to the worker, and ack with a visible "working…" line; here, the commands a modal stands for
 * open it. Nothing here waits on the service.
 */
export function registerEventsCommand(app: App, deps: ListenerDeps): void {
  app.command('/events', async ({ command, ack, client }) => {
    const answer = await answerCommand(command, deps);
    if ('ack' in answer) return ack(answer.ack);
    const log = deps.logger.child({
      team: command.team_id,
      channel: command.channel_id,
      user: command.user_id,
    });
    // The modal opens with the command's trigger id, before the ack (trigger ids last 3 s).
    const modal = modalFor(answer.modal, command.channel_id);
    const opened = await openModal(client, command.trigger_id, modal.view, log);
    if (opened === undefined) return ack({ response_type: 'ephemeral', ...errorMessage(modal.failed) });
    await ack();
    // The digest's form is filled in with the channel's digest as it stands once it is open.
    if (isBareDigestOn(answer.modal))
      return fillDigestModal(client, opened, command.channel_id, command.team_id, { ...deps, logger: log });
  });
}
