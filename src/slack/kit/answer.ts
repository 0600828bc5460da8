import type { JobContext } from './jobs.ts';
import type { ShareValue } from './share.ts';
import { sharedBy, withShareButton } from './share.ts';
import type { SlackMessage } from '../views/types.ts';
import type { SlackOut } from './slack-out.ts';

export type Answer = (context: JobContext, message: SlackMessage, share?: ShareValue) => Promise<void>;

/**
 * Where a free answer goes: privately to the one who asked (replacing the "working…" line), with
 * a Share button; for everyone when shared (saying by whom); in the thread of the public card whose
 * button asked for it.
 */
export function answerer(slack: SlackOut): Answer {
  return async (context, message, share) => {
    if (context.sharedBy) {
      await slack.post(context, sharedBy(message, context.sharedBy));
      await slack.deleteOriginal(context);
      return;
    }
    if (context.threadTs) {
      await slack.post(context, message, context.threadTs);
      return;
    }
    const shown = share ? withShareButton(message, share) : message;
    await slack.ephemeral(context, shown, { replaceOriginal: context.placeholder ?? false });
  };
}
