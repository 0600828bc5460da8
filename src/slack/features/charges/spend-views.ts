import type { KnownBlock } from '@slack/types';
import type { Period } from '../../../domain/periods.ts';
import {
  type PersonSpend,
  spendStateOf,
  type SpendGroup,
  type SpendSummary,
  type SpendTotal,
  summarizeSpend,
} from '../../../domain/spend.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { actions, button, context, header, section } from '../../views/blocks.ts';
import {
  code,
  formatCredits,
  formatDateRange,
  formatNumber,
  mentionChannel,
  mentionUser,
  slackDate,
  utcDay,
  utcTime,
} from '../../views/format.ts';
import { andMore, fitToLimits, linesToSections } from '../../views/limits.ts';
import { chargeKindWords, chargeTargetWords } from '../../views/messages.ts';
import type { LedgerEntry, SlackMessage } from '../../views/types.ts';
import { confirmedByWords } from '../../kit/charge-words.ts';
import type { SpendExportValue } from './buttons.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn } from '../../views/mrkdwn.ts';

/** `/events spend`: what the workspace spent in a period, in totals by person, show and action. */

/** Rows each total shows before "…and N more". */
export const SPEND_ROWS = 8;
/** Today's card lists its charges one by one, in at most this many blocks. */
const DAY_BLOCKS = 3;

/** The period in the card's words: `on 1 Mar 2027 (UTC)`, `this week, 1–7 Mar 2027 (UTC)`, `in March 2027 (UTC)`. */
export function spendPeriodWords(period: Period): string {
  if (period.from === period.to) return `on ${utcDay(new Date(`${period.from}T00:00:00Z`))} (UTC)`;
  if (period.label.startsWith('this '))
    return `${period.label}, ${formatDateRange(period.from, period.to)} (UTC)`;
  return `in ${period.label} (UTC)`;
}

const charges = (count: number) => mk`${formatNumber(count)} ${count === 1 ? 'charge' : 'charges'}`;

/** What of a total is not yet confirmed, marked after it. */
function unsettledWords(total: SpendTotal, long: boolean): Mrkdwn {
  const parts: Mrkdwn[] = [];
  if (total.pending > 0) parts.push(mk`${formatCredits(total.pending)} charging now`);
  if (total.unconfirmed > 0)
    parts.push(
      mk`${formatCredits(total.unconfirmed)} unconfirmed by the service${long ? ': check the balance' : ''}`,
    );
  return parts.length === 0 ? mk`` : mk` (${joinMrkdwn(parts, '; ')})`;
}

const rowWords = (label: Mrkdwn, total: SpendTotal) =>
  mk`${label} · *${formatCredits(total.credits)}* · ${charges(total.charges)}${unsettledWords(total, false)}`;

/** A total's rows, largest first, at most `SPEND_ROWS`, then how many are left out. */
function rows(title: string, groups: readonly SpendGroup[], labelOf: (key: string) => Mrkdwn, noun: string) {
  const lines = groups.slice(0, SPEND_ROWS).map((group) => rowWords(labelOf(group.key), group));
  if (groups.length > SPEND_ROWS) lines.push(andMore(groups.length - SPEND_ROWS, noun));
  return section(joinMrkdwn([mk`*${escapeMrkdwn(title)}*`, ...lines], '\n'));
}

/**
 * Who confirmed what a person asked for, each with their count: ` · 3 confirmed by @Bob, 1 by @Alice`;
 * nothing when the asker confirmed every charge themselves.
 */
function confirmersWords(person: PersonSpend): Mrkdwn {
  const { key, confirmedBy } = person;
  if (confirmedBy.every((confirmer) => confirmer.userId === key)) return mk``;
  const parts = confirmedBy.map(({ userId, charges }, index) =>
    index === 0
      ? mk`${formatNumber(charges)} confirmed by ${mentionUser(userId)}`
      : mk`${formatNumber(charges)} by ${mentionUser(userId)}`,
  );
  return mk` · ${joinMrkdwn(parts, ', ')}`;
}

/** `@Alice · *4,105 credits* · 4 charges · 3 confirmed by @Bob, 1 by @Alice`, largest first. */
function byPerson(people: readonly PersonSpend[]) {
  const lines = people
    .slice(0, SPEND_ROWS)
    .map((person) => mk`${rowWords(mentionUser(person.key), person)}${confirmersWords(person)}`);
  if (people.length > SPEND_ROWS) lines.push(andMore(people.length - SPEND_ROWS, 'people'));
  return section(joinMrkdwn([mk`*By who asked*`, ...lines], '\n'));
}

function showLabel(names: ReadonlyMap<string, string>) {
  return (eventId: string) => {
    const name = names.get(eventId);
    return name ? mk`${escapeMrkdwn(name)} ${code(eventId)}` : mk`Event ${code(eventId)}`;
  };
}

function byShow(summary: SpendSummary, names: ReadonlyMap<string, string>): KnownBlock[] {
  const other = summary.notForAShow;
  const otherLine =
    other.charges > 0 ? rowWords(mk`Not for one show (searches, contacts)`, other) : undefined;
  if (summary.byShow.length === 0) return otherLine ? [section(mk`*By show*\n${otherLine}`)] : [];
  const shows = rows('By show', summary.byShow, showLabel(names), 'shows');
  return otherLine ? [shows, context(otherLine)] : [shows];
}

