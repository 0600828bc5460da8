import type { ShareValue } from '../button-values.ts';
import { ACTION_IDS } from './action-ids.ts';
import { actions, button, context } from './blocks.ts';
import { mentionUser } from './format.ts';
import { fitToLimits } from './limits.ts';
import type { SlackMessage } from './types.ts';

/** A private answer, with a button that posts the same answer in the channel for everyone. */
export function withShareButton(message: SlackMessage, share: ShareValue): SlackMessage {
  const row = actions([button('Share in channel', ACTION_IDS.shareInChannel, share)], 'share');
  return row ? fitToLimits({ ...message, blocks: [...message.blocks, row] }) : message;
}

/** A shared answer says who shared it. */
export function sharedBy(message: SlackMessage, userId: string): SlackMessage {
  return fitToLimits({
    ...message,
    blocks: [...message.blocks, context(`Shared by ${mentionUser(userId)}`)],
  });
}
