import { WATCH_LIMITS } from '../../../domain/ports/watch.ts';
import { readWatchList } from '../../../domain/watch/input.ts';
import type { Store } from '../../../store/index.ts';
import type { JobContext } from '../../jobs.ts';
import { errorMessage } from '../../views/messages.ts';
import type { SlackMessage } from '../../views/types.ts';
import type { SlackOut } from '../../worker/slack-out.ts';
import { importedAnswer } from './answer-views.ts';

export interface WatchImportDeps {
  store: { watchLists: Pick<Store['watchLists'], 'addAccounts'> };
  slack: Pick<SlackOut, 'ephemeral'>;
}

const formatted = (count: number) => count.toLocaleString('en-US');

/**
 * Stores an import's accounts in batches, none looked up now: the check they make due takes their
 * current shows without alerting. The modal refused bad input already; it is read again here because
 * the job crossed a process boundary, and the channel's own count may have grown meanwhile.
 */
async function importAccounts(
  deps: WatchImportDeps,
  context: JobContext,
  text: string,
): Promise<SlackMessage> {
  const reading = readWatchList(text);
  if (!reading.ok)
    return errorMessage(
      `That is ${formatted(reading.count)} accounts; a channel watches at most ${formatted(reading.limit)}. Nothing was added.`,
    );
  if (reading.accounts.length === 0)
    return errorMessage('No company name or domain was found in that. Nothing was added.');
  const result = await deps.store.watchLists.addAccounts(
    context.teamId,
    context.channelId,
    reading.accounts,
    context.userId,
  );
  if (!result.ok)
    return errorMessage(
      `This channel watches ${formatted(result.watched)} accounts; importing ${formatted(result.adding)} more would pass the limit of ${formatted(WATCH_LIMITS.accountsPerChannel)}. Nothing was added: remove some with \`/events watch remove <name>\`, or import fewer.`,
    );
  return importedAnswer({
    added: result.added.length,
    alreadyWatched: result.alreadyWatched.map((account) => account.label),
    refused: reading.refused,
  });
}

/** The import modal's job: the accounts stored, and the answer only the importer sees, in the channel. */
export function watchImportJobs(deps: WatchImportDeps) {
  return {
    watchImportJob: async ({ text, context }: { text: string; context: JobContext }) =>
      deps.slack.ephemeral(context, await importAccounts(deps, context, text)),
  };
}
