import { type CsvCell, toCsv } from '../../../domain/csv.ts';
import { parseQuarter, parseSpendPeriod, type Period } from '../../../domain/periods.ts';
import { planSpend } from '../../../domain/plan/index.ts';
import { inPool } from '../../../domain/pool.ts';
import { spendStateOf, summarizeSpend } from '../../../domain/spend.ts';
import type { EisClient } from '../../../eis/index.ts';
import type { ShowNames } from '../../../eis/show-names.ts';
import type { Logger } from '../../../platform/log.ts';
import type { Store } from '../../../store/index.ts';
import type { LedgerEntry } from '../../../domain/ports/index.ts';
import type { JobContext } from '../../kit/jobs.ts';
import { formatCredits, plural } from '../../views/format.ts';
import { botNotice, chargeKindText, errorMessage } from '../../views/messages.ts';
import type { SlackMessage } from '../../views/types.ts';
import type { SlackOut } from '../../kit/slack-out.ts';
import { type ExportNames, readExportNames } from '../../kit/export-names.ts';
import type { SpendCommand } from './commands.ts';
import { type PlansQuarterSpend, SPEND_ROWS, spendCard, spendPeriodWords } from './spend-views.ts';
import { escapeMrkdwn, mk } from '../../views/mrkdwn.ts';

/** `/events spend [period] [export]`: the worker's half. Free: it reads the ledger and free event details. */

export interface SpendDeps {
  ledger: Pick<Store['ledger'], 'listForPeriod' | 'listKept'>;
  /** The channels' plans: a quarter's card also gives their spend on that quarter's shows. */
  plans: Pick<Store['plans'], 'forTeam'>;
  eis: Pick<EisClient, 'events'>;
  /** Today's show names of the account; without them, the service is asked. */
  showNames?: ShowNames | undefined;
  slack: Pick<SlackOut, 'upload' | 'directMessage' | 'userName' | 'channelName'>;
  /** The daily cap, shown on today's card. */
  dailyCap?: number | undefined;
  logger: Pick<Logger, 'warn'>;
  now: () => Date;
}

/** Show names read for an export at most (each a free read); the rest of the rows leave the name empty. */
export const EXPORT_NAME_READS = 100;
const NAME_READS_AT_ONCE = 4;

/** People, channels and shows by name, each with its id in a column of its own. */
export const SPEND_CSV_HEADER = [
  'when',
  'asked_by',
  'asked_by_id',
  'confirmed_by',
  'confirmed_by_id',
  'action',
  'credits',
  'event_id',
  'event_name',
  'channel',
  'channel_id',
  'status',
] as const;

/** Names of these shows, from the service's free event details; a show it cannot tell is left out. */
async function showNames(eventIds: readonly string[], deps: SpendDeps): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  await inPool(eventIds, NAME_READS_AT_ONCE, async (eventId) => {
    const event = await (deps.showNames ?? deps.eis.events).detail(eventId).catch((error: unknown) => {
      deps.logger.warn('could not read a show name for spend', { eventId, error });
      return null;
    });
    const name = event?.name?.trim() || event?.nickname?.trim();
    if (name) names.set(eventId, name);
  });
  return names;
}

/** One row per ledger entry of the period, refused ones included (with 0 credits), oldest first. */
export function spendCsvRows(
  entries: readonly LedgerEntry[],
  names: ReadonlyMap<string, string>,
  slackNames: ExportNames,
): CsvCell[][] {
  return entries.map((entry) => [
    entry.at,
    slackNames.user(entry.requestedBy),
    entry.requestedBy,
    slackNames.user(entry.confirmedBy),
    entry.confirmedBy,
    chargeKindText(entry.action),
    entry.credits,
    entry.eventId,
    entry.eventId ? names.get(entry.eventId) : undefined,
    entry.channelId ? slackNames.channel(entry.channelId) : undefined,
    entry.channelId,
    spendStateOf(entry),
  ]);
}

const fileNameOf = (period: Period) =>
  `spend-${period.from === period.to ? period.from : `${period.from}-to-${period.to}`}.csv`;

