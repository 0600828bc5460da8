import type { Answers, AnswerTools } from '../../kit/command-answers.ts';
import type { OUTCOME_COMMANDS } from './commands.ts';
import { runOutcomeCommand } from './jobs.ts';

/** The outcomes room's answer: an entry logged (its card in the channel), or one deleted. */
export function outcomeAnswers({ deps, answer }: AnswerTools): Answers<typeof OUTCOME_COMMANDS> {
  return { outcome: (command, context) => runOutcomeCommand(deps, command, context, answer) };
}
