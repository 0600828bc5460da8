import type { KnownBlock } from '@slack/types';
import type { WatchAccount, WatchCandidate, WatchShow } from '../../../domain/ports/index.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { button, context, section } from '../../views/blocks.ts';
import { formatNumber, mentionUser } from '../../views/format.ts';
import { fitToLimits } from '../../views/limits.ts';
import type { SlackMessage } from '../../views/types.ts';
import type { WatchChoiceValue } from './buttons.ts';
import { accountWords, showWords } from './views.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn, withoutBold } from '../../views/mrkdwn.ts';

/** The choice an ambiguous account offers: its candidates, each with a This one button. */

/** An account as its choice shows it. */
export type ChoosableAccount = Pick<WatchAccount, 'label' | 'kind' | 'exhibitorIds' | 'candidates'>;

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

/** The choices of the first few ambiguous accounts, and a count of those left for later. */
export function choicesOf(accounts: readonly (ChoosableAccount & Pick<WatchAccount, 'resolution'>)[]) {
  const ambiguous = accounts.filter((account) => account.resolution === 'ambiguous');
  const blocks = ambiguous.slice(0, CHOICES_PER_ANSWER).flatMap(choiceBlocks);
  const later = ambiguous.length - CHOICES_PER_ANSWER;
  if (later > 0)
    blocks.push(
      context(
        mk`${formatNumber(later)} more ${later === 1 ? 'name is' : 'names are'} shared by several exhibitors: \`/events watch status\` shows their choices once these are made.`,
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
  return mk`That exhibitor is not one of ${name}’s candidates any more. Nothing was changed; \`/events watch status\` shows the current choice.`;
}
