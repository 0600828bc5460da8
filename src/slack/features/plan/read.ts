import { inPool } from '../../../domain/pool.ts';
import {
  compareByDate,
  planCosts,
  planMoney,
  planSpend,
  showCostTotals,
  spentByShow,
} from '../../../domain/plan/index.ts';
import { showFit, type ShowFitSources } from '../../../domain/show-fit.ts';
import { showUnlockCost } from '../../../domain/unlock-cost.ts';
import type { KeptEntries, LedgerRepository, Plan, PlanShow } from '../../../domain/ports/index.ts';
import { watchedAccountsAt } from '../../../domain/watch/at-show.ts';
import { rankWatchedShows } from '../../../domain/watch/where.ts';
import { utcDate } from '../../../time/local-time.ts';
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

/** What the ledger keeps of the channel (one bounded read), or null when it could not be read. */
async function keptOf(deps: PlanReadDeps, plan: Plan): Promise<KeptEntries | null> {
  try {
    return await deps.ledger.listKept(plan.teamId, plan.channelId);
  } catch (error) {
    deps.logger.warn('the plan’s spend could not be read', { error });
    return null;
  }
}

/** A show with the dates the service gives now, or as stored when it gives none. */
const withDatesOf = (
  show: PlanShow,
  detail: { dateStart?: string | null; dateEnd?: string | null } | null,
) => (detail?.dateStart ? { ...show, dateStart: detail.dateStart, dateEnd: detail.dateEnd ?? null } : show);

/** What the card shows of one show, read from the service at once: its fit, unlock price and detail now. */
const rowReads = (deps: PlanReadDeps, eventId: string) =>
  Promise.all([
    fitOf(deps, eventId),
    showUnlockCost(deps.eis, eventId),
    deps.eis.events.detail(eventId).catch(() => null),
  ]);

const balanceOf = (deps: PlanReadDeps) =>
  deps.eis.credits
    .balance()
    .then((b) => b.totalBalance)
    .catch(() => null);

/**
 * The service reads of a plan's card for these shows and the balance, started now and not awaited:
 * with `readsOnce`, the card read next (`readPlanView`) finds them under way or done, so `plan add`
 * waits for one service round trip (the show's read and the card's at once), not one after another.
 */
export function startPlanReads(deps: PlanReadDeps, eventIds: readonly string[]): void {
  void balanceOf(deps); // asked once, however often started
  void inPool(eventIds, READ_AT_ONCE, async (eventId) => {
    await rowReads(deps, eventId);
  }).catch(() => undefined); // read again, and reported, by the card
}

/** The plan as the card and the canvas show it: each show's fit, watched accounts and unlock price. */
export async function readPlanView(deps: PlanReadDeps, plan: Plan): Promise<PlanView> {
  const { shows } = plan;
  const rows: PlanRow[] = shows.map((show) => ({
    show,
    fit: null,
    watched: [],
    cost: { state: 'locked', credits: 0, estimated: true },
  }));
  // The channel's accounts, the balance and the ledger are read while the shows are.
  const [[accounts, balance, kept]] = await Promise.all([
    Promise.all([
      deps.watchLists.allAccounts(plan.teamId, plan.channelId).catch(() => []),
      balanceOf(deps),
      keptOf(deps, plan),
    ]),
    inPool(rows, READ_AT_ONCE, async (row) => {
      const [fit, cost, detail] = await rowReads(deps, row.show.eventId);
      Object.assign(row, {
        fit,
        cost,
        country: detail?.country ?? null,
        show: withDatesOf(row.show, detail),
      });
    }),
  ]);
  const watched = watchedAccountsAt(
    accounts,
    shows.map((s) => s.eventId),
  );
  for (const row of rows) row.watched = watched.get(row.show.eventId) ?? [];
  // The shows' quarters as the service dates them now: the spend follows a show it moved.
  const spend =
    kept &&
    planSpend(
      { channelId: plan.channelId, shows: rows.map((r) => r.show), removed: plan.removed },
      kept.entries,
    );
  const costs = planCosts(
    rows.map((row) => ({ dateStart: row.show.dateStart, cost: row.cost })),
    plan.budgets,
    spend ?? undefined,
  );
  rows.sort((a, b) => compareByDate(a.show, b.show));
  const entries = plan.costs ?? [];
  const costsBeyondCredits = {
    totals: showCostTotals(
      rows.map((row) => row.show),
      entries,
    ),
    currency: plan.currency ?? null,
    entries,
  };
  // Computed from the stored charges, costs and price each time: a new price changes what is shown.
  const money = planMoney({
    plan,
    shows: rows.map((row) => row.show),
    costs: costsBeyondCredits.totals,
    spentOnShows: kept && spentByShow(plan.channelId, kept.entries),
    spend,
  });
  const today = utcDate(deps.now());
  const watchedShows = rankWatchedShows(accounts, today);
  return {
    today,
    channelId: plan.channelId,
    rows,
    costs,
    balance,
    spendCapped: kept?.capped ?? false,
    costsBeyondCredits,
    money,
    watchedShows,
  };
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
