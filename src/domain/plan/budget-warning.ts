import type { Logger } from '../../platform/log.ts';
import { type Period, parseQuarter } from '../periods.ts';
import type { LedgerRepository, PlanRepository } from '../ports/index.ts';
import type { PlanBudget } from '../ports/records.ts';
import { pastWarningLine } from './rules.ts';
import { planSpend } from './spend.ts';

/** A channel's plan spent past the warning share of its quarter's budget. */
export interface BudgetWarning {
  teamId: string;
  channelId: string;
  quarter: Period;
  budget: PlanBudget;
  spent: number;
}

export interface BudgetWarningDeps {
  plans: Pick<PlanRepository, 'get' | 'claimBudgetWarning' | 'releaseBudgetWarning'>;
  ledger: Pick<LedgerRepository, 'listKept'>;
  post: (warning: BudgetWarning) => Promise<void>;
  logger: Logger;
}

/**
 * After a charge is booked to a channel: each quarter of the plan whose shows' spend (see `planSpend`)
 * reaches the warning share of its budget is warned about, once per budget (a conditional write claims
 * the warning before it is posted, so retries and concurrent charges warn once; a post that fails
 * frees the claim, so the next charge warns instead of none).
 */
export async function warnIfPastBudget(
  deps: BudgetWarningDeps,
  charge: { teamId: string; channelId: string },
): Promise<BudgetWarning[]> {
  const plan = await deps.plans.get(charge.teamId, charge.channelId);
  const budgeted = Object.entries(plan?.budgets ?? {});
  if (!plan || budgeted.length === 0) return [];
  const { entries } = await deps.ledger.listKept(charge.teamId, charge.channelId);
  const spend = planSpend(plan, entries);
  const warnings: BudgetWarning[] = [];
  for (const [key, budget] of budgeted) {
    const quarter = parseQuarter(key);
    const spent = spend.quarters[key]?.onShows ?? 0;
    if (!quarter || !pastWarningLine(budget.credits, spent)) continue;
    const warning = { teamId: charge.teamId, channelId: charge.channelId, quarter, budget, spent };
    if (await postOnce(deps, warning)) warnings.push(warning);
  }
  return warnings;
}

/** Claims the warning of this budget, then posts it; false when it was claimed before. */
async function postOnce(deps: BudgetWarningDeps, warning: BudgetWarning): Promise<boolean> {
  const { teamId, channelId, quarter, budget } = warning;
  if (!(await deps.plans.claimBudgetWarning(teamId, channelId, quarter.key, budget.setAt))) return false;
  try {
    await deps.post(warning);
  } catch (error) {
    await deps.plans.releaseBudgetWarning(teamId, channelId, quarter.key, budget.setAt);
    throw error;
  }
  deps.logger.info('plan budget warning posted', {
    quarter: quarter.key,
    spent: warning.spent,
    budget: budget.credits,
  });
  return true;
}
