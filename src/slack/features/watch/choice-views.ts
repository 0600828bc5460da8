import type { KnownBlock } from '@slack/types';
import type { WatchAccount, WatchCandidate, WatchShow } from '../../../domain/ports/index.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { button, context, section } from '../../views/blocks.ts';
import { formatNumber, mentionUser, plural } from '../../views/format.ts';
import { fitToLimits } from '../../views/limits.ts';
import type { SlackMessage } from '../../views/types.ts';
import type { WatchChoiceValue } from './buttons.ts';
import { accountWords, showWords } from './views.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn, withoutBold } from '../../views/mrkdwn.ts';

/**
 * The choice an ambiguous account offers (its candidates), or one not found (the near matches its name
 * search saw), each with a This one button.
 */

/** An account as its choice shows it. */
export type ChoosableAccount = Pick<
  WatchAccount,
  'label' | 'kind' | 'exhibitorIds' | 'candidates' | 'companyName'
> & { key?: string };

/** Ambiguous accounts whose candidates one answer shows; the others wait until these are chosen. */
export const CHOICES_PER_ANSWER = 3;
/** Shows named in the answer to a choice. */
const SHOWS_NAMED = 3;

/** `Acme Robotics Inc. · acme-robotics.com · exhibitor 4100 · Germany`. */
export function candidateWords(candidate: WatchCandidate): Mrkdwn {
  const where = candidate.domain ?? candidate.website;
  const parts = [
    mk`*${escapeMrkdwn(candidate.companyName)}*`,
    where ? mk`\`${escapeMrkdwn(where)}\`` : null,
    mk`exhibitor ${escapeMrkdwn(candidate.id)}`,
    candidate.country ? escapeMrkdwn(candidate.country) : null,
  ];
  return joinMrkdwn(
    parts.filter((part) => part !== null),
    ' · ',
  );
}

/** `Acme Robotics Inc. (acme-robotics.com, exhibitor 4100)`, or the id alone when no record is kept. */
function chosenWords(exhibitorId: string, candidate: WatchCandidate | undefined): Mrkdwn {
  const id = escapeMrkdwn(exhibitorId);
  if (!candidate) return mk`exhibitor ${id}`;
  const where = candidate.domain ?? candidate.website;
  return mk`${escapeMrkdwn(candidate.companyName)} (${where ? mk`${escapeMrkdwn(where)}, ` : ''}exhibitor ${id})`;
}

function candidateBlock(account: ChoosableAccount, candidate: WatchCandidate): KnownBlock {
  const value: WatchChoiceValue = { label: account.label, exhibitorId: candidate.id };
  const choose = button('This one', ACTION_IDS.watchChoose, value);
  return { ...section(candidateWords(candidate)), ...(choose ? { accessory: choose } : {}) };
}

/** `Initech Retail, exhibitor 1234`, `… or Initech Systems, exhibitor 1240`: a not-found name's near matches. */
function nearMatchWords(near: readonly WatchCandidate[]): Mrkdwn {
  const each = near.map(
    (candidate) => mk`${escapeMrkdwn(candidate.companyName)}, exhibitor ${escapeMrkdwn(candidate.id)}`,
  );
  return joinMrkdwn(each, ' or ');
}

/** A not-found account's near matches, each with This one (which sets the account to it). */
function nearMatchBlocks(account: ChoosableAccount): KnownBlock[] {
  const near = account.candidates ?? [];
  return [
    section(
      near.length === 1
        ? mk`Did you mean ${nearMatchWords(near)}, for ${accountWords(account)}?`
        : mk`Did you mean one of these for ${accountWords(account)}? None has exactly its name.`,
    ),
    ...near.map((candidate) => candidateBlock(account, candidate)),
  ];
}

/** One ambiguous account's choice: a line naming it, its kept candidates, and how to add the rest. */
export function choiceBlocks(account: ChoosableAccount): KnownBlock[] {
  const candidates = account.candidates ?? [];
  const total = Math.max(account.exhibitorIds.length, candidates.length);
  const rest = total - candidates.length;
  const blocks: KnownBlock[] = [
    section(mk`Which exhibitor is ${accountWords(account)}? ${formatNumber(total)} have this name:`),
    ...candidates.map((candidate) => candidateBlock(account, candidate)),
  ];
  if (rest > 0)
    blocks.push(
      context(
        mk`and ${formatNumber(rest)} more: add the one you mean by its domain (\`/events watch add <domain>\`), then remove this name.`,
      ),
    );
  return blocks;
}

type Choosing = ChoosableAccount & Pick<WatchAccount, 'resolution'>;

const nearMatched = (account: Choosing) =>
  account.resolution === 'not-found' && (account.candidates ?? []).length > 0;

/** The choices of the first few ambiguous accounts (near matches of names not found after them), and a count of those left. */
export function choicesOf(accounts: readonly Choosing[]) {
  const ambiguous = accounts.filter((account) => account.resolution === 'ambiguous');
  const near = accounts.filter(nearMatched);
  const shown = [...ambiguous, ...near].slice(0, CHOICES_PER_ANSWER);
  const blocks = shown.flatMap((account) =>
    account.resolution === 'ambiguous' ? choiceBlocks(account) : nearMatchBlocks(account),
  );
  const later = ambiguous.length + near.length - shown.length;
  if (later > 0)
    blocks.push(
      context(
        mk`${plural(later, 'more name waits', 'more names wait')} for a choice: \`/events watch status\` shows their choices once these are made.`,
      ),
    );
  return blocks;
}

/** The answer to a choice: which exhibitor the channel now watches, and where it exhibits now. */
export function chosenAnswer(
  account: ChoosableAccount,
  exhibitorId: string,
  shows: readonly WatchShow[],
): SlackMessage {
  const candidate = account.candidates?.find((kept) => kept.id === exhibitorId);
  const title = mk`Watching ${chosenWords(exhibitorId, candidate)}${account.kind === 'competitor' ? ' as a competitor' : ''}.`;
  const named = joinMrkdwn(shows.slice(0, SHOWS_NAMED).map(showWords), '; ');
  const more = shows.length > SHOWS_NAMED ? mk` and ${shows.length - SHOWS_NAMED} more` : '';
  const where =
    shows.length === 0 ? 'No upcoming shows as an exhibitor right now.' : mk`Exhibits at ${named}${more}.`;
  const text = mk`${title}\n${where}`;
  return fitToLimits({
    text: withoutBold(text),
    blocks: [
      section(text),
      context(
        'Charged nothing. These shows do not alert; this channel hears when it is added to another upcoming show.',
      ),
    ],
  });
}

/** Why a choice changed nothing: the account is no longer watched, or was chosen already. */
export function choiceRefused(
  label: string,
  account: Pick<WatchAccount, 'resolution' | 'exhibitorIds' | 'chosenBy'> | null,
): Mrkdwn {
  const name = escapeMrkdwn(label);
  if (!account) return mk`This channel no longer watches ${name}. Nothing was changed.`;
  if (account.resolution === 'resolved') {
    const who = account.chosenBy ? mk`, chosen by ${mentionUser(account.chosenBy)}` : '';
    return mk`${name} is already matched to exhibitor ${escapeMrkdwn(account.exhibitorIds[0] ?? '')}${who}. Nothing was changed; to watch another, add it by its domain.`;
  }
  return mk`That exhibitor is not one of ${name}’s candidates or near matches any more. Nothing was changed; \`/events watch status\` shows the current choice.`;
}
