import type { KnownBlock } from '@slack/types';
import type { WatchAccount, WatchSettings, WatchShow } from '../../../domain/ports/index.ts';
import { type RefusedEntry, spentThisMonth } from '../../../domain/watch/index.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { actions, button, context, section } from '../../views/blocks.ts';
import { formatNumber, mentionUser, plural, utcDateTime } from '../../views/format.ts';
import { fitToLimits, linesToSections } from '../../views/limits.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn, truncate, withoutBold } from '../../views/mrkdwn.ts';
import type { SlackMessage } from '../../views/types.ts';
import { type ChoosableAccount, choicesOf } from './choice-views.ts';
import { accountWords, showWords } from './views.ts';

/** The words of the watch's private answers: what was added, the list, the status. */

/** At most this many shows are named per account in an answer. */
const SHOWS_NAMED = 3;

/** An account as an answer tells it: where it exhibits now, or why that is not known yet. */
export interface AccountNow {
  account: Pick<WatchAccount, 'key' | 'label' | 'kind' | 'resolution' | 'exhibitorIds' | 'companyName'> &
    ChoosableAccount;
  shows: WatchShow[];
}

/**
 * An account no record matches yet: a domain is only looked for again; a name offers the near matches
 * its search saw, or says its own domain finds it more surely (never naming another company's domain).
 */
function notFoundWords(account: AccountNow['account']): Mrkdwn {
  const name = accountWords(account);
  if (account.key.startsWith('domain:'))
    return mk`${name}: no exhibitor record has this domain yet. It is looked for again at every check.`;
  const near = account.candidates ?? [];
  if (near.length > 0)
    return mk`${name}: no exhibitor record has exactly this name; ${plural(near.length, 'near match', 'near matches')} to choose from below. It is looked for again at every check meanwhile.`;
  return mk`${name}: no exhibitor record matches this name yet. It is looked for again at every check; adding the company by its own domain (\`/events watch add <its domain>\`) finds it more surely.`;
}

function whereNow({ account, shows }: AccountNow): Mrkdwn {
  const name = accountWords(account);
  switch (account.resolution) {
    case 'pending':
      return mk`${name}: looked up at the next check (within the hour); its shows then will not alert.`;
    case 'not-found':
      return notFoundWords(account);
    case 'ambiguous':
      return mk`${name}: ${plural(account.exhibitorIds.length, 'exhibitor')} have this name; choose the one you mean below; its shows are followed from then.`;
    case 'resolved': {
      if (shows.length === 0) return mk`${name}: no upcoming shows as an exhibitor right now.`;
      const named = joinMrkdwn(shows.slice(0, SHOWS_NAMED).map(showWords), '; ');
      const more = shows.length > SHOWS_NAMED ? mk` and ${shows.length - SHOWS_NAMED} more` : '';
      return mk`${name} exhibits at ${named}${more}.`;
    }
  }
}

/** The answer to `/events watch add`: each account now, what was refused, and that nothing was charged. */
export function addedAnswer(input: {
  added: AccountNow[];
  alreadyWatched: string[];
  refused: string[];
  /** Accounts added but not looked up in this answer: checked right after it, or when the watch is on. */
  rest: { count: number; checkedNow: boolean } | null;
}): SlackMessage {
  const lines = input.added.map(whereNow);
  if (input.rest)
    lines.push(
      input.rest.checkedNow
        ? mk`${plural(input.rest.count, 'more account is', 'more accounts are')} being looked up now; the shows they are on now will not alert: you’ll hear only about new shows.`
        : mk`${plural(input.rest.count, 'more account is', 'more accounts are')} looked up when this channel’s watch is on again (\`/events watch on\`); the shows they are on then will not alert.`,
    );
  if (input.alreadyWatched.length > 0)
    lines.push(mk`Already watched: ${joinMrkdwn(input.alreadyWatched.map(escapeMrkdwn), ', ')}.`);
  if (input.refused.length > 0)
    lines.push(
      mk`Not added (not a name or domain): ${joinMrkdwn(
        input.refused.map((r) => mk`\`${escapeMrkdwn(r)}\``),
        ', ',
      )}.`,
    );
  const count = input.added.length + (input.rest?.count ?? 0);
  const title = mk`*This channel now watches ${plural(count, 'more account', 'more accounts')}.*`;
  const text = mk`${title}\n${joinMrkdwn(lines, '\n')}`;
  const choices = choicesOf(input.added.map((added) => added.account));
  return fitToLimits({
    text: withoutBold(text),
    blocks: [
      section(title),
      ...linesToSections(lines, 20, 'accounts'),
      ...choices,
      context(
        'Charged nothing: these look-ups are free. This channel hears when an account is added to another upcoming show.',
      ),
    ],
  });
}

/** Names listed in an import's answer; the rest are counted. */
const NAMES_LISTED = 10;

const someOf = (names: readonly string[], quote = false) => {
  const shown = names
    .slice(0, NAMES_LISTED)
    .map((name) => escapeMrkdwn(truncate(name, 40)))
    .map((name) => (quote ? mk`\`${name}\`` : name));
  const rest = names.length - shown.length;
  const listed = joinMrkdwn(shown, ', ');
  return rest > 0 ? mk`${listed} and ${formatNumber(rest)} more` : listed;
};