/** The file goes to the requester's direct messages with the app (the card is their private answer). */
async function exportSpend(
  period: Period,
  read: { entries: LedgerEntry[]; capped: boolean },
  context: JobContext,
  deps: SpendDeps,
): Promise<SlackMessage> {
  const { upload, directMessage } = deps.slack;
  if (!upload || !directMessage) return errorMessage('The spend cannot be exported here.');
  const when = spendPeriodWords(period);
  if (read.entries.length === 0)
    return botNotice(mk`Nothing was charged ${escapeMrkdwn(when)}: there is nothing to export.`);
  const eventIds = [...new Set(read.entries.flatMap((entry) => (entry.eventId ? [entry.eventId] : [])))];
  const [names, slackNames] = await Promise.all([
    showNames(eventIds.slice(0, EXPORT_NAME_READS), deps),
    readExportNames(deps.slack, {
      users: read.entries.flatMap((entry) => [entry.requestedBy, entry.confirmedBy]),
      channels: read.entries.map((entry) => entry.channelId),
    }),
  ]);
  const { total } = summarizeSpend(read.entries);
  const comment = mk`:page_facing_up: CSV of ${plural(read.entries.length, 'ledger entry', 'ledger entries')} ${escapeMrkdwn(when)}: ${formatCredits(total.credits)} spent.${read.capped ? ' The period holds more: these are its first ones.' : ''} The export spent no credits.`;
  const channelId = await directMessage(
    context.userId,
    mk`Credits spent ${escapeMrkdwn(when)}, only for you:`,
  );
  await upload({
    channelId,
    filename: fileNameOf(period),
    title: `Credits spent ${when}`,
    content: toCsv(SPEND_CSV_HEADER, spendCsvRows(read.entries, names, slackNames)),
    comment,
  });
  return botNotice(mk`${comment} The file is in your direct messages with the app.`);
}

/**
 * Export CSV re-runs `/events spend` with this word: a month or quarter by its key (so a later click
 * exports the period the card showed), today and this week as said.
 */
const exportWordOf = (period: Period, word: string) =>
  parseSpendPeriod(period.key, new Date(0)) ? period.key : word;

/**
 * A quarter's spend on each plan's shows of that quarter, whenever charged (what the plans' budgets
 * count), beside the charges made in the quarter; undefined for another period or when it cannot be read.
 */
async function plansSpendOf(
  period: Period,
  context: JobContext,
  deps: SpendDeps,
): Promise<PlansQuarterSpend | undefined> {
  if (!parseQuarter(period.key)) return undefined;
  try {
    const plans = (await deps.plans.forTeam(context.teamId)).filter(
      (plan) => plan.shows.length > 0 || (plan.removed?.length ?? 0) > 0,
    );
    if (plans.length === 0) return { channels: [], capped: false };
    const kept = await deps.ledger.listKept(context.teamId);
    const channels = plans.flatMap((plan) => {
      const spent = planSpend(plan, kept.entries).quarters[period.key];
      return spent && spent.onShows > 0 ? [{ channelId: plan.channelId, ...spent }] : [];
    });
    return { channels: channels.sort((a, b) => b.onShows - a.onShows), capped: kept.capped };
  } catch (error) {
    deps.logger.warn('could not read the plans’ spend for a quarter', { error });
    return undefined;
  }
}

/** The spend card for the command's period, or (with `export`) its CSV in the requester's DM. */
export async function spendAnswer(
  command: SpendCommand,
  context: JobContext,
  deps: SpendDeps,
): Promise<SlackMessage> {
  const period = parseSpendPeriod(command.period, deps.now());
  if (!period) return errorMessage(`\`${command.period}\` is not a period. Try \`/events help spend\`.`);
  const read = await deps.ledger.listForPeriod(context.teamId, period);
  if (command.export) return exportSpend(period, read, context, deps);
  const { byShow } = summarizeSpend(read.entries);
  const [names, plans] = await Promise.all([
    showNames(
      byShow.slice(0, SPEND_ROWS).map((show) => show.key),
      deps,
    ),
    plansSpendOf(period, context, deps),
  ]);
  return spendCard({
    period,
    ledger: read.entries,
    capped: read.capped,
    names,
    ...(plans ? { plans } : {}),
    ...(deps.dailyCap !== undefined ? { dailyCap: deps.dailyCap } : {}),
    exportPeriod: exportWordOf(period, command.period),
  });
}
