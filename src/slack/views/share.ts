import * as z from 'zod';
import { CommandValueSchema } from '../features/charges/buttons.ts';
import { ListPageValueSchema } from '../features/lists/buttons.ts';
import { ACTION_IDS } from './action-ids.ts';
import { actions, button, context } from './blocks.ts';
import { mentionUser } from './format.ts';
import { fitToLimits } from './limits.ts';
import type { SlackMessage } from './types.ts';
import { mk } from './mrkdwn.ts';

/** What Share in channel carries: the command a private answer came from, or the list page it shows. */
export const ShareValueSchema = z.union([CommandValueSchema, ListPageValueSchema]);
export type ShareValue = z.infer<typeof ShareValueSchema>;

/** A private answer, with a button that posts the same answer in the channel for everyone. */
export function withShareButton(message: SlackMessage, share: ShareValue): SlackMessage {
  const row = actions([button('Share in channel', ACTION_IDS.shareInChannel, share)], 'share');
  return row ? fitToLimits({ ...message, blocks: [...message.blocks, row] }) : message;
}

/** A shared answer says who shared it. */
export function sharedBy(message: SlackMessage, userId: string): SlackMessage {
  return fitToLimits({
    ...message,
    blocks: [...message.blocks, context(mk`Shared by ${mentionUser(userId)}`)],
  });
}