const REFUSED_WHY = {
  'no-name': 'not a name or domain',
  'too-long': 'longer than 200 characters',
  blank: 'empty (`,,` or a bare `competitor:`)',
} as const satisfies Record<RefusedEntry['reason'], string>;

/** What happens next to imported accounts (the check right after the answer, when the watch is on). */
function importNext(added: number, watchOn: boolean) {
  if (added === 0) return 'Nothing new to look up.';
  return watchOn
    ? 'Checking them now: the shows they are on now will not alert; you’ll hear only about new shows.'
    : 'This channel’s watch is off: they are looked up when it is on again (`/events watch on`), and the shows they are on then will not alert.';
}

/** The answer to `/events watch import`: how many were added, already watched, refused and why. */
export function importedAnswer(input: {
  added: number;
  alreadyWatched: string[];
  refused: RefusedEntry[];
  /** The channel's watch is on: the imported accounts are checked right after this answer. */
  watchOn: boolean;
}): SlackMessage {
  const { added, alreadyWatched, refused } = input;
  const lines: Mrkdwn[] = [];
  if (alreadyWatched.length > 0)
    lines.push(
      mk`Already watched (kept as they were): ${formatNumber(alreadyWatched.length)} — ${someOf(alreadyWatched)}.`,
    );
  for (const reason of Object.keys(REFUSED_WHY) as RefusedEntry['reason'][]) {
    const entries = refused.filter((entry) => entry.reason === reason).map((entry) => entry.entry);
    if (entries.length === 0) continue;
    const examples = reason === 'blank' ? '' : mk`: ${someOf(entries, true)}`;
    lines.push(mk`Not added, ${REFUSED_WHY[reason]}: ${formatNumber(entries.length)}${examples}.`);
  }
  const title = mk`*Imported: this channel now watches ${plural(added, 'more account', 'more accounts')}.*`;
  return fitToLimits({
    text: withoutBold(joinMrkdwn([title, ...lines], '\n')),
    blocks: [
      section(title),
      ...(lines.length > 0 ? [section(joinMrkdwn(lines, '\n'))] : []),
      context(mk`${importNext(added, input.watchOn)} Charged nothing. \`/events watch status\` counts them.`),
    ],
  });
}

/** A page of `/events watch list`: each account with its upcoming shows as last told, then `pager`. */
export function watchListAnswer(
  accounts: WatchAccount[],
  page: number,
  today: string,
  pager: KnownBlock[] = [],
): SlackMessage {
  if (accounts.length === 0)
    return fitToLimits({
      text: 'This channel watches no accounts.',
      blocks: [
        section(
          page === 1
            ? 'This channel watches no accounts. Add some with `/events watch add Acme Robotics, globex.com`.'
            : 'No more accounts.',
        ),
        ...pager,
      ],
    });
  const lines = accounts.map((account) => {
    const told = (account.told ?? []).filter((show) => show.dateStart === null || show.dateStart >= today);
    return mk`${whereNow({ account, shows: told })}${account.muted ? ' _(muted)_' : ''}`;
  });
  const next = actions([button('Export CSV', ACTION_IDS.watchExport, {})]);
  const title = mk`*Watched accounts, page ${page}*`;
  return fitToLimits({
    text: mk`Watched accounts, page ${page}`,
    blocks: [
      section(title),
      ...linesToSections(lines, 20, 'accounts'),
      ...choicesOf(accounts),
      ...(next ? [next] : []),
      ...pager,
    ],
  });
}

export interface WatchStatus {
  settings: WatchSettings | null;
  accounts: (Pick<WatchAccount, 'resolution' | 'key'> & ChoosableAccount)[];
  now: Date;
}

/** `/events watch status`: accounts, resolved / not yet found, last and next check, credits this month. */
export function watchStatusAnswer({ settings, accounts, now }: WatchStatus): SlackMessage {
  if (!settings || accounts.length === 0)
    return fitToLimits({
      text: 'This channel watches no accounts.',
      blocks: [
        section('This channel watches no accounts. Add some with `/events watch add <names or domains>`.'),
      ],
    });
  const count = (resolution: WatchAccount['resolution']) =>
    accounts.filter((a) => a.resolution === resolution).length;
  const when = (iso: string | undefined) => (iso ? utcDateTime(new Date(iso)) : 'not yet');
  const spent = spentThisMonth(settings, now);
  const lines = [
    mk`*Watch:* ${settings.status === 'on' ? 'on' : 'off (turn it on with `/events watch on`)'}`,
    mk`*Accounts:* ${formatNumber(accounts.length)} — ${formatNumber(count('resolved'))} found, ${formatNumber(count('not-found') + count('pending'))} not found yet, ${formatNumber(count('ambiguous'))} to choose`,
    mk`*Last check:* ${when(settings.lastCheckAt)}`,
    mk`*Next check:* ${settings.status === 'on' ? when(settings.nextCheckAt) : 'none while off'}`,
    mk`*Credits this month:* ${formatNumber(spent)} of ${settings.budgetCredits === 0 ? 'a budget of 0 (free look-ups only)' : mk`${formatNumber(settings.budgetCredits)} a month, on paid name look-ups${settings.budgetSetBy ? mk` (budget set by ${mentionUser(settings.budgetSetBy)})` : ''}`}`,
  ];
  return fitToLimits({
    text: withoutBold(joinMrkdwn(lines, '\n')),
    blocks: [section(joinMrkdwn(lines, '\n')), ...choicesOf(accounts)],
  });
}
