import type { KnownBlock } from '@slack/types';
import type { PlanCosts, PlanMoney, QuarterCost } from '../../../domain/plan/index.ts';
import type { UnlockCost } from '../../../domain/unlock-cost.ts';
import type { PlanShow } from '../../../domain/ports/records.ts';
import { showName } from './plan-words.ts';
import type { WatchedAtShow } from '../../../domain/watch/at-show.ts';
import type { WatchedShow } from '../../../domain/watch/where.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { actions, button, context, section } from '../../views/blocks.ts';
import { eventLeadsOn, outcomeButton } from '../../kit/row-buttons.ts';
import { code, formatCredits, formatNumber, formatShowDates, mentionChannel } from '../../views/format.ts';
import { fitToLimits } from '../../views/limits.ts';
import type { SlackMessage } from '../../views/types.ts';
import { type FitBand, FIT_PROFILE_SHORT } from '../../views/fit-band.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn } from '../../views/mrkdwn.ts';
import {
  type CostsBeyondCredits,
  costsBeyondCreditsLines,
  costsButton,
  exportPlanButton,
  showAmounts,
  showCostWords,
} from './cost-views.ts';
import { moneyLines, quarterMoneyWords, rateWords, showMoneyWords } from './money-views.ts';

/** One show of the plan as the card and the canvas show it. */
export interface PlanRow {
  show: PlanShow;
  fit: { score: number; band: FitBand } | null;
  /** The show's country as the service's detail gives it now (absent or null: not given, or not read). */
  country?: string | null;
  watched: WatchedAtShow[];
  cost: UnlockCost;
}

/** The plan as read for showing: its rows by date, the cost line, the balance. */
export interface PlanView {
  channelId: string;
  rows: PlanRow[];
  costs: PlanCosts;
  balance: number | null;
  /** Booth, sponsorship, travel and other costs (absent: not read). */
  costsBeyondCredits?: CostsBeyondCredits;
  /** Each show's and quarter's cost in money, the price of a credit, the money budgets (absent: not read). */
  money?: PlanMoney;
  /** The upcoming shows ranked by the channel's watched accounts there (`watch shows`), for the canvas. */
  watchedShows?: WatchedShow[];
  /** The ledger held more than one read takes: the spend counted is the latest charges'. */
  spendCapped: boolean;
  /** `YYYY-MM-DD` (UTC) the view was read on: a show already over is marked past. */
  today: string;
}

/** Words shared by the card and the canvas (plain text; the card escapes them). */

export const fitWords = (fit: PlanRow['fit']) =>
  fit ? `Fit ${fit.score.toFixed(1)} / 10, ${fit.band}` : 'Fit could not be read';

/** A watched account at a show as the card, the canvas and the CSV name it. */
export const watchedAccountName = (a: WatchedAtShow) =>
  a.kind === 'competitor' ? `${a.label} (competitor)` : a.label;

export const watchedWords = (watched: readonly WatchedAtShow[]) =>
  watched.length === 0
    ? 'No watched account known to exhibit'
    : `Watched accounts: ${watched.map(watchedAccountName).join(', ')}`;

const NOT_OFFERED: Record<string, string> = {
  unlock_in_progress: 'an unlock is in progress',
  no_contacts_available: 'nothing to unlock yet',
};

export function costWords(cost: UnlockCost): string {
  switch (cost.state) {
    case 'unlocked':
      return 'Unlocked';
    case 'locked':
      return `Unlock: ${cost.estimated ? 'about ' : ''}${formatCredits(cost.credits)}${cost.estimated ? ' (list price; the service did not quote it)' : ''}`;
    default:
      return `Unlock: not offered (${NOT_OFFERED[cost.reason] ?? cost.reason.replace(/_/g, ' ')})`;
  }
}

const countOf = (n: number, one: string, many: string) => `${formatNumber(n)} ${n === 1 ? one : many}`;
const showCount = (n: number) => mk`${formatNumber(n)} ${n === 1 ? 'show' : 'shows'}`;

/** Whether the rest still to unlock fits in what the budget has left (`left` below 0: already over). */
function restWords(q: QuarterCost, left: number): string {
  if (q.locked === 0) return '';
  const total = `${q.estimated ? 'about ' : ''}${formatCredits(q.toUnlock)}`;
  return left >= q.toUnlock
    ? ' Unlocking the rest fits in what is left.'
    : ` Unlocking the rest (${total}) would put the quarter ${formatCredits(q.toUnlock - left)} over its budget.`;
}

