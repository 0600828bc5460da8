import type { SlashCommand } from '@slack/bolt';
import { type Command, commandSpec, parseCommand } from '../commands/index.ts';
import { commandHelp, helpText, unknownCommand, usageError } from '../commands/help-views.ts';
import { errorMessage, workingMessage } from '../views/messages.ts';
import type { SlackMessage } from '../views/types.ts';
import type { ListenerDeps } from '../kit/listener-deps.ts';
import { COMMAND_TEXT_MAX } from '../kit/job-values.ts';
import { planAddInAck } from '../features/plan/ack-answers.ts';

/** The fields of a slash command this answer reads (Bolt's `command`, or the form Slack posts). */
export type CommandFields = Pick<
  SlashCommand,
  'team_id' | 'channel_id' | 'user_id' | 'trigger_id' | 'response_url'
> & { text?: string };

/** The body of a command's ack: an ephemeral message, or nothing (an empty 200). */
export type CommandAck = ({ response_type: 'ephemeral' } & SlackMessage) | undefined;

/** `/events digest on` with nothing after it: the settings modal stands for the words. */
export const isBareDigestOn = (command: Command) =>
  command.name === 'digest-on' &&
  !command.time &&
  !command.timeZone &&
  Object.keys(command.filters).length === 0;

/** A command a modal stands for: it opens it with Slack's client (`events-command.ts`). */
export type ModalCommand = Extract<Command, { name: 'digest-on' | 'watch-import' }>;
const opensModal = (command: Command): command is ModalCommand =>
  isBareDigestOn(command) || command.name === 'watch-import';

const ephemeral = (message: SlackMessage): CommandAck => ({ response_type: 'ephemeral', ...message });

const count = (n: number) => n.toLocaleString('en-US');
const tooLongWords = (length: number) =>
  `That command is ${count(length)} characters long; /events takes up to ${count(COMMAND_TEXT_MAX)}. Nothing was done.`;

/**
 * `/events …` without a modal: bad input answered at once with usage help, `help` answered, `plan add`
 * of a show already on the plan (or to a full plan) answered from the stored plan, anything else
 * handed to the worker and acked with a visible "working…" line. Needs no Bolt and no Slack call,
 * so a cold Slack function answers a command before Bolt loads (`command-requests.ts`). A command a
 * modal stands for comes back as `{ modal }` for the listener that holds Slack's client.
 */
export async function answerCommand(
  command: CommandFields,
  deps: Pick<ListenerDeps, 'deliveries' | 'dispatch' | 'logger' | 'planShows'>,
): Promise<{ ack: CommandAck } | { modal: ModalCommand }> {
  // Read whole, so a refusal can count what was asked for (`watch add` of 10,000 names).
  const text = command.text ?? '';
  const parsed = parseCommand(text);
  if (!parsed.ok) {
    const answer = parsed.spec
      ? usageError(parsed.problem, parsed.spec.usage, parsed.spec.example)
      : unknownCommand(parsed.problem, parsed.suggestion, parsed.suggestionCharges);
    return { ack: ephemeral(answer) };
  }
  if (text.length > COMMAND_TEXT_MAX) return { ack: ephemeral(errorMessage(tooLongWords(text.length))) };
  if (opensModal(parsed.command)) return { modal: parsed.command };
  if (parsed.command.name === 'help') {
    const topic = parsed.command.topic ? commandSpec(parsed.command.topic) : undefined;
    return { ack: ephemeral(topic ? commandHelp(topic) : helpText()) };
  }
  const log = deps.logger.child({
    team: command.team_id,
    channel: command.channel_id,
    user: command.user_id,
  });
  const inAck = await answeredFromStore(parsed.command, command, { ...deps, logger: log });
  if (inAck) return { ack: ephemeral(inAck) };
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
  const subcommand = parsed.command.name;
  if (handedOver.status === 'rejected') {
    log.error('could not hand the command to the worker', { error: handedOver.reason, subcommand });
    return {
      ack: ephemeral(errorMessage('The bot could not start this just now. Please try again in a minute.')),
    };
  }
  if (seen.status === 'rejected') {
    // Unknown whether it is a replay; the job itself runs once either way.
    log.warn('could not record the command delivery', { error: seen.reason });
  } else if (!seen.value) {
    log.info('command delivered again: ignored', { subcommand });
    return { ack: undefined };
  }
  log.info('command dispatched', { subcommand });
  return { ack: ephemeral(workingMessage(`Working on /events ${text.trim().slice(0, 200)}`)) };
}

/**
 * An answer one store read decides, given in the ack so no job runs for it (`plan add` of a show
 * already on the plan). When the read fails, the worker answers as it would without it.
 */
async function answeredFromStore(
  parsed: Command,
  command: CommandFields,
  deps: Pick<ListenerDeps, 'planShows' | 'logger'>,
): Promise<SlackMessage | undefined> {
  if (parsed.name !== 'plan-add' || !deps.planShows) return undefined;
  try {
    return planAddInAck(parsed, await deps.planShows(command.team_id, command.channel_id));
  } catch (error) {
    deps.logger.warn('could not read the plan before the ack; the worker answers', { error });
    return undefined;
  }
}
