import type { App, BlockAction, ButtonAction, RespondFn } from '@slack/bolt';
import { errorMessage } from '../views/messages.ts';
import { answeringFailures } from './answer-failures.ts';
import type { ListenerDeps } from './listener-deps.ts';
import { contextOf, parseValue } from './interaction.ts';

/**
 * What a button that stands for an `/events` command runs: the typed command, built from its checked
 * value (never from text), and the words it stands for, which only name it (Share in channel, "found
 * nothing for …") and are never read back into a command.
 */
export interface ButtonRun<C> {
  command: C;
  words: string;
}

/** The command a button runs, kept exactly as written (`name: 'plan-add'`, not a string). */
export const runs = <const C extends { name: string }>(command: C, words: string): ButtonRun<C> => ({
  command,
  words,
});

/**
 * A room's buttons that stand for `/events` commands, by action id: each reads the button's value
 * (throwing when it does not parse: an old card, a forged click) into what it runs. Declared once in
 * the room's `buttons.ts`; the listener checks a click with it, the worker reads the job with it again.
 */
export type ButtonCommands = Readonly<Record<string, (value: unknown) => ButtonRun<{ name: string }>>>;

/** What a button's value runs; undefined for a value that no longer reads (or an action of none). */
export function buttonRun<C>(
  buttons: Readonly<Record<string, (value: unknown) => ButtonRun<C>>>,
  action: string,
  value: unknown,
): ButtonRun<C> | undefined {
  const read = Object.hasOwn(buttons, action) ? buttons[action] : undefined;
  try {
    return read?.(value);
  } catch {
    return undefined;
  }
}

/** The thread a card's answers go in: a card posted as a reply has one already (threads are one level deep). */
export function threadOf(message: BlockAction['message']): string | undefined {
  return typeof message?.thread_ts === 'string' ? message.thread_ts : message?.ts;
}

export const OUT_OF_DATE = 'This button is out of date. Run the command again.';

/** A button whose value no longer parses (an old card, a changed format). */
export const outOfDate = async (respond: RespondFn) => {
  await respond({ response_type: 'ephemeral', replace_original: false, ...errorMessage(OUT_OF_DATE) });
};

/**
 * The buttons that stand for `/events` commands: a click whose value reads goes to the worker as the
 * button's action and value (typed, never text), where the command runs exactly as if typed; one whose
 * value does not read is told so at once.
 */
export function registerCommandButtons(app: App, deps: ListenerDeps, buttons: ButtonCommands): void {
  app.action<BlockAction<ButtonAction>>(
    new RegExp(`^(${Object.keys(buttons).join('|').replace(/\./g, '\\.')})$`),
    answeringFailures(deps.logger, async ({ ack, body, action, respond }) => {
      await ack();
      const value = parseValue(action);
      if (!buttonRun(buttons, action.action_id, value)) return outOfDate(respond);
      // A button on a public card answers in its thread, for everyone; on a private one, privately.
      const publicCard = body.container.is_ephemeral !== true ? threadOf(body.message) : undefined;
      await deps.dispatch({
        kind: 'button',
        id: `button:${body.trigger_id}`,
        action: action.action_id,
        value,
        context: {
          ...contextOf(body),
          messageTs: undefined,
          ...(publicCard ? { threadTs: publicCard } : {}),
        },
      });
    }),
  );
}
