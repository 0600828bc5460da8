import type { App, MessageShortcut } from '@slack/bolt';
import type { JobContext } from '../../kit/jobs.ts';
import { metadataOf } from '../../kit/modal-forms.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import type { ListenerDeps } from '../../kit/listener-deps.ts';
import { openModal } from '../../kit/interaction.ts';
import { type ModalReader, registerModalOpener, registerModalSubmission } from '../../kit/modals.ts';
import { companyHint, readResearchForm, ResearchTargetSchema } from './forms.ts';
import { RESEARCH_MODAL, researchModal } from './research-views.ts';

/** The "Research a company" message shortcut's id, as declared in the app manifests. */
export const RESEARCH_SHORTCUT = 'research_company';

const readResearch: ModalReader = (values, view, who) => {
  const target = metadataOf(view, ResearchTargetSchema) ?? { privately: true as const };
  const privately = 'privately' in target;
  const form = readResearchForm(values, privately);
  if (!form.ok) return form;
  const context: JobContext =
    'privately' in target
      ? { ...who, channelId: form.value.channelId ?? '' }
      : { ...who, channelId: target.channelId, threadTs: target.threadTs };
  return { ok: true, value: { kind: 'command', text: form.value.text, context } };
};

/** "Research a company" (message shortcut, App Home) with its modal (an exhibitor's Open: `ACCOUNT_BUTTONS`). */
export function registerAccount(app: App, deps: ListenerDeps): void {
  // "Research a company" on a message: prefilled from its first link or its text, answered in its thread.
  app.shortcut<MessageShortcut>(RESEARCH_SHORTCUT, async ({ ack, shortcut, client }) => {
    const message = shortcut.message;
    const threadTs = typeof message.thread_ts === 'string' ? message.thread_ts : shortcut.message_ts;
    const view = researchModal(companyHint(message.text ?? ''), {
      channelId: shortcut.channel.id,
      threadTs,
    });
    await openModal(client, shortcut.trigger_id, view, deps.logger);
    await ack();
  });
  registerModalOpener(app, deps, ACTION_IDS.openResearch, () => researchModal('', { privately: true }));
  registerModalSubmission(app, deps, RESEARCH_MODAL, readResearch);
}
