import type { App, GlobalShortcut, MessageShortcut } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { ModalView } from '@slack/types';
import type { Logger } from '../../log.ts';
import { companyHint } from '../modal-forms.ts';
import { slackErrorCode } from '../slack-errors.ts';
import { researchModal, searchModal } from '../views/modals.ts';
import type { ListenerDeps } from './deps.ts';
import { registerModals } from './modals.ts';

export const SHORTCUT_IDS = { searchEvents: 'search_events', researchCompany: 'research_company' } as const;

/**
 * Opens a modal with the interaction's trigger id, first thing: Slack's trigger ids expire 3 s after
 * the click and work once, so nothing (no service call, no store read) comes before `views.open`.
 * A failure is logged, not thrown: there is nowhere else to show it. Returns the view's id, if opened.
 */
export async function openModal(
  client: WebClient,
  triggerId: string,
  view: ModalView,
  logger: Logger,
): Promise<string | undefined> {
  try {
    const opened = await client.views.open({ trigger_id: triggerId, view });
    return opened.view?.id ?? '';
  } catch (error) {
    logger.warn('could not open a modal', {
      modal: view.callback_id,
      slackError: slackErrorCode(error) ?? 'unknown',
    });
    return undefined;
  }
}

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

  registerModals(app, deps);
}
