import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import * as z from 'zod';
import { FollowUpValueSchema } from '../button-values.ts';
import { ACTION_IDS } from '../views/action-ids.ts';
import { errorMessage } from '../views/messages.ts';
import { answeringFailures } from './answer-failures.ts';
import { contextOf, parseValue } from './button-actions.ts';
import type { ListenerDeps } from './deps.ts';

/** `ACTION_IDS.followUpOutreach` and `.followUpLinkedin`, each with its `.<n>` suffix. */
const FOLLOW_UP = /^followup\.(outreach|linkedin)\./;

/**
 * Draft outreach and LinkedIn activity under an email unlock's results. Everything is answered in the
 * unlock's thread (the clicked reply's `thread_ts`), so the drafts land beside the emails.
 */
export function registerFollowUpActions(app: App, deps: ListenerDeps): void {
  app.action<BlockAction<ButtonAction>>(
    FOLLOW_UP,
    answeringFailures(deps.logger, async ({ ack, body, action, respond }) => {
      await ack();
      const value = FollowUpValueSchema.safeParse(parseValue(action));
      if (!value.success) {
        await respond({
          response_type: 'ephemeral',
          replace_original: false,
          ...errorMessage('This button is out of date. Run the command again.'),
        });
        return;
      }
      const thread = z.object({ thread_ts: z.string().optional(), ts: z.string() }).safeParse(body.message);
      const threadTs =
        value.data.threadTs ?? (thread.success ? (thread.data.thread_ts ?? thread.data.ts) : undefined);
      await deps.dispatch({
        kind: 'follow-up',
        id: `follow-up:${body.trigger_id}`,
        followUp: action.action_id.startsWith(ACTION_IDS.followUpLinkedin) ? 'linkedin' : 'outreach',
        personnelIds: value.data.personnelIds,
        ...(value.data.names ? { names: value.data.names } : {}),
        context: { ...contextOf(body), messageTs: undefined, ...(threadTs ? { threadTs } : {}) },
      });
    }),
  );
}
