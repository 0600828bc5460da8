import type { Answers, AnswerTools } from '../../kit/command-answers.ts';
import { runWatchCommand, type WatchCommandDeps } from './command-jobs.ts';
import type { WATCH_COMMANDS } from './commands.ts';
import { eisWatchLookups } from './lookups.ts';

/** The watch room's answer: `watch add | remove | list | …` for the channel, seen by the requester only. */
export function watchAnswers({ deps }: AnswerTools): Answers<typeof WATCH_COMMANDS> {
  const watchDeps: WatchCommandDeps = {
    watchLists: deps.store.watchLists,
    lookups: eisWatchLookups(deps.eis),
    slack: deps.slack,
    policy: deps.policy,
    roles: deps.workspaceRoles,
    logger: deps.logger,
    now: deps.now,
  };
  return { watch: (command, context) => runWatchCommand(command, context, watchDeps) };
}
