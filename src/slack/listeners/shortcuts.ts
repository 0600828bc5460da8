import type { App, GlobalShortcut, MessageShortcut } from '@slack/bolt';
import { companyHint } from '../modal-forms.ts';
import { researchModal, searchModal } from '../views/modals.ts';
import type { ListenerDeps } from './deps.ts';
import { openModal } from './interaction.ts';

export const SHORTCUT_IDS = { searchEvents: 'search_events', researchCompany: 'research_company' } as const;

/** Global and message shortcuts, modals and their submissions. */
export function registerShortcuts(app: App, deps: ListenerDeps): void {
  // The search modal, from the shortcuts menu: its answer goes privately to a channel the user picks.
  app.shortcut<GlobalShortcut>(SHORTCUT_IDS.searchEvents, async ({ ack, shortcut, client }) => {
    await openModal(client, shortcut.trigger_id, searchModal(), deps.logger);
    await ack();
  });

  // "Research a company" on a message: prefilled from its first link or its text, answered in its thread.
  app.shortcut<MessageShortcut>(SHORTCUT_IDS.researchCompany, async ({ ack, shortcut, client }) => {
    const message = shortcut.message;
    const threadTs = typeof message.thread_ts === 'string' ? message.thread_ts : shortcut.message_ts;
    const view = researchModal(companyHint(message.text ?? ''), {
      channelId: shortcut.channel.id,
      threadTs,
    });
    await openModal(client, shortcut.trigger_id, view, deps.logger);
    await ack();
  });
}
