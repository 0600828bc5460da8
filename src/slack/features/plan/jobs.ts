import {
  addShow,
  BUDGET_WARNING_SHARE,
  removeShow,
  setBudget,
  syncPlanCanvas,
  withoutCostsOfRemoved,
  withServiceDates,
} from '../../../domain/plan/index.ts';
import { isPastShow } from '../../../domain/past-show.ts';
import type { Plan, PlanShow } from '../../../domain/ports/index.ts';
import { utcDate } from '../../../time/local-time.ts';
import { readShow } from '../../kit/show-ids.ts';
import type { JobContext } from '../../kit/jobs.ts';
import type { WorkerDeps } from '../../kit/worker-deps.ts';
import { slackErrorCode } from '../../slack-errors.ts';
import { botNotice, errorMessage } from '../../views/messages.ts';
import type { Answer } from '../../kit/answer.ts';
import { CANVAS_RECREATED_WORDS, canvasFailureWords, planCanvasMarkdown } from './canvas.ts';
import type { PlanCommand } from './commands.ts';
import { readPlanView, startPlanReads } from './read.ts';
import { readsOnce } from './reads-once.ts';
import type { Changed, PlanCommandDeps } from './plan-deps.ts';
import { budgetsAnswer, planCard, type PlanView } from './views.ts';
import { alreadyOnPlanWords, planFullWords, showName } from './plan-words.ts';
import { escapeMrkdwn, joinMrkdwn, mk } from '../../views/mrkdwn.ts';
import { formatDateRange, formatNumber } from '../../views/format.ts';
import { changeCosts } from './cost-jobs.ts';
import { changeCreditPrice, changeMoneyBudget } from './money-jobs.ts';
import { exportPlan } from './export.ts';

const emptyPlan = (context: JobContext, at: Date): Plan => ({
  type: 'plan',
  teamId: context.teamId,
  channelId: context.channelId,
  shows: [],
  budgets: {},
  revision: 1,
  createdAt: at.toISOString(),
  updatedAt: at.toISOString(),
});

/** Each plan revision read once, for the answer and the canvas alike. */
function viewsOf(deps: PlanCommandDeps) {
  const read = new Map<number, Promise<PlanView>>();
  return (plan: Plan) => {
    const known = read.get(plan.revision);
    if (known) return known;
    const view = readPlanView(deps, plan);
    read.set(plan.revision, view);
    return view;
  };
}

/** Brings the canvas up to date; what went wrong with it in the user's words, or undefined. */
async function updateCanvas(
  deps: PlanCommandDeps,
  context: JobContext,
  viewOf: (plan: Plan) => Promise<PlanView>,
) {
  const { canvas } = deps;
  if (!canvas) return undefined;
  try {
    const render = async (plan: Plan) => planCanvasMarkdown(await viewOf(plan));
    const synced = await syncPlanCanvas(
      { plans: deps.plans, canvas, render, now: deps.now },
      context.teamId,
      context.channelId,
    );
    if (synced === 'recreated')
      await deps.slack
        .post(context, botNotice(CANVAS_RECREATED_WORDS))
        .catch((error: unknown) => deps.logger.warn('could not say the canvas was made again', { error }));
    return undefined;
  } catch (error) {
    deps.logger.warn('the plan’s canvas could not be updated', { slackError: slackErrorCode(error), error });
    return canvasFailureWords(error);
  }
}

/**
 * The show as the service knows it, under its public id (the detail says it: one id per show, see
 * `src/domain/show-ids.ts`), or null when it knows no show by that id.
 */
async function showToAdd(
  deps: PlanCommandDeps,
  context: JobContext,
  eventId: string,
): Promise<PlanShow | null> {
  const show = await readShow(deps.eis.events, eventId);
  return show && { ...show, addedBy: context.userId, addedAt: deps.now().toISOString() };
}

/**
 * The show to add, read while the card's reads of the plan with it start (`readsOnce` keeps each read
 * for the card): its own at once, the other shows' once the plan is read as stored (not waiting for
 * its ids' conversion: the card's detail reads teach it). The answer waits for about one service
 * round trip.
 */
async function withCardReads(deps: PlanCommandDeps, context: JobContext, eventId: string) {
  const toAdd = showToAdd(deps, context, eventId);
  toAdd.catch(() => undefined); // awaited below, once the plan is read
  startPlanReads(deps, [eventId]);
  const stored = await (deps.storedPlans ?? deps.plans).get(context.teamId, context.channelId);
  startPlanReads(deps, stored?.shows.map((show) => show.eventId) ?? []);
  return toAdd;
}

