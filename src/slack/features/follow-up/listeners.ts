import type {
  AllMiddlewareArgs,
  App,
  BlockAction,
  ButtonAction,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import * as z from 'zod';
import { readOutreachForm } from './forms.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { errorMessage } from '../../views/messages.ts';
import { OUTREACH_MODAL, outreachModal } from './views.ts';
import { answeringFailures } from '../../kit/answer-failures.ts';
import { contextOf, parseValue } from '../../kit/interaction.ts';
import type { ListenerDeps } from '../../kit/listener-deps.ts';
import { openModal } from '../../kit/interaction.ts';
import { FollowUpValueSchema } from '../../kit/job-values.ts';

/** `ACTION_IDS.followUpOutreach` and `.followUpLinkedin`, each with its `.<n>` suffix. */
const FOLLOW_UP = /^followup\.(outreach|linkedin)\./;

const OutreachTargetSchema = FollowUpValueSchema.extend({ channelId: z.string().min(1) });

/**
 * Draft outreach and LinkedIn activity under an email unlock's results. Everything is answered in the
 * unlock's thread (the clicked reply's `thread_ts`), so the drafts land beside the emails. Draft
 * outreach first asks what to draft (a modal); LinkedIn activity goes straight to its confirmation.
 */
export function registerFollowUpActions(app: App, deps: ListenerDeps): void {
  app.action<BlockAction<ButtonAction>>(
    FOLLOW_UP,
    answeringFailures(deps.logger, async ({ ack, body, action, respond, client }) => {
      const value = FollowUpValueSchema.safeParse(parseValue(action));
      const thread = z.object({ thread_ts: z.string().optional(), ts: z.string() }).safeParse(body.message);
      const threadTs = value.success
        ? (value.data.threadTs ?? (thread.success ? (thread.data.thread_ts ?? thread.data.ts) : undefined))
        : undefined;
      const context = { ...contextOf(body), messageTs: undefined, ...(threadTs ? { threadTs } : {}) };
      if (value.success && action.action_id.startsWith(ACTION_IDS.followUpOutreach)) {
        // The trigger id lasts 3 s and works once: the modal opens before anything else, then the ack.
        const target = { ...value.data, ...(threadTs ? { threadTs } : {}), channelId: context.channelId };
        const opened = await openModal(client, body.trigger_id, outreachModal(target), deps.logger);
        await ack();
        if (opened === undefined)
          await respond({
            response_type: 'ephemeral',
            replace_original: false,
            ...errorMessage('The drafting options could not be opened. Please click Draft outreach again.'),
          });
        return;
      }
      await ack();
      if (!value.success) {
        await respond({
          response_type: 'ephemeral',
          replace_original: false,
          ...errorMessage('This button is out of date. Run the command again.'),
        });
        return;
      }
      await deps.dispatch({
        kind: 'follow-up',
        id: `follow-up:${body.trigger_id}`,
        followUp: 'linkedin',
        personnelIds: value.data.personnelIds,
        ...(value.data.names ? { names: value.data.names } : {}),
        context,
      });
    }),
  );

  // The modal's choices: field errors shown in it, else the drafting handed to the worker.
  app.view<ViewSubmitAction>(
    OUTREACH_MODAL,
    async ({ ack, body, view }: SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs) => {
      const target = metadataOf(view.private_metadata);
      // An out-of-date modal has nothing to draft for: it is closed.
      if (!target) return ack();
      const form = readOutreachForm(view.state.values);
      if (!form.ok) return ack({ response_action: 'errors', errors: form.errors });
      const { channelId, threadTs, ...people } = target;
      try {
        await deps.dispatch({
          kind: 'follow-up',
          // One view is submitted once: a redelivered submission finds the same job.
          id: `follow-up:${view.id}`,
          followUp: 'outreach',
          ...people,
          outreach: form.value,
          context: {
            teamId: body.team?.id ?? body.user.team_id ?? 'unknown',
            channelId,
            userId: body.user.id,
            ...(threadTs ? { threadTs } : {}),
          },
        });
      } catch (error) {
        deps.logger.error('could not hand the outreach drafting to the worker', { error });
        return ack({
          response_action: 'errors',
          errors: { channels: 'The bot could not start this just now. Please try again in a minute.' },
        });
      }
      await ack();
    },
  );
}

function metadataOf(metadata: string) {
  try {
    const parsed = OutreachTargetSchema.safeParse(JSON.parse(metadata || '{}'));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