/** `4,825 credits (2,750 credits of it on shows removed from the plan)`: a removed show keeps its spend. */
const spentWords = (spent: number, onRemoved: number | undefined) =>
  `${formatCredits(spent)}${onRemoved ? ` (${formatCredits(onRemoved)} of it on shows removed from the plan)` : ''}`;

/** A quarter's line: its shows, what is left to unlock, its budget against what was spent on its shows. */
function quarterWords(q: QuarterCost): string {
  const total = `${q.estimated ? 'about ' : ''}${formatCredits(q.toUnlock)}`;
  const unlock =
    q.locked === 0 ? 'nothing left to unlock' : `unlocking ${formatNumber(q.locked)} would cost ${total}`;
  const head = `${q.quarter.label}: ${countOf(q.shows, 'show', 'shows')}, ${unlock}`;
  const other = q.otherSpent
    ? ` This channel’s other spend in ${q.quarter.label}: ${formatCredits(q.otherSpent)} (not counted against the plan’s budget).`
    : '';
  if (!q.budget) {
    const spent = q.spent ? `; spent on these shows: ${spentWords(q.spent, q.spentOnRemoved)}` : '';
    return `${head}${spent}; no budget set.${other}`;
  }
  const budget = `budget ${formatCredits(q.budget.credits)}`;
  if (q.spent === undefined) return `${head}; ${budget} (what was spent could not be read).`;
  const left = q.budget.credits - q.spent;
  const standing = left >= 0 ? `${formatCredits(left)} left` : `${formatCredits(-left)} over the budget`;
  return `${head}; ${budget}, spent on these shows ${spentWords(q.spent, q.spentOnRemoved)}, ${standing}.${restWords(q, left)}${other}`;
}

/** The cost line: each quarter against its budget, undated shows, and the whole against the balance. */
export function costLines({
  costs,
  balance,
  spendCapped,
}: Pick<PlanView, 'costs' | 'balance' | 'spendCapped'>): string[] {
  const lines = costs.quarters.map(quarterWords);
  const { undated } = costs;
  if (undated.shows > 0)
    lines.push(
      `Dates not announced: ${countOf(undated.shows, 'show', 'shows')}, unlocking ${formatNumber(undated.locked)} would cost ${formatCredits(undated.toUnlock)}` +
        (undated.spent ? `; spent on these shows: ${formatCredits(undated.spent)}.` : '.'),
    );
  if (spendCapped)
    lines.push(
      'Spend: counted from this workspace’s latest charges only (it has more than are read at once).',
    );
  if (balance === null)
    lines.push(`Balance: could not be read. Everything still to unlock: ${formatCredits(costs.toUnlock)}.`);
  else
    lines.push(
      `Balance: ${formatCredits(balance)}; everything still to unlock: ${formatCredits(costs.toUnlock)}` +
        (balance >= costs.toUnlock ? ' (covered).' : ` (${formatCredits(costs.toUnlock - balance)} short).`),
    );
  return lines;
}

function rowBlocks(row: PlanRow, view: PlanView): KnownBlock[] {
  const { show } = row;
  const { costsBeyondCredits: costs, today } = view;
  const where = show.city ? mk` · ${escapeMrkdwn(show.city)}` : '';
  const money = showMoneyWords(show.eventId, view.money, costs?.currency ?? null);
  const text = mk`*${escapeMrkdwn(showName(show))}* · ${formatShowDates(show, today)}${where} · ID ${code(show.eventId)}\n${escapeMrkdwn(fitWords(row.fit))} · ${escapeMrkdwn(costWords(row.cost))}\n${escapeMrkdwn(showCostWords(show.eventId, costs))}${money ? mk`\n${escapeMrkdwn(money)}` : ''}\n${escapeMrkdwn(watchedWords(row.watched))}`;
  const leads = eventLeadsOn(show, today).filter((b) => b?.action_id !== ACTION_IDS.planAdd);
  const costsValue = {
    eventId: show.eventId,
    name: showName(show),
    amounts: showAmounts(show.eventId, costs),
  };
  const buttons = actions([
    ...leads,
    costsButton(costsValue),
    outcomeButton(show, today),
    button('Remove', ACTION_IDS.planRemove, { eventId: show.eventId }),
  ]);
  return [section(text), ...(buttons ? [buttons] : [])];
}

