/**
 * Checks messages, modals and Home tabs against the Block Kit limits Slack enforces, so the fake
 * Slack (and the dev page) can warn where real Slack would reject the payload with `invalid_blocks`
 * or `invalid_arguments`.
 */
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;
const textOf = (value: unknown): string =>
  isObject(value) && typeof value.text === 'string' ? value.text : '';
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The elements an input block may hold (Slack's "Works with: input" lists). */
const INPUT_ELEMENTS = new Set([
  'plain_text_input',
  'email_text_input',
  'url_text_input',
  'number_input',
  'rich_text_input',
  'file_input',
  'checkboxes',
  'radio_buttons',
  'static_select',
  'external_select',
  'users_select',
  'conversations_select',
  'channels_select',
  'multi_static_select',
  'multi_external_select',
  'multi_users_select',
  'multi_conversations_select',
  'multi_channels_select',
  'datepicker',
  'timepicker',
  'datetimepicker',
]);

/** Most options an element may offer: selects 100, checkboxes and radio buttons 10, overflow 5. */
const MAX_OPTIONS: Record<string, number> = {
  static_select: 100,
  multi_static_select: 100,
  checkboxes: 10,
  radio_buttons: 10,
  overflow: 5,
};

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

function optionViolations(element: Json, where: string): string[] {
  const type = String(element.type);
  const max = MAX_OPTIONS[type];
  if (max === undefined) return [];
  const problems: string[] = [];
  const groups = listOf(element.option_groups);
  const options = [
    ...listOf(element.options),
    ...groups.flatMap((group) => listOf(isObject(group) ? group.options : [])),
  ];
  if (options.length === 0) problems.push(`${where}: ${type} needs options`);
  if (listOf(element.options).length > max)
    problems.push(`${where}: ${type} has ${listOf(element.options).length} options (max ${max})`);
  if (groups.length > 100) problems.push(`${where}: ${groups.length} option groups (max 100)`);
  for (const group of groups)
    if (isObject(group) && listOf(group.options).length > 100)
      problems.push(`${where}: an option group has ${listOf(group.options).length} options (max 100)`);
  const plainOnly = type.endsWith('select') || type === 'overflow';
  for (const option of options) {
    if (!isObject(option)) continue;
    if (textOf(option.text).length > 75) problems.push(`${where}: option text over 75`);
    if (typeof option.value === 'string' && option.value.length > 150)
      problems.push(`${where}: option value over 150`);
    if (plainOnly && isObject(option.text) && option.text.type !== 'plain_text')
      problems.push(`${where}: ${type} option text must be plain_text`);
  }
  return problems;
}

/** One interactive element's limits, wherever it sits (actions, accessory, input). */
export function elementViolations(element: unknown, where: string): string[] {
  if (!isObject(element) || typeof element.type !== 'string') return [`${where}: not an element`];
  const problems = optionViolations(element, where);
  const type = element.type;
  if (typeof element.action_id === 'string' && element.action_id.length > 255)
    problems.push(`${where}: action_id over 255`);
  if (textOf(element.placeholder).length > 150) problems.push(`${where}: placeholder over 150`);
  if (type === 'button') {
    if (textOf(element.text).length > 75) problems.push(`${where}: button text over 75`);
    if (typeof element.value === 'string' && element.value.length > 2000)
      problems.push(`${where}: button value over 2000`);
  }
  if (
    type === 'datepicker' &&
    element.initial_date !== undefined &&
    !(typeof element.initial_date === 'string' && DATE.test(element.initial_date))
  )
    problems.push(`${where}: datepicker initial_date must be YYYY-MM-DD`);
  if (
    type === 'timepicker' &&
    element.initial_time !== undefined &&
    !(typeof element.initial_time === 'string' && TIME.test(element.initial_time))
  )
    problems.push(`${where}: timepicker initial_time must be HH:mm`);
  if (type === 'plain_text_input') {
    const max = typeof element.max_length === 'number' ? element.max_length : 3000;
    const min = typeof element.min_length === 'number' ? element.min_length : 0;
    if (max > 3000 || min > 3000) problems.push(`${where}: plain_text_input lengths over 3000`);
    if (min > max) problems.push(`${where}: plain_text_input min_length over max_length`);
    if (typeof element.initial_value === 'string' && element.initial_value.length > max)
      problems.push(`${where}: initial_value longer than max_length`);
  }
  return problems;
}

function sectionViolations(block: Json, where: string): string[] {
  const problems: string[] = [];
  if (!block.text && !block.fields) problems.push(`${where}: section needs text or fields`);
  if (textOf(block.text).length > 3000) problems.push(`${where}: section text over 3000`);
  const fields = listOf(block.fields);
  if (fields.length > 10) problems.push(`${where}: ${fields.length} fields (max 10)`);
  if (fields.some((field) => textOf(field).length > 2000)) problems.push(`${where}: field text over 2000`);
  if (block.accessory !== undefined) problems.push(...elementViolations(block.accessory, where));
  return problems;
}

function actionsViolations(block: Json, where: string): string[] {
  const problems: string[] = [];
  const elements = listOf(block.elements);
  // action_id must be unique within its block.
  const actionIds = new Set<string>();
  if (elements.length === 0 || elements.length > 25) problems.push(`${where}: actions needs 1-25 elements`);
  for (const element of elements) {
    problems.push(...elementViolations(element, where));
    if (!isObject(element) || typeof element.action_id !== 'string') continue;
    if (actionIds.has(element.action_id)) problems.push(`${where}: duplicate action_id ${element.action_id}`);
    actionIds.add(element.action_id);
  }
  return problems;
}

function blockViolations(block: Json, where: string): string[] {
  if (block.type === 'header' && textOf(block.text).length > 150) return [`${where}: header text over 150`];
  if (block.type === 'section') return sectionViolations(block, where);
  if (block.type === 'actions') return actionsViolations(block, where);
  if (block.type === 'context') {
    const elements = listOf(block.elements);
    if (elements.length === 0 || elements.length > 10) return [`${where}: context needs 1-10 elements`];
  }
  return [];
}

export function blockKitViolations(text: string, blocks: unknown[], maxBlocks = 50): string[] {
  const problems: string[] = [];
  if (!text && blocks.length === 0) problems.push('message has neither text nor blocks');
  if (blocks.length > 0 && !text) problems.push('message has blocks but no fallback text');
  if (blocks.length > maxBlocks) problems.push(`${blocks.length} blocks (max ${maxBlocks})`);
  const blockIds = new Set<string>();
  blocks.forEach((block, index) => {
    const where = `block ${index + 1}`;
    if (!isObject(block) || typeof block.type !== 'string') {
      problems.push(`${where}: not a block`);
      return;
    }
    if (typeof block.block_id === 'string') {
      if (block.block_id.length > 255) problems.push(`${where}: block_id over 255`);
      if (blockIds.has(block.block_id)) problems.push(`${where}: duplicate block_id ${block.block_id}`);
      blockIds.add(block.block_id);
    }
    problems.push(...blockViolations(block, where));
  });
  return problems;
}

function inputViolations(block: Json, where: string): string[] {
  const problems: string[] = [];
  if (!textOf(block.label)) problems.push(`${where}: input needs a label`);
  if (isObject(block.label) && block.label.type !== 'plain_text')
    problems.push(`${where}: input label must be plain_text`);
  if (textOf(block.label).length > 2000) problems.push(`${where}: input label over 2000`);
  if (textOf(block.hint).length > 2000) problems.push(`${where}: input hint over 2000`);
  if (!isObject(block.element)) return [...problems, `${where}: input needs an element`];
  const type = String(block.element.type);
  if (!INPUT_ELEMENTS.has(type)) problems.push(`${where}: ${type} cannot be in an input block`);
  return [...problems, ...elementViolations(block.element, where)];
}

/** A modal's title, submit and close: plain_text, at most 24 characters; a title is required. */
function modalViolations(view: Json, blocks: unknown[]): string[] {
  const problems: string[] = [];
  if (view.type !== 'modal') problems.push('view type must be "modal"');
  if (!textOf(view.title)) problems.push('modal needs a title');
  for (const part of ['title', 'submit', 'close'] as const) {
    if (view[part] === undefined) continue;
    if (!isObject(view[part]) || view[part].type !== 'plain_text')
      problems.push(`modal ${part} must be plain_text`);
    if (textOf(view[part]).length > 24) problems.push(`modal ${part} over 24`);
  }
  const hasInput = blocks.some((block) => isObject(block) && block.type === 'input');
  if (hasInput && !view.submit) problems.push('modal with inputs needs a submit button');
  return problems;
}

/** A modal's or Home tab's limits (Slack answers `invalid_arguments` or `invalid_blocks` otherwise). */
export function viewViolations(type: 'modal' | 'home', view: Json): string[] {
  const problems: string[] = [];
  const blocks = listOf(view.blocks);
  if (typeof view.private_metadata === 'string' && view.private_metadata.length > 3000)
    problems.push('private_metadata over 3000');
  if (typeof view.callback_id === 'string' && view.callback_id.length > 255)
    problems.push('callback_id over 255');
  if (type === 'modal') problems.push(...modalViolations(view, blocks));
  blocks.forEach((block, index) => {
    if (isObject(block) && block.type === 'input')
      problems.push(...inputViolations(block, `block ${index + 1}`));
  });
  // Everything but the view-only checks is as for messages (a view has no fallback text).
  return [...problems, ...blockKitViolations('view', blocks, 100)];
}
