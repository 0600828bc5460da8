import type { EisClient } from '../../../eis/index.ts';
import type { Logger } from '../../../platform/log.ts';
import { shownName } from '../../../domain/watch/index.ts';
import type { Store } from '../../../store/index.ts';
import type { JobContext } from '../../kit/jobs.ts';
import { errorMessage } from '../../views/messages.ts';
import type { SlackMessage } from '../../views/types.ts';
import type { SlackOut } from '../../kit/slack-out.ts';
import { readListOrRefuse } from './list-reading.ts';
import { overLimitWords } from './list-words.ts';
import { importedAnswer } from './answer-views.ts';
import { checkAfterChange, type CheckNowDeps } from './check-now.ts';
import { eisWatchLookups } from './lookups.ts';

export interface WatchImportDeps {
  store: { watchLists: Pick<Store['watchLists'], 'addAccounts' | 'settings'> & CheckNowDeps['watchLists'] };
  eis: EisClient;
  slack: Pick<SlackOut, 'ephemeral' | 'post'>;
  logger: Logger;
  now: () => Date;
}

/** An import's answer, and whether the channel is checked after it (accounts added to a watch that is on). */
interface Imported {
  answer: SlackMessage;
  checkAfter: boolean;
}

const refusal = (answer: SlackMessage): Imported => ({ answer, checkAfter: false });

/**
 * Stores an import's accounts in batches; the check of the channel run after the answer takes their
 * current shows without alerting (or the first check once the watch is on again). The modal refused bad input already; it is read again here because
 * the job crossed a process boundary, and the channel's own count may have grown meanwhile.
 */
async function importAccounts(deps: WatchImportDeps, context: JobContext, text: string): Promise<Imported> {
  const reading = readListOrRefuse(text);
  if (!reading.ok) return refusal(errorMessage(reading.problem));
  const result = await deps.store.watchLists.addAccounts(
    context.teamId,
    context.channelId,
    reading.accounts,
    context.userId,
  );
  if (!result.ok) return refusal(errorMessage(overLimitWords(result.watched, result.adding, 'importing')));
  const settings = await deps.store.watchLists.settings(context.teamId, context.channelId);
  const watchOn = settings?.status === 'on';
  const answer = importedAnswer({
    added: result.added.length,
    alreadyWatched: result.alreadyWatched.map(shownName),
    refused: reading.refused,
    watchOn,
  });
  return { answer, checkAfter: watchOn && result.added.length > 0 };
}

/**
 * The import modal's job: the accounts stored, the answer only the importer sees, in the channel, and
 * then the channel checked at once so the imported accounts are looked up now.
 */
export function watchImportJobs(deps: WatchImportDeps) {
  const checkDeps: CheckNowDeps = {
    watchLists: deps.store.watchLists,
    lookups: eisWatchLookups(deps.eis),
    slack: deps.slack,
    logger: deps.logger,
    now: deps.now,
  };
  return {
    watchImportJob: async ({ text, context }: { text: string; context: JobContext }) => {
      const imported = await importAccounts(deps, context, text);
      await deps.slack.ephemeral(context, imported.answer);
      if (imported.checkAfter) await checkAfterChange(checkDeps, context);
    },
  };
}
