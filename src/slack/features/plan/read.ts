import { inPool } from '../../../domain/pool.ts';
import { parseQuarter } from '../../../domain/periods.ts';
import { byDate, planCosts, planSpend, showCostTotals } from '../../../domain/plan/index.ts';
import { showFit, type ShowFitSources } from '../../../domain/show-fit.ts';
import { showUnlockCost } from '../../../domain/unlock-cost.ts';
import type { LedgerRepository, Plan, PlanShow } from '../../../domain/ports/index.ts';
import { watchedAccountsAt } from '../../../domain/watch/at-show.ts';
import { rankWatchedShows } from '../../../domain/watch/where.ts';
import { utcDate } from '../../../time/local-time.ts';
import type { EisClient } from '../../../eis/index.ts';
import type { Store } from '../../../store/index.ts';
import { fitBand } from '../../views/fit-band.ts';
import type { PlanRow, PlanView } from './views.ts';

/** What reading a plan for showing asks of the service and the store (all free reads). */
export interface PlanReadDeps extends ShowFitSources {
  eis: Pick<EisClient, 'events' | 'actions' | 'credits'>;
  watchLists: Pick<Store['watchLists'], 'allAccounts'>;
  ledger: LedgerRepository;
}

/** Shows read at once (each a fit score and a precheck). */
const READ_AT_ONCE = 5;

async function fitOf(deps: PlanReadDeps, eventId: string): Promise<PlanRow['fit']> {
  const fit = await showFit(deps, eventId);
  if (!fit) return null;
  const score = Math.min(10, Math.max(0, fit.score));
  return { score, band: fitBand(score, fit.recommendation) };
}

/** The channel's spend in each quarter that has a budget (one ledger read from the earliest). */
async function spentByQuarter(deps: PlanReadDeps, plan: Plan): Promise<Record<string, number>> {
  const quarters = Object.keys(plan.budgets).flatMap((key) => parseQuarter(key) ?? []);
  const earliest = quarters.map((q) => q.from).sort()[0];
  if (!earliest) return {};
  const entries = await deps.ledger.listSince(plan.teamId, new Date(`${earliest}T00:00:00Z`));
  return Object.fromEntries(quarters.map((q) => [q.key, planSpend(entries, plan.channelId, q)]));
}

/** The plan as the card and the canvas show it: each show's fit, watched accounts and unlock price. */
export async function readPlanView(deps: PlanReadDeps, plan: Plan): Promise<PlanView> {
  const shows: PlanShow[] = byDate(plan.shows);
  const [accounts, balance, spent] = await Promise.all([
    deps.watchLists.allAccounts(plan.teamId, plan.channelId).catch(() => []),
    deps.eis.credits
      .balance()
      .then((b) => b.totalBalance)
      .catch(() => null),
    spentByQuarter(deps, plan).catch((error: unknown) => {
      deps.logger.warn('the plan’s spend could not be read', { error });
      return {};
    }),
  ]);
  const watched = watchedAccountsAt(
    accounts,
    shows.map((s) => s.eventId),
  );
  const rows: PlanRow[] = shows.map((show) => ({
    show,
    fit: null,
    watched: watched.get(show.eventId) ?? [],
    cost: { state: 'locked', credits: 0, estimated: true },
  }));
  await inPool(rows, READ_AT_ONCE, async (row) => {
    [row.fit, row.cost] = await Promise.all([
      fitOf(deps, row.show.eventId),
      showUnlockCost(deps.eis, row.show.eventId),
    ]);
  });
  const costs = planCosts(
    rows.map((row) => ({ dateStart: row.show.dateStart, cost: row.cost })),
    plan.budgets,
    spent,
  );
  const entries = plan.costs ?? [];
  const costsBeyondCredits = {
    totals: showCostTotals(shows, entries),
    currency: plan.currency ?? null,
    entries,
  };
  const watchedShows = rankWatchedShows(accounts, utcDate(deps.now()));
  return { channelId: plan.channelId, rows, costs, balance, costsBeyondCredits, watchedShows };
}
