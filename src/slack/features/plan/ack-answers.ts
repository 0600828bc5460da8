import { PLAN_LIMITS } from '../../../domain/plan/rules.ts';
import type { PlanShow } from '../../../domain/ports/plan-records.ts';
import { botNotice, errorMessage } from '../../views/messages.ts';
import { mk } from '../../views/mrkdwn.ts';
import type { SlackMessage } from '../../views/types.ts';
import type { PlanCommand } from './commands.ts';
import { alreadyOnPlanWords, planFullWords } from './plan-words.ts';

/**
 * `plan add <id>` answered in the command's ack, from the channel's plan as stored (one read, no
 * service call): a show already on it, or a plan that holds no more. Anything else (undefined) is
 * the worker's: it asks the service for the show and adds it.
 */
export function planAddInAck(command: PlanCommand, shows: readonly PlanShow[]): SlackMessage | undefined {
  if (command.name !== 'plan-add') return undefined;
  const onPlan = shows.find((show) => show.eventId === command.eventId);
  if (onPlan)
    return botNotice(mk`${alreadyOnPlanWords(onPlan)} Nothing was added; \`/events plan\` shows the plan.`);
  if (shows.length >= PLAN_LIMITS.shows) return errorMessage(planFullWords());
  return undefined;
}
