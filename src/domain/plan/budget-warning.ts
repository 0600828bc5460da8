import type { Logger } from '../../platform/log.ts';
import { type Period, quarterContaining } from '../periods.ts';
import type { LedgerRepository, PlanRepository } from '../ports/index.ts';
import type { PlanBudget } from '../ports/records.ts';
import { pastWarningLine, planSpend } from './rules.ts';

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
  ledger: LedgerRepository;
  post: (warning: BudgetWarning) => Promise<void>;
  logger: Logger;
}

/**
 * After a charge is booked to a channel: when the plan's spend in the quarter of `at` reaches the
 * warning share of that quarter's budget, the channel is warned, once per budget (a conditional
 * write claims the warning before it is posted, so retries and concurrent charges warn once; a post
 * that fails frees the claim, so the next charge warns instead of none).
 */
export async function warnIfPastBudget(
  deps: BudgetWarningDeps,
  charge: { teamId: string; channelId: string; at: Date },
): Promise<BudgetWarning | undefined> {
  const plan = await deps.plans.get(charge.teamId, charge.channelId);
  const quarter = quarterContaining(charge.at);
  const budget = plan?.budgets[quarter.key];
  if (!budget) return undefined;
  const entries = await deps.ledger.listSince(charge.teamId, new Date(`${quarter.from}T00:00:00Z`));
  const spent = planSpend(entries, charge.channelId, quarter);
  if (!pastWarningLine(budget.credits, spent)) return undefined;
  const first = await deps.plans.claimBudgetWarning(
    charge.teamId,
    charge.channelId,
    quarter.key,
    budget.setAt,
  );
  if (!first) return undefined;
  const warning = { teamId: charge.teamId, channelId: charge.channelId, quarter, budget, spent };
  try {
    await deps.post(warning);
  } catch (error) {
    await deps.plans.releaseBudgetWarning(charge.teamId, charge.channelId, quarter.key, budget.setAt);
    throw error;
  }
  deps.logger.info('plan budget warning posted', { quarter: quarter.key, spent, budget: budget.credits });
  return warning;
}
