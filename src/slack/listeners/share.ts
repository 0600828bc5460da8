import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { ACTION_IDS } from '../views/action-ids.ts';
import { ShareValueSchema } from '../kit/share.ts';
import { answeringFailures } from '../kit/answer-failures.ts';
import { outOfDate } from '../kit/command-buttons.ts';
import type { ListenerDeps } from '../kit/listener-deps.ts';
import { contextOf, parseValue } from '../kit/interaction.ts';

/** "Share in channel" on a private answer: the worker posts it for everyone and removes the private one. */
export function registerShare(app: App, deps: ListenerDeps): void {
  app.action<BlockAction<ButtonAction>>(
    ACTION_IDS.shareInChannel,
    answeringFailures(deps.logger, async ({ ack, body, action, respond }) => {
      await ack();
      const share = ShareValueSchema.safeParse(parseValue(action));
      if (!share.success) {
        return outOfDate(respond);
      }
      await deps.dispatch({
        kind: 'share',
        id: `share:${body.trigger_id}`,
        share: share.data,
        context: { ...contextOf(body), messageTs: undefined, sharedBy: body.user.id },
      });
    }),
  );
}
