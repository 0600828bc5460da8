import type { KnownBlock } from '@slack/types';
import type { LedgerEntry } from '../../../domain/ports/index.ts';
import { context, header, section } from '../../views/blocks.ts';
import { formatCredits, mentionChannel, mentionUser, slackDate } from '../../views/format.ts';
import { andMore, linesToSections } from '../../views/limits.ts';
import { chargeKindWords, chargeTargetWords } from '../../views/messages.ts';
import { escapeMrkdwn, mk, type Mrkdwn } from '../../views/mrkdwn.ts';
import { confirmedByWords } from '../../kit/charge-words.ts';
import { UNKNOWN_OUTCOME } from '../../../domain/unknown-outcomes.ts';

/** A charge whose outcome the service never confirmed, as the Home's admins see it. */
export type UnknownCharge = Pick<
  LedgerEntry,
  | 'at'
  | 'action'
  | 'credits'
  | 'requestedBy'
  | 'confirmedBy'
  | 'preApproval'
  | 'channelId'
  | 'eventId'
  | 'personnelIds'
> & {
  /** Still unknown a day (`UNKNOWN_OUTCOME.askForSeconds`) after the charge. */
  stillUnknownAfterADay?: boolean;
};

const ASKED_FOR = `${UNKNOWN_OUTCOME.askForSeconds / 3600} hours`;

/** How far back the Home looks for charges whose outcome is unknown. */
export const NEEDS_ATTENTION_DAYS = 30;
const MAX_LINES = 10;

function unknownChargeLine(charge: UnknownCharge): Mrkdwn {
  const at = new Date(charge.at);
  const day = Number.isNaN(at.getTime())
    ? ''
    : mk`${slackDate(at, '{date_short}', charge.at.slice(0, 10))} · `;
  const target = chargeTargetWords(charge);
  const where = charge.channelId ? mk` in ${mentionChannel(charge.channelId)}` : '';
  const still = charge.stillUnknownAfterADay ? mk` (still unknown after ${escapeMrkdwn(ASKED_FOR)})` : '';
  return mk`• ${day}${chargeKindWords(charge.action)}${target}, asked by ${mentionUser(charge.requestedBy)}${confirmedByWords(charge)}${where}: up to *${formatCredits(charge.credits)}* may have been spent${still}`;
}

/**
 * The Home's "Needs attention" section, for workspace admins only: charges of the last
 * `NEEDS_ATTENTION_DAYS` days whose outcome is unknown and that the bot no longer asks the service about
 * (it could not ask, or the service did not say within a day), newest first. Nothing when there are none.
 */
export function needsAttentionBlocks(charges: readonly UnknownCharge[]): KnownBlock[] {
  if (charges.length === 0) return [];
  const lines = [...charges].sort((a, b) => b.at.localeCompare(a.at)).map(unknownChargeLine);
  return [
    { type: 'divider' },
    header('Needs attention'),
    section(
      mk`The service never confirmed whether ${charges.length === 1 ? 'this charge' : 'these charges'} went through: the bot was interrupted while charging, or the service did not answer in time.`,
    ),
    ...linesToSections(lines.slice(0, MAX_LINES), 3, 'charges'),
    ...(lines.length > MAX_LINES ? [context(andMore(lines.length - MAX_LINES, 'charges'))] : []),
    context(
      'What to check: the balance and usage history of the service account that was connected when each was confirmed (it may be a key since replaced). The credits count against that day’s cap.',
    ),
  ];
}
