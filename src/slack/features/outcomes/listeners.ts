import type { App, BlockAction, ButtonAction, MessageShortcut } from '@slack/bolt';
import { openModal, parseValue } from '../../kit/interaction.ts';
import type { ListenerDeps } from '../../kit/listener-deps.ts';
import { metadataOf } from '../../kit/modal-forms.ts';
import { type ModalReader, registerModalOpener, registerModalSubmission } from '../../kit/modals.ts';
import { EventValueSchema } from '../../kit/row-buttons.ts';
import { threadLink } from '../../kit/thread-link.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { OUTCOME_MODAL, outcomeModal, OutcomeTargetSchema, readOutcomeForm } from './log-form.ts';

/** The "Log for a show" message shortcut's id, as declared in the app manifests. */
export const LOG_SHORTCUT = 'log_for_show';

/** The form read back as `/events outcome …`, run where it was opened from (its audience held there too). */
const readLog: ModalReader = (values, view, who) => {
  const target = metadataOf(view, OutcomeTargetSchema);
  if (!target) return { ok: false, errors: {} };
  const form = readOutcomeForm(values);
  if (!form.ok) return form;
  const { channelId, threadTs } = target;
  return {
    ok: true,
    value: {
      kind: 'command',
      text: form.value,
      context: { ...who, channelId, ...(threadTs ? { threadTs } : {}) },
    },
  };
};

/** Outcome… on a past show's card or plan row: the form with the show, answered in that card's thread. */
function fromCard(body: BlockAction<ButtonAction>) {
  const value = EventValueSchema.safeParse(parseValue(body.actions[0] as ButtonAction));
  const channelId = body.channel?.id;
  if (!value.success || !channelId) return undefined;
  // An ephemeral card has no thread to answer in: the entry's card goes in the channel.
  const threadTs = body.container.is_ephemeral ? undefined : body.message?.ts;
  return outcomeModal({ eventId: value.data.eventId }, { channelId, ...(threadTs ? { threadTs } : {}) });
}

/** Log for a show: on any message (prefilled with its text and link) and on a past show's card. */
export function registerOutcomes(app: App, deps: ListenerDeps): void {
  app.shortcut<MessageShortcut>(LOG_SHORTCUT, async ({ ack, shortcut, client }) => {
    const { message } = shortcut;
    const channelId = shortcut.channel.id;
    const threadTs = typeof message.thread_ts === 'string' ? message.thread_ts : shortcut.message_ts;
    const view = outcomeModal(
      { note: message.text ?? '', link: threadLink(channelId, shortcut.message_ts) },
      { channelId, threadTs },
    );
    await openModal(client, shortcut.trigger_id, view, deps.logger);
    await ack();
  });
  registerModalOpener(app, deps, ACTION_IDS.outcomeOpen, fromCard);
  registerModalSubmission(app, deps, OUTCOME_MODAL, readLog);
}
