import { inPool } from '../../../domain/pool.ts';
import { byDate, planCosts, type PlanSpend, planSpend } from '../../../domain/plan/index.ts';
import { showFit, type ShowFitSources } from '../../../domain/show-fit.ts';
import { showUnlockCost } from '../../../domain/unlock-cost.ts';
import type { LedgerRepository, Plan, PlanShow } from '../../../domain/ports/index.ts';
import { watchedAccountsAt } from '../../../domain/watch/at-show.ts';
import type { EisClient } from '../../../eis/index.ts';
import type { Store } from '../../../store/index.ts';
import { fitBand } from '../../views/fit-band.ts';
import type { HomePlans } from './home-views.ts';
import type { PlanRow, PlanView } from './views.ts';

/** What reading a plan for showing asks of the service and the store (all free reads). */
export interface PlanReadDeps extends ShowFitSources {
  eis: Pick<EisClient, 'events' | 'actions' | 'credits'>;
  watchLists: Pick<Store['watchLists'], 'allAccounts'>;
  ledger: Pick<LedgerRepository, 'listKept'>;
}

/** Shows read at once (each a fit score and a precheck). */
const READ_AT_ONCE = 5;

async function fitOf(deps: PlanReadDeps, eventId: string): Promise<PlanRow['fit']> {
  const fit = await showFit(deps, eventId);
  if (!fit) return null;
  const score = Math.min(10, Math.max(0, fit.score));
  return { score, band: fitBand(score, fit.recommendation) };
}

/** The plan's spend (its budget rule), from one bounded read of what the ledger keeps of the channel. */
async function spendOf(deps: PlanReadDeps, plan: Plan): Promise<{ spend?: PlanSpend; capped: boolean }> {
  try {
    const { entries, capped } = await deps.ledger.listKept(plan.teamId, plan.channelId);
    return { spend: planSpend(plan, entries), capped };
  } catch (error) {
    deps.logger.warn('the plan’s spend could not be read', { error });
    return { capped: false };
  }
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
    spendOf(deps, plan),
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
    spent.spend,
  );
  return { channelId: plan.channelId, rows, costs, balance, spendCapped: spent.capped };
}

/** The spend of the plans shown (see `planSpend`), from one bounded read of the team's ledger. */
export async function withPlanSpend(
  ledger: Pick<LedgerRepository, 'listKept'>,
  teamId: string,
  shown: Omit<HomePlans, 'spend'>,
): Promise<HomePlans> {
  if (!shown.plans.some((plan) => Object.keys(plan.budgets).length > 0)) return shown;
  const { entries } = await ledger.listKept(teamId);
  return {
    ...shown,
    spend: Object.fromEntries(shown.plans.map((plan) => [plan.channelId, planSpend(plan, entries)])),
  };
}
