import type { KnownBlock } from '@slack/types';
import { byDate, type PlanSpend, quarterOfShow } from '../../../domain/plan/index.ts';
import type { Plan } from '../../../domain/ports/index.ts';
import { section } from '../../views/blocks.ts';
import { formatCredits, formatNumber, formatShowDates, mentionChannel } from '../../views/format.ts';
import { andMore } from '../../views/limits.ts';
import { showName } from './plan-words.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn } from '../../views/mrkdwn.ts';

/** Channels whose plan the Home shows, and shows named per channel (the rest counted). */
export const HOME_PLAN_CHANNELS = 5;
export const HOME_SHOWS_PER_PLAN = 5;

/** The plans of the channels the user is in; `more` channels left out; each plan's spend by channel id. */
export interface HomePlans {
  plans: Plan[];
  more: number;
  /** Absent when the ledger could not be read. */
  spend?: Readonly<Record<string, PlanSpend>>;
  /** `YYYY-MM-DD` (UTC): a show already over is marked past. */
  today: string;
}

function planLines(plan: Plan, spend: PlanSpend | undefined, today: string): Mrkdwn {
  const shows = byDate(plan.shows);
  const named = shows
    .slice(0, HOME_SHOWS_PER_PLAN)
    .map(
      (show) =>
        mk`• *${escapeMrkdwn(showName(show))}* · ${formatShowDates(show, today)}${show.city ? mk` · ${escapeMrkdwn(show.city)}` : ''}`,
    );
  if (shows.length > HOME_SHOWS_PER_PLAN) named.push(andMore(shows.length - HOME_SHOWS_PER_PLAN, 'shows'));
  const budgets = Object.entries(plan.budgets)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([quarter, budget]) => {
      const count = shows.filter((s) => quarterOfShow(s)?.key === quarter).length;
      const onShows = mk`${count} ${count === 1 ? 'show' : 'shows'}`;
      if (!spend) return mk`${escapeMrkdwn(quarter)}: ${formatCredits(budget.credits)} for ${onShows}`;
      const spent = spend.quarters[quarter]?.onShows ?? 0;
      return mk`${escapeMrkdwn(quarter)}: ${formatNumber(spent)} of ${formatCredits(budget.credits)} spent on ${onShows}`;
    });
  const head = mk`*${mentionChannel(plan.channelId)}*: ${shows.length} ${shows.length === 1 ? 'show' : 'shows'}${budgets.length > 0 ? mk` · budgets ${joinMrkdwn(budgets, '; ')}` : ''}`;
  return joinMrkdwn([head, ...named], '\n');
}

/** `null`: the plans could not be read. */
export function planHomeBlocks(plans: HomePlans | null, unavailable: Mrkdwn): KnownBlock[] {
  if (plans === null) return [section(unavailable)];
  const shown = plans.plans.filter((plan) => plan.shows.length > 0 || Object.keys(plan.budgets).length > 0);
  if (shown.length === 0)
    return [
      section('No plan in your channels yet. Start one with `/events plan add <event id>` in a channel.'),
    ];
  const blocks = shown.map((plan) => section(planLines(plan, plans.spend?.[plan.channelId], plans.today)));
  if (plans.more > 0) blocks.push(section(andMore(plans.more, 'channels with a plan')));
  blocks.push(section('`/events plan` in a channel shows its plan with fit and prices.'));
  return blocks;
}
