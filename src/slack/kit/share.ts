import * as z from 'zod';
import { ACTION_IDS } from '../views/action-ids.ts';
import { actions, button, context } from '../views/blocks.ts';
import { mentionUser } from '../views/format.ts';
import { fitToLimits } from '../views/limits.ts';
import type { SlackMessage } from '../views/types.ts';
import { mk } from '../views/mrkdwn.ts';
import { CommandValueSchema, ListPageValueSchema } from '../kit/job-values.ts';

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
