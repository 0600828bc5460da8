import { PRICES } from '../../../domain/prices.ts';
import type { WatchAccount, WatchLookups } from '../../../domain/ports/index.ts';
import {
  accountKey,
  compareAppearances,
  keptCandidates,
  rowsToldIn,
  lookUpAccount,
  lookupOutcome,
  lookupRun,
  shownName,
} from '../../../domain/watch/index.ts';
import type { Logger } from '../../../platform/log.ts';
import type { Store } from '../../../store/index.ts';
import type { JobContext } from '../../kit/jobs.ts';
import { botNotice, errorMessage } from '../../views/messages.ts';
import { plural } from '../../views/format.ts';
import type { SlackMessage } from '../../views/types.ts';
import type { SlackOut } from '../../kit/slack-out.ts';
import { type AccountNow, addedAnswer, watchListAnswer, watchStatusAnswer } from './answer-views.ts';
import { checkAfterChange, checkChannelNow } from './check-now.ts';
import { chooseExhibitor } from './choice-jobs.ts';
import type { WatchCommand } from './commands.ts';
import { exportWatchList } from './export.ts';
import { readListOrRefuse } from './list-reading.ts';
import { overLimitWords } from './list-words.ts';
import { alertRowsAnswer } from './views.ts';
import { watchPagerBlocks } from './shows-views.ts';
import { utcDate } from '../../../time/local-time.ts';
import { escapeMrkdwn, mk } from '../../views/mrkdwn.ts';

/** Added accounts looked up while the answer is written; the rest by a check of the channel after it. */
export const LOOKED_UP_AT_ONCE = 25;
const LIST_PAGE = 25;

export interface WatchCommandDeps {
  watchLists: Store['watchLists'];
  lookups: WatchLookups;
  slack: Pick<SlackOut, 'post' | 'ephemeral' | 'upload' | 'directMessage'>;
  logger: Logger;
  now: () => Date;
}

const today = (deps: WatchCommandDeps) => utcDate(deps.now());

/** What `/events watch add` answers, and whether the channel is checked after it (accounts left to look up). */
interface Added {
  answer: SlackMessage;
  checkAfter: boolean;
}

const refusal = (answer: SlackMessage): Added => ({ answer, checkAfter: false });

/**
 * Adds accounts and looks the first ones up while answering: their current shows are told (no alert
 * later). The rest are looked up by a check of the channel right after the answer, when the watch is on.
 */
export async function addAccounts(deps: WatchCommandDeps, context: JobContext, text: string): Promise<Added> {
  const reading = readListOrRefuse(text);
  if (!reading.ok) return refusal(errorMessage(reading.problem));
  const refused = reading.refused.map((entry) => entry.entry).filter(Boolean);
  const result = await deps.watchLists.addAccounts(
    context.teamId,
    context.channelId,
    reading.accounts,
    context.userId,
  );
  if (!result.ok) return refusal(errorMessage(overLimitWords(result.watched, result.adding, 'adding')));
  const run = lookupRun(deps.lookups, today(deps));
  const added: AccountNow[] = [];
  for (const account of result.added.slice(0, LOOKED_UP_AT_ONCE)) {
    try {
      const lookup = await lookUpAccount(run, account);
      const told = compareAppearances(lookup.shows, undefined, run.today).told;
      await deps.watchLists.saveLookup(
        context.teamId,
        context.channelId,
        account.key,
        lookupOutcome(lookup, told),
      );
      const { resolution, exhibitorIds, companyName } = lookup;
      const candidates = keptCandidates(lookup.candidates);
      const resolved = { resolution, exhibitorIds, candidates, ...(companyName ? { companyName } : {}) };
      added.push({ account: { ...account, ...resolved }, shows: told });
    } catch (error) {
      deps.logger.warn('a newly watched account could not be looked up', { error });
      added.push({ account, shows: [] });
    }
  }
  const rest = Math.max(0, result.added.length - LOOKED_UP_AT_ONCE);
  const watchOn =
    rest > 0 && (await deps.watchLists.settings(context.teamId, context.channelId))?.status === 'on';
  const answer = addedAnswer({
    added,
    alreadyWatched: result.alreadyWatched.map(shownName),
    refused,
    rest: rest === 0 ? null : { count: rest, checkedNow: watchOn },
  });
  return { answer, checkAfter: watchOn };
}

/** `/events watch budget <credits>`: its word's audience (approvers and admins) was checked before it runs. */
async function setBudget(
  deps: WatchCommandDeps,
  context: JobContext,
  credits: number,
): Promise<SlackMessage> {
  await deps.watchLists.setBudget(context.teamId, context.channelId, credits, context.userId);
  return botNotice(
    credits === 0
      ? 'This channel’s watch uses free look-ups only.'
      : mk`This channel’s watch may spend up to ${credits} credits a month on paid name look-ups, pre-approved by you: a scheduled check may run one (${PRICES['exhibitor-search'].credits} credits, charged only when it finds the company) for an account the free look-ups did not find, at most once a month per account and within the daily cap. Each is in the ledger (\`/events spend\`). \`/events watch budget 0\` stops them.`,
  );
}

