import type { ModalView } from '@slack/types';
import { plainText, section } from './blocks.ts';
import { escapeMrkdwn } from './mrkdwn.ts';

/** Its callback id: a modal that only says something, with nothing to submit. */
export const NOT_CONNECTED_MODAL = 'not-connected';

/**
 * What a shortcut opens, and what a submitted modal turns into, in a workspace without a service
 * key: the refusal's own words (which say how to connect), and a Close button.
 */
export const notConnectedModal = (notConnectedText: string): ModalView => ({
  type: 'modal',
  callback_id: NOT_CONNECTED_MODAL,
  title: plainText('Event Intelligence'),
  close: plainText('Close'),
  blocks: [section(escapeMrkdwn(notConnectedText))],
});
