import type { Answers, AnswerTools } from '../../kit/command-answers.ts';
import type { PLAN_COMMANDS } from './commands.ts';
import { type PlanCommandDeps, runPlanCommand } from './jobs.ts';

/** The plan room's answer: `plan`, `plan add | remove | budget` for the channel, its canvas kept up to date. */
export function planAnswers({ deps, answer }: AnswerTools): Answers<typeof PLAN_COMMANDS> {
  const { store } = deps;
  const planDeps: PlanCommandDeps = {
    plans: store.plans,
    eis: deps.eis,
    watchLists: store.watchLists,
    ledger: store.ledger,
    fitScores: store.fitScores(deps.accountId),
    canvas: deps.planCanvas,
    slack: deps.slack,
    roles: deps.workspaceRoles,
    logger: deps.logger,
    now: deps.now,
  };
  return { plan: (command, context) => runPlanCommand(command, context, planDeps, answer) };
}
