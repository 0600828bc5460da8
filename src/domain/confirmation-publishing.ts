import type { Logger } from '../platform/log.ts';
import type { Confirmation, ConfirmationRepository } from './ports/index.ts';

const SET_UP_FAILED =
  'This confirmation could not be set up. Nothing was charged; please run the command again.';
const HANDOVER_FAILED =
  'The bot could not start the charge. Nothing was charged; please run the command again.';

/** The confirmation card, as the rules below need it shown (the Slack layer renders it). */
export interface ConfirmationCardPort {
  /** Shows the card without buttons; undefined when it cannot be shown at all. */
  show(): Promise<string | undefined>;
  /** Adds the Confirm and Cancel buttons to the card at `ts`. */
  arm(ts: string): Promise<void>;
  /** Turns the card at `ts` into a failure that says `message` (nothing charged). */
  close(ts: string, message: string): Promise<void>;
}

/**
 * Publishes a new confirmation's card: shown without buttons and armed only once its ts is stored,
 * since Slack may store a post whose answer never arrives, and such a card must not be one anybody
 * can click. A card whose ts cannot be stored is closed; a confirmation whose card cannot be shown at
 * all is cancelled (nothing can be confirmed).
 */
export async function publishConfirmation(
  confirmationId: string,
  card: ConfirmationCardPort,
  deps: { confirmations: Pick<ConfirmationRepository, 'attachMessage' | 'cancel'>; logger: Logger },
): Promise<void> {
  const ts = await card.show();
  if (!ts) {
    await deps.confirmations.cancel(confirmationId, { by: 'eventbot' });
    return;
  }
  try {
    await deps.confirmations.attachMessage(confirmationId, ts);
  } catch (error) {
    await card
      .close(ts, SET_UP_FAILED)
      .catch((closeError: unknown) => deps.logger.error('could not close a card', { error: closeError }));
    throw error;
  }
  await card.arm(ts);
}

/**
 * Hands a claimed confirmation's charge to the worker. If that fails, the confirmation is closed
 * ("nothing was charged") unless a worker did start the charge after all: then the worker owns it.
 * Returns the closed confirmation, for its card, or null.
 */
export async function handOverCharge(
  confirmationId: string,
  dispatch: () => Promise<void>,
  deps: { confirmations: Pick<ConfirmationRepository, 'abandon' | 'get'>; logger: Logger },
): Promise<Confirmation | null> {
  try {
    await dispatch();
    return null;
  } catch (error) {
    deps.logger.error('could not hand the charge to the worker', { confirmationId, error });
    const closed = await deps.confirmations.abandon(confirmationId, {
      reason: 'dispatch-failed',
      message: HANDOVER_FAILED,
      creditsSpent: 0,
    });
    return closed ? await deps.confirmations.get(confirmationId) : null;
  }
}
