import type { Answers, AnswerTools } from '../../kit/command-answers.ts';
import type { COMPARE_COMMANDS } from './commands.ts';
import { compareJobs } from './jobs.ts';

/** The compare room's answer: the shows side by side, with Share in channel. */
export function compareAnswers({ deps, answer }: AnswerTools): Answers<typeof COMPARE_COMMANDS> {
  return { compare: compareJobs(deps, answer).runCompare };
}
