// A modal's input blocks as form controls, and what the user entered in them (the drafts).

import { el } from './dom.js';
import { currentConversation, view } from './state.js';
import { textHtml } from './text.js';

// ---------- modal inputs ----------
//
// What the user types or picks is kept per view in `view.drafts`, so a re-render (a live update)
// never loses it; Submit sends it as { [blockId]: { [actionId]: text | value | values | null } } and
// the fake Slack shapes it into view.state.values.

export const optionsOf = (element) => [
  ...(element.options ?? []),
  ...(element.option_groups ?? []).flatMap((group) => group.options ?? []),
];
const optionText = (option) => option.text?.text ?? option.value;

/** The value an element starts with, in the page's shape. */
function initialValue(element) {
  const conversation = element.default_to_current_conversation ? currentConversation() : undefined;
  switch (element.type) {
    case 'static_select':
    case 'radio_buttons':
      return element.initial_option?.value ?? null;
    case 'multi_static_select':
    case 'checkboxes':
      return (element.initial_options ?? []).map((o) => o.value);
    case 'datepicker':
      return element.initial_date ?? null;
    case 'timepicker':
      return element.initial_time ?? null;
    case 'conversations_select':
      return element.initial_conversation ?? conversation ?? null;
    case 'channels_select':
      return element.initial_channel ?? conversation ?? null;
    case 'users_select':
      return element.initial_user ?? null;
    case 'multi_conversations_select':
      return element.initial_conversations ?? (conversation ? [conversation] : []);
    case 'multi_channels_select':
      return element.initial_channels ?? (conversation ? [conversation] : []);
    case 'multi_users_select':
      return element.initial_users ?? [];
    default:
      return element.initial_value ?? null;
  }
}

/** The form's fields, by block and action id, as the drafts hold them (initial values first). */
export function formInputs(fakeView) {
  const drafts = (view.drafts[fakeView.id] ??= {});
  (fakeView.view.blocks ?? []).forEach((block, index) => {
    if (block.type !== 'input' || !block.element) return;
    const blockId = block.block_id ?? `block-${index}`;
    const actionId = block.element.action_id ?? `${blockId}-action`;
    drafts[blockId] ??= {};
    if (!(actionId in drafts[blockId])) drafts[blockId][actionId] = initialValue(block.element);
  });
  return drafts;
}

/** The choices of a conversation, channel or user picker: the fake's channels or members. */
function pickerOptions(type) {
  if (type.includes('users')) return view.state.users.map((u) => ({ value: u.id, text: u.name }));
  return view.state.channels.map((c) => ({ value: c.id, text: `# ${c.name}` }));
}

function selectControl(id, element, value, multiple) {
  const picker = /conversations|channels|users/.test(element.type);
  const choices = picker
    ? pickerOptions(element.type)
    : optionsOf(element).map((o) => ({ value: o.value, text: optionText(o) }));
  const select = el('select', { id, multiple }, [
    multiple ? null : el('option', { value: '', text: element.placeholder?.text ?? 'Choose an option' }),
    ...choices.map((c) => el('option', { value: c.value, text: c.text })),
  ]);
  const chosen = [value ?? []].flat();
  for (const option of select.options) option.selected = chosen.includes(option.value) && option.value !== '';
  if (!multiple) select.value = value ?? '';
  return select;
}

/** One input element as a form control; `set` records what the user enters. */
function inputControl(id, element, value, set) {
  const type = element.type;
  const textTypes = {
    plain_text_input: 'text',
    email_text_input: 'email',
    url_text_input: 'url',
    number_input: 'number',
  };
  if (textTypes[type]) {
    const attributes = {
      id,
      placeholder: element.placeholder?.text,
      maxlength: element.max_length,
      minlength: element.min_length,
    };
    const control = element.multiline
      ? el('textarea', { ...attributes, rows: 4 })
      : el('input', { ...attributes, type: textTypes[type] });
    control.value = value ?? '';
    control.addEventListener('input', () => set(control.value || null));
    return control;
  }
  if (type === 'datepicker' || type === 'timepicker') {
    const control = el('input', { id, type: type === 'datepicker' ? 'date' : 'time' });
    control.value = value ?? '';
    control.addEventListener('input', () => set(control.value || null));
    return control;
  }
  if (type === 'checkboxes' || type === 'radio_buttons') return choiceGroup(id, element, value, set);
  if (type.endsWith('select')) {
    const multiple = type.startsWith('multi_');
    const select = selectControl(id, element, value, multiple);
    select.addEventListener('change', () =>
      set(multiple ? [...select.selectedOptions].map((o) => o.value) : select.value || null),
    );
    return select;
  }
  return el('span', { class: 'unknown-block', text: `[unsupported element: ${type}]` });
}

function choiceGroup(id, element, value, set) {
  const multiple = element.type === 'checkboxes';
  const chosen = new Set([value ?? []].flat());
  const boxes = optionsOf(element).map((option, index) => {
    const box = el('input', {
      type: multiple ? 'checkbox' : 'radio',
      name: id,
      value: option.value,
      id: `${id}-${index}`,
    });
    box.checked = chosen.has(option.value);
    box.addEventListener('change', () => {
      const checked = [...group.querySelectorAll('input:checked')].map((b) => b.value);
      set(multiple ? checked : (checked[0] ?? null));
    });
    return el('label', { class: 'choice', for: `${id}-${index}` }, [
      box,
      el('span', { html: textHtml(option.text) }),
      option.description ? el('span', { class: 'help-summary', html: textHtml(option.description) }) : null,
    ]);
  });
  const group = el('div', { class: 'choices', role: multiple ? 'group' : 'radiogroup' }, boxes);
  return group;
}

export function renderInput(fakeView, block, index) {
  const element = block.element ?? {};
  const blockId = block.block_id ?? `block-${index}`;
  const actionId = element.action_id ?? `${blockId}-action`;
  const drafts = formInputs(fakeView);
  const id = `field-${fakeView.id}-${blockId}-${actionId}`.replace(/[^\w-]/g, '_');
  const control = inputControl(id, element, drafts[blockId][actionId], (value) => {
    drafts[blockId][actionId] = value;
  });
  const grouped = element.type === 'checkboxes' || element.type === 'radio_buttons';
  if (grouped) control.setAttribute('aria-labelledby', `${id}-label`);
  const error = fakeView.errors?.[blockId];
  return el('div', { class: `block block-input${error ? ' has-error' : ''}`, 'data-block-id': blockId }, [
    el(
      grouped ? 'div' : 'label',
      { class: 'input-label', id: `${id}-label`, for: grouped ? undefined : id },
      [
        el('span', { html: textHtml(block.label) }),
        block.optional ? el('span', { class: 'optional', text: ' (optional)' }) : null,
      ],
    ),
    control,
    block.hint ? el('div', { class: 'input-hint', html: textHtml(block.hint) }) : null,
    error ? el('div', { class: 'field-error', role: 'alert', text: error }) : null,
  ]);
}