/** The plan card: its shows by date, each leading on, and the cost line. */
export function planCard(view: PlanView, notice?: Mrkdwn): SlackMessage {
  const title = mk`*The plan of ${mentionChannel(view.channelId)}*`;
  const top = notice ? [section(notice)] : [];
  if (view.rows.length === 0) {
    const text = mk`${title}: no shows yet. Add one with \`/events plan add <event id>\` or the *Add to plan* button on a show.`;
    return fitToLimits({ text: notice ?? text, blocks: [...top, section(text), ...budgetOnly(view)] });
  }
  const blocks: KnownBlock[] = [
    ...top,
    section(mk`${title}: ${showCount(view.rows.length)}, by date`),
    ...view.rows.flatMap((row) => rowBlocks(row, view)),
    section(
      joinMrkdwn(
        costLines(view).map((line) => mk`• ${escapeMrkdwn(line)}`),
        '\n',
      ),
    ),
    ...costsBlocks(view),
    context(
      'Prices from the service’s precheck (free). `/events plan budget <credits> <quarter>` sets a budget; `/events plan cost <event id> <amount> <kind>` a cost; `/events plan credit-price <price>` the price of a credit.',
      FIT_PROFILE_SHORT,
    ),
  ];
  return fitToLimits({
    text: notice ?? mk`The plan of this channel: ${showCount(view.rows.length)}`,
    blocks,
  });
}

/** The plan's money lines: the price of a credit, each quarter's cost against its money budget. */
const planMoneyLines = (view: PlanView) => moneyLines(view.money, view.costsBeyondCredits?.currency ?? null);

/** The costs beyond credits and the costs in money, per quarter beside the credits above, and Export CSV. */
function costsBlocks(view: PlanView): KnownBlock[] {
  const lines = [...costsBeyondCreditsLines(view.costsBeyondCredits), ...planMoneyLines(view)].map(
    (line) => mk`• ${escapeMrkdwn(line)}`,
  );
  const exportRow = actions([exportPlanButton()]);
  return [section(joinMrkdwn(lines, '\n')), ...(exportRow ? [exportRow] : [])];
}

const budgetOnly = (view: PlanView): KnownBlock[] => {
  const moneyBudgets = view.money?.quarters.some((q) => q.budget) ? planMoneyLines(view) : [];
  const lines = [...(view.costs.quarters.length > 0 ? costLines(view) : []), ...moneyBudgets];
  return lines.length > 0
    ? [
        section(
          joinMrkdwn(
            lines.map((l) => mk`• ${escapeMrkdwn(l)}`),
            '\n',
          ),
        ),
      ]
    : [];
};

/** `plan budget` alone: the budgets by quarter, in credits and in money, each against what was spent. */
export function budgetsAnswer(view: PlanView): SlackMessage {
  const withBudget = view.costs.quarters.filter((q) => q.budget);
  const { money } = view;
  const currency = view.costsBeyondCredits?.currency ?? null;
  const withMoney = money?.quarters.filter((q) => q.budget) ?? [];
  if (withBudget.length === 0 && withMoney.length === 0)
    return fitToLimits({
      text: 'No budgets yet.',
      blocks: [
        section('This channel’s plan has no budget yet. Set one with `/events plan budget 20000 Q2-2027`.'),
      ],
    });
  const lines = [
    ...withBudget.map(quarterWords),
    ...(money && withMoney.length > 0
      ? [rateWords(money.rate, currency), ...withMoney.map((q) => quarterMoneyWords(q, money, currency))]
      : []),
  ].map((line) => mk`• ${escapeMrkdwn(line)}`);
  return fitToLimits({
    text: 'The plan’s budgets',
    blocks: [section(mk`*Budgets of this channel’s plan*\n${joinMrkdwn(lines, '\n')}`)],
  });
}

/** The warning posted in the channel when the spend on a quarter's shows reaches the warning share of its budget. */
export function budgetWarningMessage(input: {
  quarterLabel: string;
  quarterKey: string;
  budget: number;
  spent: number;
}): SlackMessage {
  const share = Math.round((input.spent / input.budget) * 100);
  const text = mk`:warning: This channel has spent ${formatCredits(input.spent)} on its plan’s ${escapeMrkdwn(input.quarterLabel)} shows: ${share}% of the budget of ${formatCredits(input.budget)}. \`/events plan\` shows what is left to unlock; \`/events plan budget <credits> ${escapeMrkdwn(input.quarterKey)}\` changes the budget.`;
  return fitToLimits({ text, blocks: [section(text)] });
}
