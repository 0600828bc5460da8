import type { WebClient } from '@slack/web-api';
import { ChargeActionSchema } from '../../../domain/charging.ts';
import { storedOutcome } from '../../../domain/confirmations.ts';
import type { UnlockThread } from '../../../domain/unlock-polling.ts';
import type { Store } from '../../../store/index.ts';
import { replyInThread, slackCall } from '../../scheduled.ts';
import { describeStoredAction } from '../../kit/charge-words.ts';
import { cardPrice } from '../../kit/money-words.ts';
import type { Confirmation } from '../../../domain/ports/index.ts';
import {
  type UnlockCard,
  unlockAccountChangedReply,
  unlockCardUpdate,
  unlockResultReply,
  unlockTimeoutReply,
  unlockWaitingCard,
} from './views.ts';

/**
 * The event whose people list an email or phone unlock started from (its confirmation's action), so
 * the follow-up buttons carry it; undefined when there was none or it cannot be read.
 */
async function listEventOf(
  store: Pick<Store, 'confirmations'>,
  confirmationId: string | undefined,
): Promise<string | undefined> {
  if (!confirmationId) return undefined;
  const confirmation = await store.confirmations.get(confirmationId).catch(() => undefined);
  const action = ChargeActionSchema.safeParse(confirmation?.action);
  if (!action.success) return undefined;
  return 'fromEventId' in action.data ? action.data.fromEventId : undefined;
}

/** Where finished unlock tasks are told: the card's thread, and the card itself. */
export function unlockThread(web: WebClient, store: Pick<Store, 'confirmations'>): UnlockThread {
  const reply = replyInThread(web);
  return {
    async postResult(task, result) {
      const fromEventId = await listEventOf(store, task.confirmationId);
      await reply(
        task.channelId,
        task.threadTs,
        unlockResultReply(result, task.names, task.threadTs, fromEventId),
      );
    },
    async postTimeout(task) {
      await reply(task.channelId, task.threadTs, unlockTimeoutReply(task));
    },
    async postAccountChanged(task) {
      await reply(task.channelId, task.threadTs, unlockAccountChangedReply(task));
    },
    async updateCard(task, outcome) {
      const card = await chargedCardOf(store, task.confirmationId);
      if (!card) return;
      const message = unlockCardUpdate(card, task.kind, outcome);
      await slackCall(() => web.chat.update({ channel: task.channelId, ts: task.threadTs, ...message }));
    },
    async showWaiting(task, waiting) {
      const card = await chargedCardOf(store, task.confirmationId);
      if (!card) return;
      const message = unlockWaitingCard(card, waiting);
      await slackCall(() => web.chat.update({ channel: task.channelId, ts: task.threadTs, ...message }));
    },
  };
}

/** What the card showed when the charge went through; none unless the charge succeeded. */
async function chargedCardOf(
  store: Pick<Store, 'confirmations'>,
  confirmationId: string | undefined,
): Promise<UnlockCard | undefined> {
  if (!confirmationId) return undefined;
  const confirmation: Confirmation | null = await store.confirmations.get(confirmationId);
  if (confirmation?.status !== 'succeeded') return undefined;
  const charge = storedOutcome(confirmation);
  return {
    description: describeStoredAction(confirmation.action),
    price: cardPrice(confirmation),
    requestedBy: confirmation.requestedBy,
    confirmedBy: confirmation.confirmedBy ?? confirmation.requestedBy,
    creditsSpent: charge.creditsSpent ?? confirmation.price.credits,
    balanceAfter: charge.balanceAfter,
  };
}