async function checkNow(deps: WatchCommandDeps, context: JobContext): Promise<SlackMessage> {
  const summary = await checkChannelNow(deps, context);
  if (summary.accounts === 0)
    return botNotice('This channel watches no accounts (or its watch is off): nothing to check.');
  const found =
    summary.appeared === 0
      ? 'No new appearances since the last check.'
      : mk`${plural(summary.appeared, 'new appearance')}: see the alert in the channel.`;
  const failed =
    summary.failed > 0
      ? mk` ${plural(summary.failed, 'account')} could not be looked up just now; they are tried again at the next check.`
      : '';
  const checked =
    summary.remaining > 0
      ? mk`Checked ${summary.looked} of ${plural(summary.accounts, 'account')}, free; the other ${summary.remaining} are checked at the next hourly run.`
      : mk`Checked ${plural(summary.accounts, 'account')}, free.`;
  return botNotice(mk`${checked} ${found}${failed}`);
}

async function findAccount(deps: WatchCommandDeps, context: JobContext, words: string) {
  const key = accountKey(words);
  return key ? deps.watchLists.account(context.teamId, context.channelId, key) : null;
}

/** Show all on an alert (its thread is the alert's ts): that alert's rows, from what the channel was told. */
async function alertRows(deps: WatchCommandDeps, context: JobContext): Promise<SlackMessage> {
  if (!context.threadTs)
    return errorMessage(
      'Show all works from the button on a watch alert. `/events watch list` lists every account’s shows.',
    );
  const accounts = await deps.watchLists.allAccounts(context.teamId, context.channelId);
  return alertRowsAnswer(rowsToldIn(accounts, context.threadTs, today(deps)));
}

/** A page of the list with Previous / Next under it. */
function pagedList(accounts: WatchAccount[], page: number, more: boolean, day: string): SlackMessage {
  const pager = watchPagerBlocks(page, more ? page + 1 : page, (target) => ({ view: 'list', page: target }));
  return watchListAnswer(accounts, page, day, pager);
}

/** A page of the channel's accounts (read page by page: the store pages by cursor). */
async function listPage(deps: WatchCommandDeps, context: JobContext, wanted: number): Promise<SlackMessage> {
  let cursor: string | null = null;
  for (let page = 1; ; page++) {
    const read = await deps.watchLists.accounts(context.teamId, context.channelId, {
      limit: LIST_PAGE,
      cursor,
    });
    if (page === wanted) return pagedList(read.accounts, page, read.cursor !== null, today(deps));
    if (!read.cursor) return pagedList([], wanted, false, today(deps));
    cursor = read.cursor;
  }
}

/** `/events watch …` for the channel the command came from; answers only the requester sees. */
export async function runWatchCommand(
  command: Exclude<WatchCommand, { name: 'watch-shows' }>,
  context: JobContext,
  deps: WatchCommandDeps,
): Promise<void> {
  const { teamId, channelId } = context;
  const say = (message: SlackMessage) =>
    deps.slack.ephemeral(context, message, { replaceOriginal: context.placeholder ?? false });
  const notWatched = (name: string) =>
    say(errorMessage(`This channel does not watch ${name}. See \`/events watch list\`.`));
  switch (command.name) {
    case 'watch-add': {
      const added = await addAccounts(deps, context, command.accounts);
      await say(added.answer);
      if (added.checkAfter) await checkAfterChange(deps, context);
      return;
    }
    case 'watch-remove': {
      const account = await findAccount(deps, context, command.account);
      if (!account || !(await deps.watchLists.removeAccount(teamId, channelId, account.key)))
        return notWatched(command.account);
      return say(botNotice(mk`This channel no longer watches ${escapeMrkdwn(shownName(account))}.`));
    }
    case 'watch-mute':
    case 'watch-unmute': {
      const account = await findAccount(deps, context, command.account);
      const muted = command.name === 'watch-mute';
      if (!account || !(await deps.watchLists.setMuted(teamId, channelId, account.key, muted)))
        return notWatched(command.account);
      return say(
        botNotice(
          muted
            ? mk`${escapeMrkdwn(shownName(account))} is muted: its shows are still followed, but not posted. \`/events watch unmute ${escapeMrkdwn(account.label)}\` undoes it.`
            : mk`${escapeMrkdwn(shownName(account))} is posted again from the next check.`,
        ),
      );
    }
    case 'watch-list':
      return say(await listPage(deps, context, command.page));
    case 'watch-alert':
      return say(await alertRows(deps, context));
    case 'watch-export':
      return say(await exportWatchList(deps, context));
    case 'watch-status': {
      const [settings, accounts] = await Promise.all([
        deps.watchLists.settings(teamId, channelId),
        deps.watchLists.allAccounts(teamId, channelId),
      ]);
      return say(watchStatusAnswer({ settings, accounts, now: deps.now() }));
    }
    case 'watch-check':
      return say(await checkNow(deps, context));
    case 'watch-budget':
      return say(await setBudget(deps, context, command.credits));
    case 'watch-choose':
      return say(await chooseExhibitor(deps, context, command));
    case 'watch-off':
    case 'watch-on': {
      const status = command.name === 'watch-off' ? 'off' : 'on';
      const settings = await deps.watchLists.setStatus(teamId, channelId, status);
      if (!settings) return say(botNotice('This channel watches no accounts.'));
      if (status === 'off')
        return say(
          botNotice(
            'This channel’s watch is off: no checks, no alerts. Its accounts are kept; `/events watch on` turns it back on.',
          ),
        );
      await say(
        botNotice(
          'This channel’s watch is on, and is being checked now; you’ll hear only about new shows (ones this channel has not been told of).',
        ),
      );
      return checkAfterChange(deps, context);
    }
    case 'watch-import':
      // The listener opens the form; the words reach the worker only when it could not.
      return say(
        botNotice('Type `/events watch import` on its own: it opens a form to paste up to 1,000 lines.'),
      );
  }
}
