/**
 * A modal's form as Slack reports it: the page sends what the user typed or chose per field, and
 * this shapes it into `view.state.values` (`{ [blockId]: { [actionId]: { type, …value } } }`), finds
 * the required fields left empty (Slack's client refuses those before anything is sent), and the
 * conversation pickers that ask for a `response_url`.
 */

type Args = Record<string, unknown>;

/** One field as the page sends it: a text, one chosen value, chosen values, or nothing. */
export type FieldInput = string | string[] | null;
export type FormInputs = Record<string, Record<string, FieldInput>>;

export interface InputField {
  blockId: string;
  actionId: string;
  element: Args;
  optional: boolean;
}

const isObject = (value: unknown): value is Args =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Ids as the page and the fake name them when the app left them out (Slack would generate some). */
export const blockIdOf = (block: Args, index: number) =>
  typeof block.block_id === 'string' ? block.block_id : `block-${index}`;
export const actionIdOf = (element: Args, blockId: string) =>
  typeof element.action_id === 'string' ? element.action_id : `${blockId}-action`;

/** Every input block's element, in order. */
export function inputFields(view: Args): InputField[] {
  return listOf(view.blocks).flatMap((block, index) => {
    if (!isObject(block) || block.type !== 'input' || !isObject(block.element)) return [];
    const blockId = blockIdOf(block, index);
    return [
      {
        blockId,
        actionId: actionIdOf(block.element, blockId),
        element: block.element,
        optional: block.optional === true,
      },
    ];
  });
}

/** Every option of a select, checkbox group or radio group, groups included. */
function optionsOf(element: Args): Args[] {
  const grouped = listOf(element.option_groups).flatMap((group) =>
    isObject(group) ? listOf(group.options) : [],
  );
  return [...listOf(element.options), ...grouped].filter(isObject);
}

const single = (raw: FieldInput | undefined): string | null => {
  const value = Array.isArray(raw) ? raw[0] : raw;
  return typeof value === 'string' && value !== '' ? value : null;
};
const several = (raw: FieldInput | undefined): string[] =>
  (Array.isArray(raw) ? raw : [raw]).filter(
    (value): value is string => typeof value === 'string' && value !== '',
  );

/** The state key each picker reports its choice under. */
const PICKED: Record<string, string> = {
  datepicker: 'selected_date',
  timepicker: 'selected_time',
  conversations_select: 'selected_conversation',
  channels_select: 'selected_channel',
  users_select: 'selected_user',
  multi_conversations_select: 'selected_conversations',
  multi_channels_select: 'selected_channels',
  multi_users_select: 'selected_users',
};

/** One element's entry in `view.state.values`, from what the user typed or chose. */
export function fieldState(element: Args, raw: FieldInput | undefined): Args {
  const type = typeof element.type === 'string' ? element.type : 'plain_text_input';
  const option = (value: string) => optionsOf(element).find((candidate) => candidate.value === value);
  if (type === 'static_select' || type === 'radio_buttons') {
    const value = single(raw);
    return { type, selected_option: (value !== null && option(value)) || null };
  }
  if (type === 'multi_static_select' || type === 'checkboxes')
    return { type, selected_options: several(raw).flatMap((value) => option(value) ?? []) };
  const picked = PICKED[type];
  if (picked) return { type, [picked]: type.startsWith('multi_') ? several(raw) : single(raw) };
  return { type, value: single(raw) };
}

/** An `initial_*` value in the page's shape: a text or id, an option's value, or a list of either. */
function initialInput(element: Args): FieldInput | undefined {
  const initial = Object.entries(element).find(([key]) => key.startsWith('initial_'))?.[1];
  const valueOf = (item: unknown): string => {
    const value = isObject(item) ? item.value : item;
    return typeof value === 'string' ? value : '';
  };
  if (Array.isArray(initial)) return initial.map(valueOf);
  return initial === undefined ? undefined : valueOf(initial) || undefined;
}

/**
 * A submitted form as Slack reports it: the fields the user filled in (`inputs`), and every other
 * prefilled field at its `initial_*` value (Slack's state holds a field the user left as it was).
 */
export function withInitialValues(view: Args, inputs: FormInputs): FormInputs {
  const filled: FormInputs = { ...inputs };
  for (const { blockId, actionId, element } of inputFields(view)) {
    const initial = initialInput(element);
    if (initial === undefined || inputs[blockId]?.[actionId] !== undefined) continue;
    filled[blockId] = { ...filled[blockId], [actionId]: initial };
  }
  return filled;
}

/** `view.state.values` for the whole form; fields the page did not send are empty. */
export function stateValues(view: Args, inputs: FormInputs): Args {
  const values: Record<string, Args> = {};
  for (const field of inputFields(view)) {
    values[field.blockId] = {
      ...values[field.blockId],
      [field.actionId]: fieldState(field.element, inputs[field.blockId]?.[field.actionId]),
    };
  }
  return values;
}

const isEmpty = (state: unknown): boolean => {
  if (!isObject(state)) return true;
  return Object.entries(state).every(
    ([key, value]) => key === 'type' || value === null || (Array.isArray(value) && value.length === 0),
  );
};

/** Required fields left empty, by block id, with the words Slack's client shows under them. */
export function missingRequired(view: Args, values: Args): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of inputFields(view)) {
    if (field.optional) continue;
    const block = values[field.blockId];
    if (isEmpty(isObject(block) ? block[field.actionId] : undefined))
      errors[field.blockId] = 'Please complete this required field.';
  }
  return errors;
}

/** The conversation pickers with `response_url_enabled`, and the conversation chosen in each. */
export function responseUrlFields(
  view: Args,
  values: Args,
): { blockId: string; actionId: string; channelId: string }[] {
  return inputFields(view).flatMap((field) => {
    if (field.element.response_url_enabled !== true) return [];
    const block = values[field.blockId];
    const state = isObject(block) ? block[field.actionId] : undefined;
    const channelId = isObject(state) ? (state.selected_conversation ?? state.selected_channel) : undefined;
    return typeof channelId === 'string'
      ? [{ blockId: field.blockId, actionId: field.actionId, channelId }]
      : [];
  });
}
