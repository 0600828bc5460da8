import type { Answers, AnswerTools } from '../../kit/command-answers.ts';
import type { RETURN_COMMANDS } from './commands.ts';
import { runReturnCommand } from './jobs.ts';

/** The returns room's answer: what the channel's shows returned, for what they cost. */
export function returnAnswers({ deps, answer }: AnswerTools): Answers<typeof RETURN_COMMANDS> {
  return { return: (command, context) => runReturnCommand(deps, command, context, answer) };
}
