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
import type { BotText, Mrkdwn } from './mrkdwn.ts';

/**
 * Small constructors for the blocks the views use, the only place a mrkdwn text object is written (the
 * lint keeps it so). A mrkdwn text takes `Mrkdwn` or the bot's own literal, never a raw string (see
 * mrkdwn.ts). plain_text (headers, buttons, labels, options, titles) takes text as it is: Block Kit's
 * text object reference has markup, links and mentions parsed only when `type` is `mrkdwn` (its
 * `verbatim` parsing switch exists for mrkdwn only), which is why a header cannot mention anyone: data
 * there is shown as typed and pings no one, and the views pass it as it is.
 */

// Typed as safe by the exported constructors' parameters.
const mrkdwnObject = (text: string): MrkdwnElement => ({ type: 'mrkdwn', text });
const plainObject = (text: string): PlainTextElement => ({ type: 'plain_text', text, emoji: true });

export const mrkdwn = <T extends string>(text: BotText<T>): MrkdwnElement => mrkdwnObject(text);
export const plainText = (text: string): PlainTextElement => plainObject(text);

export const header = (text: string): HeaderBlock => ({
  type: 'header',
  text: plainObject(text),
});
export const section = <T extends string>(text: BotText<T>): SectionBlock => ({
  type: 'section',
  text: mrkdwnObject(text),
});
export const fieldsSection = (fields: readonly Mrkdwn[]): SectionBlock => ({
  type: 'section',
  fields: fields.map(mrkdwnObject),
});
export const context = <const T extends readonly string[]>(
  ...texts: { [K in keyof T]: BotText<T[K]> }
): ContextBlock => ({
  type: 'context',
  elements: (texts as readonly string[]).filter(Boolean).map(mrkdwnObject),
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
  const element: Button = { type: 'button', action_id: actionId, text: plainObject(label), value: json };
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
    label: plainObject(label),
    element,
    optional: extra.optional ?? true,
    ...(extra.hint ? { hint: plainObject(extra.hint) } : {}),
  };
}