function ledgerLine(entry: LedgerEntry): Mrkdwn {
  const at = new Date(entry.at);
  const time = Number.isNaN(at.getTime()) ? '' : mk`${slackDate(at, '{time}', utcTime(at))} `;
  const state = spendStateOf(entry);
  const marked =
    state === 'pending'
      ? ' (charging now)'
      : state === 'unconfirmed'
        ? ' (unconfirmed by the service: check the balance)'
        : '';
  return mk`${time}${mentionUser(entry.requestedBy)} · ${chargeKindWords(entry.action)}${chargeTargetWords(entry)} · *${formatCredits(entry.credits)}*${marked}${confirmedByWords(entry)}`;
}

/** A day's charges one by one (a refused one spent nothing: it stays in the ledger, not here). */
function dayLines(ledger: readonly LedgerEntry[]): KnownBlock[] {
  const spent = ledger.filter((entry) => spendStateOf(entry) !== 'refused');
  return spent.length > 0
    ? [section('*Charges*'), ...linesToSections(spent.map(ledgerLine), DAY_BLOCKS, 'charges')]
    : [];
}

function totalWords(total: SpendTotal, cap: number | undefined): Mrkdwn {
  let extra: Mrkdwn = mk``;
  const words = mk`*Total: ${formatCredits(total.credits)}* in ${charges(total.charges)}`;
  if (typeof cap === 'number') {
    const left = cap - total.credits;
    extra =
      left > 0
        ? mk` · ${formatCredits(left)} left under the daily cap of ${formatNumber(cap)}`
        : mk` · daily cap of ${formatNumber(cap)} reached`;
  }
  return mk`${words}${extra}${unsettledWords(total, true)}`;
}

/** A quarter's spend on each plan's shows of that quarter, whenever it was charged. */
export interface PlansQuarterSpend {
  /** Channels whose plan spent on the quarter's shows, most first. */
  channels: { channelId: string; onShows: number; onRemovedShows: number }[];
  /** The ledger held more than one read takes: the spend counted is the latest charges'. */
  capped: boolean;
}

/** What the card counts: charges made in the period, whatever show they were for. */
const countsWords = (period: Period) =>
  mk`Counts the charges made ${escapeMrkdwn(spendPeriodWords(period))}, whatever show they were for.`;

/**
 * A quarter's card: each plan's spend on the quarter's shows, whenever charged (what its budget counts,
 * a show removed from the plan included): it differs from the charges made in the quarter.
 */
function plansBlocks(period: Period, plans: PlansQuarterSpend): KnownBlock[] {
  const title = mk`*On the plans’ ${escapeMrkdwn(period.label)} shows*, whenever charged (what a plan’s budget counts)`;
  const lines = plans.channels
    .slice(0, SPEND_ROWS)
    .map(
      (plan) =>
        mk`${mentionChannel(plan.channelId)} · *${formatCredits(plan.onShows)}*${
          plan.onRemovedShows > 0
            ? mk` (${formatCredits(plan.onRemovedShows)} of it on shows removed from the plan)`
            : mk``
        }`,
    );
  if (plans.channels.length > SPEND_ROWS) lines.push(andMore(plans.channels.length - SPEND_ROWS, 'plans'));
  if (lines.length === 0) lines.push(mk`No plan has spent on its ${escapeMrkdwn(period.label)} shows.`);
  const capped = plans.capped
    ? [context(mk`Counted from this workspace’s latest charges only (it has more than are read at once).`)]
    : [];
  return [section(joinMrkdwn([title, ...lines], '\n')), ...capped];
}

export interface SpendCardInput {
  period: Period;
  /** The period's ledger entries, oldest first. */
  ledger: readonly LedgerEntry[];
  /** The period holds more entries than were read. */
  capped?: boolean;
  /** Show names by event id, where the service told them. */
  names?: ReadonlyMap<string, string>;
  /** The daily cap, shown when the period is today. */
  dailyCap?: number;
  /** The word Export CSV runs `/events spend` with. */
  exportPeriod: string;
  /** For a quarter: the plans' spend on its shows (absent: another period, or not read). */
  plans?: PlansQuarterSpend;
}

/** The period's total (and, for today, what is left under the daily cap), then by who asked, show and action. */
export function spendCard(input: SpendCardInput): SlackMessage {
  const { period, ledger } = input;
  const summary = summarizeSpend(ledger);
  const title = `Credits spent ${spendPeriodWords(period)}`;
  const isDay = period.from === period.to;
  const blocks: KnownBlock[] = [header(title), context(countsWords(period))];
  const cap = isDay ? input.dailyCap : undefined;
  if (summary.total.charges === 0) {
    blocks.push(section('No credits spent.'));
    if (typeof cap === 'number') blocks.push(context(totalWords(summary.total, cap)));
  } else {
    blocks.push(
      section(totalWords(summary.total, cap)),
      byPerson(summary.byPerson),
      ...byShow(summary, input.names ?? new Map()),
      rows('By action', summary.byAction, chargeKindWords, 'actions'),
      ...(isDay ? dayLines(ledger) : []),
    );
  }
  if (input.capped)
    blocks.push(context(mk`Counted from the first ${charges(ledger.length)} of the period only.`));
  if (input.plans) blocks.push(...plansBlocks(period, input.plans));
  const value: SpendExportValue = { period: input.exportPeriod };
  const exportButton =
    ledger.length > 0 ? actions([button('Export CSV', ACTION_IDS.spendExport, value)]) : undefined;
  if (exportButton) blocks.push(exportButton);
  return fitToLimits({ text: mk`${escapeMrkdwn(title)}: ${formatCredits(summary.total.credits)}.`, blocks });
}
