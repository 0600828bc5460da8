import type { BlockAction, ButtonAction } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import * as z from 'zod';
import type { Logger } from '../../platform/log.ts';
import type { JobContext } from './jobs.ts';
import { slackErrorCode } from '../slack-errors.ts';

/** What every listener reads of an interaction: who, where, and the button's value. */

export function contextOf(body: BlockAction): JobContext {
  return {
    teamId: body.team?.id ?? body.user.team_id ?? 'unknown',
    // A block action always comes from a message here: its container names the channel.
    channelId: body.channel?.id ?? z.string().parse(body.container.channel_id),
    userId: body.user.id,
    ...(body.response_url ? { responseUrl: body.response_url } : {}),
    ...(body.message?.ts ? { messageTs: body.message.ts } : {}),
  };
}

export function parseValue(action: ButtonAction): unknown {
  try {
    return JSON.parse(action.value ?? '');
  } catch {
    return undefined;
  }
}

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
