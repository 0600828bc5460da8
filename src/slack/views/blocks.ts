import type {
  InputBlock,
  ActionsBlock,
  Button,
  ConfirmationDialog,
  ContextBlock,
  HeaderBlock,
  MrkdwnElement,
  PlainTextElement,
  SectionBlock,
} from '@slack/types';
import type { ActionId } from './action-ids.ts';
import { LIMITS } from './limits.ts';

/** Small constructors for the blocks the views use. Texts given here are already escaped mrkdwn. */

export const mrkdwn = (text: string): MrkdwnElement => ({ type: 'mrkdwn', text });
export const plainText = (text: string): PlainTextElement => ({ type: 'plain_text', text, emoji: true });

export const header = (text: string): HeaderBlock => ({ type: 'header', text: plainText(text) });
export const section = (text: string): SectionBlock => ({ type: 'section', text: mrkdwn(text) });
export const fieldsSection = (fields: readonly string[]): SectionBlock => ({
  type: 'section',
  fields: fields.map(mrkdwn),
});
export const context = (...texts: string[]): ContextBlock => ({
  type: 'context',
  elements: texts.filter(Boolean).map(mrkdwn),
});

export interface ButtonOptions {
  style?: 'primary' | 'danger';
  confirm?: ConfirmationDialog;
}

/**
 * A button whose value is `value` as JSON, or `undefined` when that JSON is longer than Slack allows:
 * a value cut short could not be parsed back, so such a button is not shown at all.
 */
export function button(label: string, actionId: ActionId, value: unknown, options: ButtonOptions = {}) {
  const json = JSON.stringify(value);
  if (json.length > LIMITS.buttonValue) return undefined;
  const element: Button = { type: 'button', action_id: actionId, text: plainText(label), value: json };
  if (options.style) element.style = options.style;
  if (options.confirm) element.confirm = options.confirm;
  return element;
}

/** An actions block of the buttons that exist, or `undefined` when none do. */
export function actions(
  buttons: readonly (Button | undefined)[],
  blockId?: string,
): ActionsBlock | undefined {
  const elements = buttons.filter((element) => element !== undefined);
  if (elements.length === 0) return undefined;
  return blockId ? { type: 'actions', block_id: blockId, elements } : { type: 'actions', elements };
}

/** A modal's input: optional unless said otherwise (Slack's default is required). */
export function input(
  field: string,
  label: string,
  element: InputBlock['element'],
  extra: { optional?: boolean; hint?: string } = {},
): InputBlock {
  return {
    type: 'input',
    block_id: field,
    label: plainText(label),
    element,
    optional: extra.optional ?? true,
    ...(extra.hint ? { hint: plainText(extra.hint) } : {}),
  };
}
