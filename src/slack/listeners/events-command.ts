import type { App } from '@slack/bolt';
import { commandSpec, parseCommand } from '../command-parser.ts';
import {
  commandHelp,
  errorMessage,
  helpText,
  unknownCommand,
  usageError,
  workingMessage,
} from '../views/messages.ts';
import type { ListenerDeps } from './deps.ts';

/**
 * `/events …`: parse, answer bad input at once with usage help, hand everything else to the worker,
 * and ack with a visible "working…" line. Nothing here waits on the service.
 */
export function registerEventsCommand(app: App, deps: ListenerDeps): void {
  app.command('/events', async ({ command, ack }) => {
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
        : unknownCommand(parsed.problem, parsed.suggestion);
      await ack({ response_type: 'ephemeral', ...answer });
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
