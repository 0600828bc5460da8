import type { App } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import { type Command, commandSpec, parseCommand } from '../commands/index.ts';
import { commandHelp, helpText, unknownCommand, usageError } from '../commands/help-views.ts';
import { digestModal } from '../features/digests/settings-views.ts';
import { errorMessage, workingMessage } from '../views/messages.ts';
import type { ListenerDeps } from './deps.ts';
import { fillDigestModal } from '../features/digests/listeners.ts';
import { watchImportModal } from '../features/watch/import-views.ts';
import { openModal } from './interaction.ts';

/** `/events digest on` with nothing after it: the settings modal stands for the words. */
const isBareDigestOn = (command: Command) =>
  command.name === 'digest-on' &&
  !command.time &&
  !command.timeZone &&
  Object.keys(command.filters).length === 0;

/** The commands that a modal stands for: the view, and what to say when it cannot open. */
function modalFor(command: Command, channelId: string): { view: ModalView; failed: string } | undefined {
  if (isBareDigestOn(command))
    return {
      view: digestModal(channelId),
      failed:
        'The digest settings could not open just now. Type the settings instead, e.g. `/events digest on 08:30 Europe/Berlin keywords:fintech`.',
    };
  if (command.name === 'watch-import')
    return {
      view: watchImportModal(channelId),
      failed:
        'The import form could not open just now. Try again, or add accounts with `/events watch add Acme Robotics, globex.com` (comma-separated).',
    };
  return undefined;
}

/**
 * `/events …`: parse, answer bad input at once with usage help, hand everything else to the worker,
 * and ack with a visible "working…" line. Nothing here waits on the service.
 */
export function registerEventsCommand(app: App, deps: ListenerDeps): void {
  app.command('/events', async ({ command, ack, client }) => {
    const log = deps.logger.child({
      team: command.team_id,
      channel: command.channel_id,
      user: command.user_id,
    });
    const text = (command.text ?? '').slice(0, 5000);
    const parsed = parseCommand(text);
    if (!parsed.ok) {
      const answer = parsed.spec
        ? usageError(parsed.problem, parsed.spec.usage, parsed.spec.example)
        : unknownCommand(parsed.problem, parsed.suggestion, parsed.suggestionCharges);
      await ack({ response_type: 'ephemeral', ...answer });
      return;
    }
    // The modal opens with the command's trigger id, before the ack (trigger ids last 3 s).
    const modal = modalFor(parsed.command, command.channel_id);
    if (modal) {
      const opened = await openModal(client, command.trigger_id, modal.view, log);
      if (opened === undefined) return ack({ response_type: 'ephemeral', ...errorMessage(modal.failed) });
      await ack();
      // The digest's form is filled in with the channel's digest as it stands once it is open.
      if (isBareDigestOn(parsed.command))
        return fillDigestModal(client, opened, command.channel_id, command.team_id, { ...deps, logger: log });
      return;
    }
    if (parsed.command.name === 'help') {
      const topic = parsed.command.topic ? commandSpec(parsed.command.topic) : undefined;
      await ack({ response_type: 'ephemeral', ...(topic ? commandHelp(topic) : helpText()) });
      return;
    }
    // The dedup record and the hand-over at once, one round trip before the ack: the worker runs a
    // command's job once however often it is dispatched (it claims the job id), and a replayed
    // delivery of the same command (same trigger_id) is still acked with nothing new.
    const id = `command:${command.trigger_id}`;
    const [seen, handedOver] = await Promise.allSettled([
      deps.deliveries.first(id),
      deps.dispatch({
        kind: 'command',
        id,
        text,
        context: {
          teamId: command.team_id,
          channelId: command.channel_id,
          userId: command.user_id,
          responseUrl: command.response_url,
          placeholder: true,
        },
      }),
    ]);
    if (handedOver.status === 'rejected') {
      log.error('could not hand the command to the worker', {
        error: handedOver.reason,
        subcommand: parsed.command.name,
      });
      await ack({
        response_type: 'ephemeral',
        ...errorMessage('The bot could not start this just now. Please try again in a minute.'),
      });
      return;
    }
    if (seen.status === 'rejected') {
      // Unknown whether it is a replay; the job itself runs once either way.
      log.warn('could not record the command delivery', { error: seen.reason });
    } else if (!seen.value) {
      log.info('command delivered again: ignored', { subcommand: parsed.command.name });
      await ack();
      return;
    }
    log.info('command dispatched', { subcommand: parsed.command.name });
    await ack({
      response_type: 'ephemeral',
      ...workingMessage(`Working on /events ${text.trim().slice(0, 200)}`),
    });
  });
}
