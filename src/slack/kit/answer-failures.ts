import type { RespondFn } from '@slack/bolt';
import type { Logger } from '../../platform/log.ts';
import { errorMessage } from '../views/messages.ts';

/**
 * Wraps a button listener so a failure after its `ack()` is told to the user (one line, no stack)
 * instead of a click that silently does nothing; the error is logged once.
 */
export function answeringFailures<Args extends { respond: RespondFn }>(
  logger: Logger,
  listener: (args: Args) => Promise<void>,
): (args: Args) => Promise<void> {
  return async (args) => {
    try {
      await listener(args);
    } catch (error) {
      logger.error('a button could not be handled', { error });
      await args
        .respond({
          response_type: 'ephemeral',
          replace_original: false,
          ...errorMessage('The bot could not handle that click just now. Please try again in a moment.'),
        })
        .catch((respondError: unknown) => logger.error('could not tell the user', { error: respondError }));
    }
  };
}
