import type { InputBlock, KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { input, plainText } from './blocks.ts';
import { truncate } from './mrkdwn.ts';

/**
 * What the rooms' modals are built of (search, research, digest, list filters). Every input's
 * `block_id` is its field name and its element's `action_id` is `value`, so a submission reads as
 * `state.values[field].value` (each room's `forms.ts` reads them back with `kit/modal-forms.ts`).
 */

export const FIELD_ACTION = 'value';

export const option = (text: string, value: string): PlainTextOption => ({ text: plainText(text), value });

export function textInput(field: string, label: string, initial?: string, placeholder?: string): InputBlock {
  return input(field, label, {
    type: 'plain_text_input',
    action_id: FIELD_ACTION,
    max_length: 200,
    ...(initial ? { initial_value: truncate(initial, 200) } : {}),
    ...(placeholder ? { placeholder: plainText(placeholder) } : {}),
  });
}

const isDate = (value: string | undefined): value is string => !!value && /^\d{4}-\d{2}-\d{2}$/.test(value);

export function dateInput(field: string, label: string, initial?: string): InputBlock {
  return input(field, label, {
    type: 'datepicker',
    action_id: FIELD_ACTION,
    ...(isDate(initial) ? { initial_date: initial } : {}),
  });
}

export function selectInput(
  field: string,
  label: string,
  options: PlainTextOption[],
  initial?: string,
): InputBlock {
  const chosen = options.find((candidate) => candidate.value === initial);
  return input(field, label, {
    type: 'static_select',
    action_id: FIELD_ACTION,
    options,
    ...(chosen ? { initial_option: chosen } : {}),
  });
}

/**
 * Where a private answer goes when the modal was not opened from a conversation (a global shortcut,
 * App Home). Slack's ephemeral messages need a channel, and so does Share; a DM with the bot could
 * not be shared, so the user picks the channel and only they see the answer there until they share.
 */
export function channelInput(initial?: string): InputBlock {
  return input(
    'channel',
    'Show the results in',
    {
      type: 'conversations_select',
      action_id: FIELD_ACTION,
      filter: { include: ['public', 'private'], exclude_bot_users: true },
      ...(initial ? { initial_conversation: initial } : { default_to_current_conversation: true }),
    },
    { optional: false, hint: 'Only you see them there, with a Share button.' },
  );
}

export function modal(
  callbackId: string,
  title: string,
  submit: string,
  blocks: KnownBlock[],
  metadata = {},
) {
  const view: ModalView = {
    type: 'modal',
    callback_id: callbackId,
    title: plainText(title),
    submit: plainText(submit),
    close: plainText('Cancel'),
    private_metadata: JSON.stringify(metadata),
    blocks,
  };
  return view;
}
