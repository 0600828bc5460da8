import { parseCommand } from '../../src/slack/commands/index.ts';

/** The command `/events <text>` reads; throws with the refusal when it reads none. */
export const commandOf = (text: string) => {
  const parsed = parseCommand(text);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.command;
};

/** What `/events <text>` is refused for; empty when it reads. */
export const problemOf = (text: string) => {
  const parsed = parseCommand(text);
  return parsed.ok ? '' : parsed.problem;
};
