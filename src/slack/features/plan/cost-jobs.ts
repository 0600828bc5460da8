import { setCurrency, setShowCosts, showCostTotals } from '../../../domain/plan/index.ts';
import type { JobContext } from '../../kit/jobs.ts';
import { mentionUser } from '../../views/format.ts';
import { escapeMrkdwn, mk } from '../../views/mrkdwn.ts';
import type { PlanCostCommand } from './cost-reading.ts';
import { costUsage } from './cost-words.ts';
import { kindTotalsWords } from './cost-views.ts';
import type { Changed, PlanCommandDeps } from './plan-deps.ts';
import { showName } from './plan-words.ts';

/** `plan cost …` and `plan currency …`: the plan's costs beyond credits changed, or the currency told. */
export async function changeCosts(
  deps: PlanCommandDeps,
  context: JobContext,
  command: PlanCostCommand,
): Promise<Changed> {
  const { teamId, channelId, userId } = context;
  if (command.name === 'plan-currency-show') {
    const plan = await deps.plans.get(teamId, channelId);
    const notice = plan?.currency
      ? mk`This plan’s costs are in ${escapeMrkdwn(plan.currency.code)} (set by ${mentionUser(plan.currency.setBy)}).`
      : mk`This plan has no currency yet: its costs are shown without one. Set it with \`/events plan currency EUR\`.`;
    return { plan, notice };
  }
  const at = deps.now();
  if (command.name === 'plan-currency') {
    const { result, plan } = await deps.plans.update(teamId, channelId, (current) =>
      setCurrency(current, command.code, userId, at),
    );
    const code = escapeMrkdwn(result.code);
    const kept =
      result.costs === 0
        ? mk``
        : result.previous && result.previous !== result.code
          ? mk` The ${result.costs} costs entered in ${escapeMrkdwn(result.previous)} keep their amounts: nothing is converted.`
          : mk` The costs entered before are read in ${code}.`;
    return { plan, notice: mk`This plan’s costs are in ${code} now.${kept}`, wrote: true };
  }
  const { result, plan } = await deps.plans.update(teamId, channelId, (current) =>
    setShowCosts(current, { eventId: command.eventId, amounts: command.amounts, setBy: userId, at }),
  );
  if (result.outcome === 'not-on-plan')
    return {
      refusal: `Event ${command.eventId} is not on this channel’s plan, so no cost was set. Add it first with /events plan add ${command.eventId}. ${costUsage()}`,
    };
  const name = mk`*${escapeMrkdwn(showName(result.show))}*`;
  const totals = showCostTotals([result.show], result.costs).byShow.get(command.eventId);
  const notice = totals
    ? mk`Costs of ${name}: ${escapeMrkdwn(kindTotalsWords(totals, plan?.currency ?? null))}.`
    : mk`${name} has no costs now.`;
  return { plan, notice, wrote: true };
}
