import { utcDate } from '../../../time/local-time.ts';
import { SERVICE_ERROR_CODE, isServiceError } from '../../../domain/ports/service.ts';
import { showFit, type ShowFitSources } from '../../../domain/show-fit.ts';
import { showUnlockCost } from '../../../domain/unlock-cost.ts';
import { watchedAccountsAt } from '../../../domain/watch/at-show.ts';
import type { EisClient } from '../../../eis/index.ts';
import { EisNotFoundError } from '../../../eis/errors.ts';
import type { Store } from '../../../store/index.ts';
import type { Job, JobContext } from '../../kit/jobs.ts';
import { sharedBy } from '../../kit/share.ts';
import type { Answer } from '../../kit/answer.ts';
import type { WorkerDeps } from '../../kit/worker-deps.ts';
import { withPublicShowIds } from '../../kit/show-ids.ts';
import { errorMessage } from '../../views/messages.ts';
import type { CompareCommand } from './commands.ts';
import { type ComparedShow, type Comparison, compareCard } from './views.ts';

/** The worker's half of compare: every show read at once (detail, fit, unlock quote), then one card. */

export interface CompareSources extends ShowFitSources {
  eis: {
    events: Pick<EisClient['events'], 'detail' | 'fitScore'>;
    actions: Pick<EisClient['actions'], 'precheck'>;
  };
  watchLists: Pick<Store['watchLists'], 'allAccounts'>;
}

/** A revoked key is the user's to see (the boundary says so); any other failure leaves a gap in the card. */
const rethrowUnauthorized = (error: unknown) => {
  if (isServiceError(error, SERVICE_ERROR_CODE.unauthorized)) throw error;
};

async function showOf(eventId: string, sources: CompareSources): Promise<ComparedShow> {
  const [detail, fit, unlock] = await Promise.all([
    sources.eis.events.detail(eventId).catch((error: unknown) => {
      rethrowUnauthorized(error);
      return error instanceof EisNotFoundError ? ('not-found' as const) : ('unavailable' as const);
    }),
    showFit(sources, eventId),
    showUnlockCost(sources.eis, eventId),
  ]);
  if (typeof detail === 'string') return { found: false, eventId, reason: detail };
  return { found: true, event: detail, fit, watched: [], unlock };
}

/** Every show read in parallel, and the channel's watched accounts at each read meanwhile. */
export async function compareShows(
  eventIds: readonly string[],
  context: Pick<JobContext, 'teamId' | 'channelId'>,
  sources: CompareSources,
): Promise<Comparison> {
  const [accounts, shows] = await Promise.all([
    sources.watchLists.allAccounts(context.teamId, context.channelId).catch((error: unknown) => {
      sources.logger.warn('watched accounts unreadable for compare', { error });
      return [];
    }),
    Promise.all(eventIds.map((eventId) => showOf(eventId, sources))),
  ]);
  const at = watchedAccountsAt(accounts, eventIds);
  return {
    shows: shows.map((show, i) =>
      show.found ? { ...show, watched: at.get(eventIds[i] ?? '') ?? [] } : show,
    ),
    watchesAccounts: accounts.length > 0,
    today: utcDate(sources.now()),
  };
}

const commandText = (eventIds: readonly string[]) => `compare ${eventIds.join(' ')}`;

/** Two ids of one show (its public and its internal id) compare it with itself: said, not shown. */
function namedTwice(eventIds: readonly string[]): string | undefined {
  const repeated = eventIds.find((id, index) => eventIds.indexOf(id) !== index);
  return repeated === undefined
    ? undefined
    : `Two of the ids name the same show (its id is ${repeated}): name each show once.`;
}

/** `/events compare …` (typed, or shared) and the Compare… modal's job. */
export function compareJobs(deps: WorkerDeps, answer: Answer) {
  const sources: CompareSources = {
    eis: deps.eis,
    fitScores: deps.store.fitScores(deps.accountId),
    watchLists: deps.store.watchLists,
    logger: deps.logger,
    now: deps.now,
  };

  /** The command's answer, where its "working…" line was (with Share in channel). */
  async function runCompare(command: CompareCommand, context: JobContext): Promise<void> {
    // Typed ids came through the command's edge already: two of them may be one show's two ids.
    const twice = namedTwice(command.eventIds);
    if (twice) return answer(context, errorMessage(twice));
    const card = compareCard(await compareShows(command.eventIds, context, sources));
    return answer(context, card, { text: commandText(command.eventIds) });
  }

  /** The modal's answer, where the list was: privately for a private list, else for everyone. */
  async function compareJob(given: Extract<Job, { kind: 'compare' }>): Promise<void> {
    const job = await withPublicShowIds(deps.showIds, given);
    const twice = namedTwice(job.eventIds);
    if (twice) return answer(job.context, errorMessage(twice));
    const card = compareCard(await compareShows(job.eventIds, job.context, sources));
    if (job.private) return answer(job.context, card, { text: commandText(job.eventIds) });
    await deps.slack.post(job.context, sharedBy(card, job.context.userId));
  }

  return { runCompare, compareJob };
}
