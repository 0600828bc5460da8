import type { App, BlockAction, ButtonAction, RespondFn } from '@slack/bolt';
import { errorMessage } from '../views/messages.ts';
import { answeringFailures } from './answer-failures.ts';
import type { ListenerDeps } from './listener-deps.ts';
import { contextOf, parseValue } from './interaction.ts';

/** A button's value as the `/events` words it stands for (throws when the value does not parse). */
export type AsCommand = Record<string, (value: unknown) => string>;

/** The thread a card's answers go in: a card posted as a reply has one already (threads are one level deep). */
export function threadOf(message: BlockAction['message']): string | undefined {
  return typeof message?.thread_ts === 'string' ? message.thread_ts : message?.ts;
}

/** A button whose value no longer parses (an old card, a changed format). */
export const outOfDate = async (respond: RespondFn) => {
  await respond({
    response_type: 'ephemeral',
    replace_original: false,
    ...errorMessage('This button is out of date. Run the command again.'),
  });
};

/** A room's buttons that stand for an `/events` command: the worker runs them exactly as if typed. */
export function registerCommandButtons(app: App, deps: ListenerDeps, asCommand: AsCommand): void {
  app.action<BlockAction<ButtonAction>>(
    new RegExp(`^(${Object.keys(asCommand).join('|').replace(/\./g, '\\.')})$`),
    answeringFailures(deps.logger, async ({ ack, body, action, respond }) => {
      await ack();
      const toCommand = asCommand[action.action_id];
      let text: string;
      try {
        text = toCommand ? toCommand(parseValue(action)) : '';
      } catch {
        return outOfDate(respond);
      }
      // A button on a public card answers in its thread, for everyone; on a private one, privately.
      const publicCard = body.container.is_ephemeral !== true ? threadOf(body.message) : undefined;
      await deps.dispatch({
        kind: 'command',
        id: `button:${body.trigger_id}`,
        text,
        context: {
          ...contextOf(body),
          messageTs: undefined,
          ...(publicCard ? { threadTs: publicCard } : {}),
        },
      });
    }),
  );
}