async function change(deps: PlanCommandDeps, context: JobContext, command: PlanCommand): Promise<Changed> {
  const { teamId, channelId, userId } = context;
  switch (command.name) {
    case 'plan-add': {
      const show = await withCardReads(deps, context, command.eventId);
      if (!show)
        return {
          refusal: `The service knows no show with the id ${command.eventId}, so nothing was added. Find ids with /events search.`,
        };
      if (isPastShow(show, utcDate(deps.now())))
        return {
          refusal: `${showName(show)} has ended (${formatDateRange(show.dateStart, show.dateEnd)}), so it was not added: a plan is for shows ahead. Find upcoming shows with /events search.`,
        };
      const { result, plan } = await deps.plans.update(teamId, channelId, (current) =>
        addShow(current, show),
      );
      if (result.outcome === 'full') return { refusal: planFullWords() };
      if (result.outcome === 'already') return { plan, notice: alreadyOnPlanWords(result.show) };
      return {
        plan,
        notice: mk`Added *${escapeMrkdwn(showName(result.show))}* to this channel’s plan.`,
        wrote: true,
      };
    }
    case 'plan-remove': {
      const { result, plan } = await deps.plans.update(teamId, channelId, (current) =>
        withoutCostsOfRemoved(removeShow(current, command.eventId), command.eventId),
      );
      if (result.outcome === 'absent')
        return {
          plan,
          notice: mk`Event ${escapeMrkdwn(command.eventId)} is not on this channel’s plan; nothing was removed.`,
        };
      return {
        plan,
        notice: mk`Removed *${escapeMrkdwn(showName(result.show))}* from this channel’s plan.`,
        wrote: true,
      };
    }
    case 'plan-budget': {
      if ('money' in command) return changeMoneyBudget(deps, context, command);
      const { quarter, credits } = command;
      const { plan } = await deps.plans.update(teamId, channelId, (current) =>
        setBudget(current, quarter, credits, userId, deps.now()),
      );
      return {
        plan,
        wrote: true,
        notice:
          credits === 0
            ? mk`${escapeMrkdwn(quarter.label)} has no budget now.`
            : mk`The budget for ${escapeMrkdwn(quarter.label)} is ${formatNumber(credits)} credits. It counts what this channel spends on the plan’s ${escapeMrkdwn(quarter.label)} shows, whenever it is spent; the channel is warned once when that reaches ${BUDGET_WARNING_SHARE * 100}% of it.`,
      };
    }
    case 'plan-cost':
    case 'plan-currency':
    case 'plan-currency-show':
      return changeCosts(deps, context, command);
    case 'plan-credit-price':
    case 'plan-credit-price-show':
      return changeCreditPrice(deps, context, command);
    default:
      return { plan: await deps.plans.get(teamId, channelId), notice: mk`` };
  }
}

/**
 * Stores the dates the service moved shows to (the view read them), so the canvas, Home and the
 * warning count their spend in their new quarter too.
 */
async function keepServiceDates(
  deps: PlanCommandDeps,
  context: JobContext,
  plan: Plan,
  view: PlanView,
  viewOf: (plan: Plan) => Promise<PlanView>,
): Promise<void> {
  const stored = new Map(plan.shows.map((show) => [show.eventId, show]));
  const moved = view.rows.filter(({ show }) => {
    const was = stored.get(show.eventId);
    return was && (was.dateStart !== show.dateStart || was.dateEnd !== show.dateEnd);
  });
  if (moved.length === 0) return;
  const dates = new Map(moved.map(({ show }) => [show.eventId, show]));
  const { result } = await deps.plans.update(context.teamId, context.channelId, (current) =>
    withServiceDates(current, dates),
  );
  if (result.moved > 0) await updateCanvas(deps, context, viewOf);
}

/** `/events plan …`: the change (when one), the canvas brought up to date, and the plan as it is now. */
export async function runPlanCommand(
  command: PlanCommand,
  context: JobContext,
  given: PlanCommandDeps,
  answer: Answer,
) {
  // One answer's reads, each asked of the service once (`plan add` starts them early).
  const deps = { ...given, eis: readsOnce(given.eis) };
  const changed = await change(deps, context, command);
  if ('refusal' in changed) return answer(context, errorMessage(changed.refusal));
  const viewOf = viewsOf(deps);
  const plan = changed.plan ?? emptyPlan(context, deps.now());
  const canvasProblem = changed.wrote ? await updateCanvas(deps, context, viewOf) : undefined;
  const view = await viewOf(plan);
  await keepServiceDates(deps, context, plan, view, viewOf);
  if (command.name === 'plan-budgets') return answer(context, budgetsAnswer(view));
  if (command.name === 'plan-export') return answer(context, await exportPlan(deps, context, view));
  const notice = joinMrkdwn(
    [changed.notice, canvasProblem ? mk`:warning: ${escapeMrkdwn(canvasProblem)}` : mk``].filter(Boolean),
    '\n',
  );
  return answer(context, planCard(view, notice || undefined));
}

/** The plan room's reads and writes, from the worker's. */
export function planCommandDeps(deps: WorkerDeps): PlanCommandDeps {
  const { store } = deps;
  return {
    plans: store.plans,
    storedPlans: deps.storedPlans,
    eis: deps.eis,
    watchLists: store.watchLists,
    ledger: store.ledger,
    fitScores: store.fitScores(deps.accountId),
    canvas: deps.planCanvas,
    slack: deps.slack,
    logger: deps.logger,
    now: deps.now,
  };
}

/**
 * After a charge settled: the plan's canvas shows the spend as it is now (the budget warning follows
 * every booked charge, `planBudgetCheck`). Never throws.
 */
export function planCanvasAfterCharge(deps: PlanCommandDeps) {
  return async (charged: { teamId: string; channelId: string }, clicked: JobContext): Promise<void> => {
    const context = { teamId: charged.teamId, channelId: charged.channelId, userId: clicked.userId };
    try {
      // Only a canvas that exists is edited: a charge does not make one.
      if ((await deps.plans.get(charged.teamId, charged.channelId))?.canvasId)
        await updateCanvas(deps, context, viewsOf(deps));
    } catch (error) {
      deps.logger.warn('the plan’s canvas could not be updated after a charge', { error });
    }
  };
}
