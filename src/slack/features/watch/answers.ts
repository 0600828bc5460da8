import type { Answers, AnswerTools } from '../../kit/command-answers.ts';
import { runWatchCommand, type WatchCommandDeps } from './command-jobs.ts';
import type { WATCH_COMMANDS } from './commands.ts';
import { eisWatchLookups } from './lookups.ts';
import { type WatchShowsDeps, watchShowsPage } from './shows.ts';

/** The watch room's answer: `watch add | remove | list | shows | …` for the channel, seen by the requester only. */
export function watchAnswers({ deps }: AnswerTools): Answers<typeof WATCH_COMMANDS> {
  const watchDeps: WatchCommandDeps = {
    watchLists: deps.store.watchLists,
    lookups: eisWatchLookups(deps.eis),
    slack: deps.slack,
    logger: deps.logger,
    now: deps.now,
  };
  const showsDeps: WatchShowsDeps = {
    watchLists: deps.store.watchLists,
    eis: deps.eis,
    fitScores: deps.store.fitScores(deps.accountId),
    logger: deps.logger,
    now: deps.now,
  };
  return {
    watch: async (command, context) => {
      if (command.name !== 'watch-shows') return runWatchCommand(command, context, watchDeps);
      const page = await watchShowsPage(showsDeps, context, command);
      await deps.slack.ephemeral(context, page, { replaceOriginal: context.placeholder ?? false });
    },
  };
}
