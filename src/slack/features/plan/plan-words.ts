import { PLAN_LIMITS } from '../../../domain/plan/rules.ts';
import type { PlanShow } from '../../../domain/ports/plan-records.ts';
import { escapeMrkdwn, mk, type Mrkdwn } from '../../views/mrkdwn.ts';

/**
 * The plan's words that both the ack (`ack-answers.ts`) and the worker say, kept light: the Slack
 * function loads them to answer `plan add` without the plan's views or jobs.
 */

/** A show's name as the card, the canvas and the Home show it (plain text; the card escapes it). */
export const showName = (show: PlanShow) => show.name?.trim() || `Event ${show.eventId}`;

export const alreadyOnPlanWords = (show: PlanShow): Mrkdwn =>
  mk`*${escapeMrkdwn(showName(show))}* is already on this channel’s plan.`;

export const planFullWords = () =>
  `This channel's plan already has ${PLAN_LIMITS.shows} shows, the most it holds. Remove one with /events plan remove <id> first.`;
