import type { WebClient } from '@slack/web-api';
import { CHANNEL_GONE } from '../../../domain/slack-delivery.ts';
import { stillAsking } from '../../../domain/reconcile.ts';
import type { Logger } from '../../../platform/log.ts';
import type { Confirmation, ConfirmationRepository } from '../../../domain/ports/index.ts';
import { storedConfirmationCard } from '../../kit/recorded-card.ts';
import type { SlackMessage } from '../../views/types.ts';
import { slackErrorCode } from '../../slack-errors.ts';

/** A card that can never be updated: no point trying again next minute. */
const CARD_GONE = new Set([
  ...CHANNEL_GONE,
  'message_not_found',
  'cant_update_message',
  'edit_window_closed',
]);

/**
 * Shows a confirmation's stored state on its card (worker and reconciler alike), then takes a decided
 * one out of the reconciler's index (unless the reconciler still asks the service about it). Throws when Slack failed in a way worth trying again.
 */
export function confirmationCardShower(
  update: (channelId: string, ts: string, message: SlackMessage) => Promise<void>,
  confirmations: Pick<ConfirmationRepository, 'cardShown'>,
  logger: Logger,
) {
  return async (confirmation: Confirmation, fallbackTs?: string): Promise<void> => {
    const ts = confirmation.messageTs ?? fallbackTs;
    if (ts) {
      try {
        await update(confirmation.channelId, ts, storedConfirmationCard(confirmation));
      } catch (error) {
        const code = slackErrorCode(error);
        if (!code || !CARD_GONE.has(code)) throw error;
        logger.info('confirmation card cannot be updated', {
          confirmationId: confirmation.id,
          slackError: code,
        });
      }
    }
    // One whose outcome is still asked about stays in the reconciler's index, which asks next.
    const decided = confirmation.status !== 'pending' && confirmation.status !== 'running';
    if (decided && !stillAsking(confirmation))
      await confirmations.cardShown(confirmation.id, confirmation.status);
  };
}

/** Updates a confirmation card in place (the reconciler's final cards). */
export function cardUpdater(web: WebClient) {
  return async (channel: string, ts: string, message: SlackMessage): Promise<void> => {
    await web.chat.update({ channel, ts, ...message });
  };
}
