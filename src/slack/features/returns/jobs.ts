import {
  lastFullQuarter,
  returnShows,
  showsReturn,
  type ReturnShow,
} from '../../../domain/outcome-return.ts';
import { creditRateOf, showCostTotals, spentByShow } from '../../../domain/plan/index.ts';
import type { JobContext } from '../../kit/jobs.ts';
import type { WorkerDeps } from '../../kit/worker-deps.ts';
import type { Answer } from '../../kit/answer.ts';
import type { ReturnCommand } from './commands.ts';
import { returnAnswer } from './views.ts';

/** The credits the channel spent on each show, or null when the ledger could not be read. */
async function spentOf(deps: WorkerDeps, teamId: string, channelId: string) {
  try {
    const kept = await deps.store.ledger.listKept(teamId, channelId);
    return spentByShow(channelId, kept.entries);
  } catch (error) {
    deps.logger.warn('the spend of a return could not be read', { error });
    return null;
  }
}

/** `/events return …`: read from the stored plan, entries, ledger and watch (no service call, nothing spent). */
export async function runReturnCommand(
  deps: WorkerDeps,
  command: ReturnCommand,
  context: JobContext,
  answer: Answer,
): Promise<void> {
  const { teamId, channelId } = context;
  const [plan, entries, spentOnShows, watchAccounts] = await Promise.all([
    deps.store.plans.get(teamId, channelId),
    deps.store.outcomes.forTeam(teamId),
    spentOf(deps, teamId, channelId),
    deps.store.watchLists.allAccounts(teamId, channelId).catch(() => []),
  ]);
  const planShows: ReturnShow[] = (plan?.shows ?? []).map(({ eventId, name, dateStart, dateEnd }) => ({
    eventId,
    name,
    dateStart,
    dateEnd,
  }));
  const period = command.eventId === undefined ? (command.period ?? lastFullQuarter(deps.now())) : undefined;
  const of = period ? { period } : { eventId: command.eventId ?? '' };
  const shows = returnShows(planShows, { channelId, entries }, of);
  const costs = showCostTotals(planShows, plan?.costs ?? []);
  const beyondCredits = new Map([...costs.byShow].map(([eventId, totals]) => [eventId, totals.total]));
  const read = showsReturn(shows, {
    channelId,
    entries,
    spentOnShows,
    beyondCredits,
    rate: creditRateOf(plan ?? {}),
    watchAccounts,
  });
  const title = period ? period.label : `show ${command.eventId ?? ''}`;
  return answer(context, returnAnswer(title, read, plan?.currency?.code, period !== undefined));
}
