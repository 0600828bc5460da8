import { type CsvCell, toCsv } from '../../../domain/csv.ts';
import {
  type KindTotals,
  type MoneyCost,
  type PlanMoney,
  quarterOfShow,
} from '../../../domain/plan/index.ts';
import type { PlanMoneyBudget } from '../../../domain/ports/records.ts';
import { COST_KINDS } from '../../../domain/ports/records.ts';
import type { JobContext } from '../../kit/jobs.ts';
import type { SlackOut } from '../../kit/slack-out.ts';
import { formatNumber, mentionChannel } from '../../views/format.ts';
import { botNotice, errorMessage } from '../../views/messages.ts';
import { escapeMrkdwn, mk } from '../../views/mrkdwn.ts';
import type { SlackMessage } from '../../views/types.ts';
import { PLAN_CANVAS_TITLE } from './canvas.ts';
import { type PlanRow, type PlanView, watchedAccountName } from './views.ts';

/** `/events plan export` (Export CSV on the plan card): the plan's credits and costs, one file. */

export const PLAN_CSV_HEADER = [
  'row',
  'quarter',
  'event_id',
  'show',
  'start',
  'end',
  'city',
  'country',
  'fit_score',
  'fit_band',
  'watched_accounts',
  'unlock',
  'unlock_credits',
  ...COST_KINDS,
  'costs_total',
  'currency',
  'budget_credits',
  'spent_credits',
  'costs_set_by',
  'costs_last_set_at',
  'credit_price',
  'credits_cost',
  'cost_total',
  'budget_money',
  'budget_money_left',
] as const;

/** Hundredths as a spreadsheet's number; nothing when there is no figure. */
const money = (hundredths: number | null | undefined): CsvCell =>
  hundredths === null || hundredths === undefined ? null : hundredths / 100;

/**
 * The money cells: the price of a credit, the credits' cost, the whole cost, and a money budget with
 * what is left of it (below 0: over); empty where credits are not priced (never a made-up figure).
 */
function moneyCells(plan: PlanMoney | undefined, cost?: MoneyCost, budget?: PlanMoneyBudget): CsvCell[] {
  const price = plan?.rate.state === 'set' ? plan.rate.price.tenThousandths / 10_000 : null;
  const left =
    budget && cost?.total !== null && cost?.total !== undefined ? budget.hundredths - cost.total : null;
  return [price, money(cost?.ofCredits), money(cost?.total), money(budget?.hundredths), money(left)];
}

/** Hundredths as the number a spreadsheet reads (`12000.5`); nothing for none. */
const amounts = (totals: KindTotals | undefined): CsvCell[] =>
  [...COST_KINDS, 'total' as const].map((kind) => (totals?.[kind] ? totals[kind] / 100 : null));

function unlockCells(cost: PlanRow['cost']): CsvCell[] {
  if (cost.state === 'locked') return [cost.estimated ? 'locked (list price)' : 'locked', cost.credits];
  return cost.state === 'unlocked' ? ['unlocked', 0] : ['not offered', null];
}

/** The channel's watched accounts at a show as the card names them, `; ` between them (a name may hold a comma). */
const watchedCell = (watched: PlanRow['watched']): string | null =>
  watched.length === 0 ? null : watched.map(watchedAccountName).join('; ');

/** One row per show, by date: its credits, costs, and cost in money. */
function showRows(view: PlanView, currency: string | null): CsvCell[][] {
  const costs = view.costsBeyondCredits;
  return view.rows.map(({ show, cost, fit, country, watched }) => {
    const entries = costs?.entries.filter((entry) => entry.eventId === show.eventId) ?? [];
    const setBy = [...new Set(entries.map((entry) => entry.setBy))].join(' ');
    const lastSet =
      entries
        .map((entry) => entry.setAt)
        .sort()
        .at(-1) ?? null;
    return [
      'show',
      quarterOfShow(show)?.key ?? null,
      show.eventId,
      show.name,
      show.dateStart,
      show.dateEnd,
      show.city,
      country ?? null,
      fit?.score ?? null,
      fit?.band ?? null,
      watchedCell(watched),
      ...unlockCells(cost),
      ...amounts(costs?.totals.byShow.get(show.eventId)),
      currency,
      null,
      view.money?.byShow.get(show.eventId)?.creditsSpent ?? null,
      setBy || null,
      lastSet,
      ...moneyCells(view.money, view.money?.byShow.get(show.eventId)),
    ];
  });
}

