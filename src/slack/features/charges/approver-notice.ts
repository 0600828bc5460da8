import type { MayConfirm } from '../../../domain/approval.ts';
import type { Logger } from '../../../platform/log.ts';
import { NAMED_APPROVERS } from '../../kit/confirmation-card.ts';
import { priceWords } from '../../kit/money-words.ts';
import type { SlackOut } from '../../kit/slack-out.ts';
import { threadLink } from '../../kit/thread-link.ts';
import { formatLink, mentionChannel, mentionUser } from '../../views/format.ts';
import { escapeMrkdwn, mk, truncate } from '../../views/mrkdwn.ts';
import type { Price } from '../../views/types.ts';

/** A card that waits for an approver, as its approvers are told of it. */
export interface WaitingCard {
  channelId: string;
  ts: string;
  requestedBy: string;
  description: string;
  price: Price;
  mayConfirm: MayConfirm;
}

/**
 * One direct message to each approver a card names (as many as it names), when only an approver can
 * confirm it: the card would otherwise wait unseen until they open their Home. Sent once, when the card
 * is published (clicks and retries of the charge do not send it again); a failed message is logged.
 */
export async function tellApprovers(
  card: WaitingCard,
  slack: Pick<SlackOut, 'directMessage'>,
  logger: Logger,
): Promise<void> {
  const { directMessage } = slack;
  if (card.mayConfirm.requestedBy !== undefined || !directMessage) return;
  const link = formatLink(threadLink(card.channelId, card.ts), 'Open the card');
  const text = mk`:lock: ${mentionUser(card.requestedBy)} asks to spend ${escapeMrkdwn(priceWords(card.price))} in ${mentionChannel(card.channelId)}: ${truncate(escapeMrkdwn(card.description), 1500)}. It waits for an approver to confirm: ${link}.`;
  for (const approver of card.mayConfirm.approvers.slice(0, NAMED_APPROVERS))
    await directMessage(approver, text).catch((error: unknown) =>
      logger.warn('could not tell an approver that a card waits for them', { error }),
    );
}
