import type { Answers, AnswerTools } from '../../kit/command-answers.ts';
import type { PLAN_COMMANDS } from './commands.ts';
import { planCommandDeps, runPlanCommand } from './jobs.ts';

/** The plan room's answer: `plan`, `plan add | remove | budget` for the channel, its canvas kept up to date. */
export function planAnswers({ deps, answer }: AnswerTools): Answers<typeof PLAN_COMMANDS> {
  const planDeps = planCommandDeps(deps);
  return { plan: (command, context) => runPlanCommand(command, context, planDeps, answer) };
}