/** One row per show (by date), one per quarter and for undated shows, and one for the whole plan. */
export function planCsvRows(view: PlanView): CsvCell[][] {
  const costs = view.costsBeyondCredits;
  const currency = costs?.currency?.code ?? null;
  const shows = showRows(view, currency);
  const moneyQuarters = new Map(view.money?.quarters.map((q) => [q.key, q]));
  const quarterCosts = new Map(costs?.totals.quarters.map((q) => [q.quarter.key, q.totals]));
  const quarterMoney = (key: string) => {
    const q = moneyQuarters.get(key);
    return moneyCells(view.money, q?.cost, q?.budget);
  };
  const quarters = view.costs.quarters.map((q) => [
    'quarter',
    q.quarter.key,
    ...Array<CsvCell>(10).fill(null),
    q.toUnlock,
    ...amounts(quarterCosts.get(q.quarter.key)),
    currency,
    q.budget?.credits ?? null,
    q.spent ?? null,
    null,
    null,
    ...quarterMoney(q.quarter.key),
  ]);
  // A quarter with a money budget alone (no show, no credits budget) has its row too.
  const credited = new Set(view.costs.quarters.map((q) => q.quarter.key));
  const moneyOnly = [...moneyQuarters.keys()]
    .filter((key) => !credited.has(key))
    .map((key) => [
      'quarter',
      key,
      ...Array<CsvCell>(16).fill(null),
      currency,
      ...Array<CsvCell>(4).fill(null),
      ...quarterMoney(key),
    ]);
  const summary = (row: string, toUnlock: number, totals: KindTotals | undefined): CsvCell[] => [
    row,
    ...Array<CsvCell>(11).fill(null),
    toUnlock,
    ...amounts(totals),
    currency,
    ...Array<CsvCell>(4).fill(null),
    ...moneyCells(view.money),
  ];
  const undated =
    view.costs.undated.shows > 0
      ? [summary('undated', view.costs.undated.toUnlock, costs?.totals.undated)]
      : [];
  return [
    ...shows,
    ...quarters,
    ...moneyOnly,
    ...undated,
    summary('plan', view.costs.toUnlock, costs?.totals.all),
  ];
}

export interface PlanExportDeps {
  slack: Pick<SlackOut, 'upload' | 'directMessage' | 'channelName'>;
}

/** The file goes to the requester's direct messages with the app (budgets and costs are the team's own). */
export async function exportPlan(
  deps: PlanExportDeps,
  context: JobContext,
  view: PlanView,
): Promise<SlackMessage> {
  const { upload, directMessage } = deps.slack;
  if (!upload || !directMessage) return errorMessage('This plan cannot be exported here.');
  if (view.rows.length === 0 && view.costs.quarters.length === 0)
    return botNotice('This channel’s plan has no shows or budgets: there is nothing to export.');
  const where = mentionChannel(context.channelId);
  const count = view.rows.length;
  const currency = view.costsBeyondCredits?.currency?.code;
  const comment = mk`:page_facing_up: CSV of the plan of ${where}: ${formatNumber(count)} ${count === 1 ? 'show' : 'shows'} with their credits, costs and costs in money${currency ? mk` (costs in ${escapeMrkdwn(currency)})` : mk` (no currency set)`}, per show, per quarter and in all. No credits spent.`;
  // A file's title is plain text, where a channel mention shows as its raw id: the channel's name instead.
  const name = await deps.slack.channelName?.(context.channelId);
  const channelId = await directMessage(context.userId, mk`The plan of ${where}, only for you:`);
  await upload({
    channelId,
    filename: `plan-${name ?? context.channelId}.csv`,
    title: name ? `Plan of #${name}` : PLAN_CANVAS_TITLE,
    content: toCsv(PLAN_CSV_HEADER, planCsvRows(view)),
    comment,
  });
  return botNotice(mk`${comment} The file is in your direct messages with the app.`);
}
