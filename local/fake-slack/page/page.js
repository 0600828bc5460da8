// The local Slack page: a view of the fake Slack's state (GET /local/state, live over
// /local/events), a composer that sends signed slash commands (or posts messages, whose links the
// app may unfurl), buttons that send signed block_actions, the app's Home tab, its modals, and its
// shortcuts (the ⚡ menu and each message's ⋯), files, and canvases as channel tabs. Plain DOM, no
// build step.

import { canvasDocument } from '/canvas.js';

const $ = (id) => document.getElementById(id);

const view = {
  user: localStorage.getItem('localSlack.user'),
  channel: localStorage.getItem('localSlack.channel'),
  /** On the app: its Home tab, or its Messages (the DM). */
  appTab: localStorage.getItem('localSlack.appTab') === 'messages' ? 'messages' : 'home',
  /** The last GET /local/state answer. */
  state: undefined,
  /** What the user has entered in each modal, by view id, block id and action id. */
  drafts: {},
  /** What the modal and the Home tab were last drawn from (redrawn only when it changes). */
  modalKey: undefined,
  homeKey: undefined,
  helpItems: [],
  helpActive: 0,
  /** Each channel's open tab: its messages, or one of its canvases (by id). */
  channelTabs: {},
  /** After the user acts: until when their answer is awaited, and the messages as they were. */
  awaiting: undefined,
};

// ---------- text ----------

const escapeHtml = (text) =>
  String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );
const decodeEntities = (text) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

const EMOJI = {
  credit_card: '💳',
  email: '📧',
  hourglass: '⌛',
  hourglass_flowing_sand: '⏳',
  information_source: 'ℹ️',
  large_green_circle: '🟢',
  large_yellow_circle: '🟡',
  red_circle: '🔴',
  lock: '🔒',
  unlock: '🔓',
  newspaper: '📰',
  no_entry_sign: '🚫',
  star: '⭐',
  warning: '⚠️',
  wave: '👋',
  white_check_mark: '✅',
  x: '❌',
  calendar: '📅',
  phone: '📞',
  mag: '🔍',
  tada: '🎉',
  page_facing_up: '📄',
  double_vertical_bar: '⏸️',
  telephone_receiver: '📞',
  memo: '📝',
  bar_chart: '📊',
};
const emojify = (html) => html.replace(/:([a-z0-9_+-]+):/g, (all, name) => EMOJI[name] ?? all);

const nameOf = (userId) => {
  const state = view.state;
  if (!state) return userId;
  if (userId === state.botUserId) return 'eventbot';
  if (userId === 'USLACKBOT') return 'Slackbot';
  return state.users.find((u) => u.id === userId)?.name ?? userId;
};

const pad = (n) => String(n).padStart(2, '0');
/** `<!date^epoch^format|fallback>` as Slack renders it, in the browser's time zone. */
function slackDate(epoch, format) {
  const date = new Date(Number(epoch) * 1000);
  if (Number.isNaN(date.getTime())) return undefined;
  const long = { year: 'numeric', month: 'long', day: 'numeric' };
  const tokens = {
    date_num: `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`,
    date: date.toLocaleDateString('en-US', long),
    date_pretty: date.toLocaleDateString('en-US', long),
    date_short: date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' }),
    date_short_pretty: date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' }),
    date_long: date.toLocaleDateString('en-US', { weekday: 'long', ...long }),
    date_long_pretty: date.toLocaleDateString('en-US', { weekday: 'long', ...long }),
    time: date.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' }),
    time_secs: date.toLocaleTimeString('en-US'),
  };
  return format.replace(/\{(\w+)\}/g, (all, token) => tokens[token] ?? all);
}

/** One `<…>` token: a mention, a channel, a date, a special mention, or a link. */
function renderToken(inner) {
  const [target, label] = splitOnce(inner, '|');
  if (target.startsWith('@')) return `<span class="mention">@${escapeHtml(nameOf(target.slice(1)))}</span>`;
  if (target.startsWith('#'))
    return `<span class="mention">#${escapeHtml(label ?? channelName(target.slice(1)))}</span>`;
  if (target.startsWith('!date^')) {
    const [, epoch, format] = target.split('^');
    return escapeHtml(slackDate(epoch, format ?? '{date}') ?? decodeEntities(label ?? ''));
  }
  if (target.startsWith('!'))
    return `<span class="mention">@${escapeHtml(target.slice(1).split('^')[0])}</span>`;
  const href = decodeEntities(target);
  if (!/^(https?:|mailto:)/.test(href)) return escapeHtml(decodeEntities(label ?? target));
  return `<a href="${escapeHtml(href)}" target="_blank" rel="noreferrer">${escapeHtml(decodeEntities(label ?? href.replace(/^mailto:/, '')))}</a>`;
}

function splitOnce(text, separator) {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/** Slack mrkdwn to HTML: code, tokens, bold, italic, strike, quotes, emoji, line breaks. */
function mrkdwn(text) {
  const held = [];
  const hold = (html) => `\uE000${held.push(html) - 1}\uE001`;
  let out = String(text ?? '');
  out = out.replace(/```([\s\S]*?)```/g, (_, code) =>
    hold(`<pre class="code">${escapeHtml(decodeEntities(code))}</pre>`),
  );
  out = out.replace(/`([^`\n]+)`/g, (_, code) => hold(`<code>${escapeHtml(decodeEntities(code))}</code>`));
  out = out.replace(/<([^<>\n]+)>/g, (_, inner) => hold(renderToken(inner)));
  out = escapeHtml(decodeEntities(out));
  out = out.replace(/(^|[^\w*])\*([^*\n]+)\*(?![\w*])/g, '$1<b>$2</b>');
  out = out.replace(/(^|[^\w])_([^_\n]+)_(?!\w)/g, '$1<i>$2</i>');
  out = out.replace(/(^|[^\w])~([^~\n]+)~(?!\w)/g, '$1<s>$2</s>');
  out = out.replace(/^&gt; ?(.*)$/gm, '<blockquote>$1</blockquote>');
  out = emojify(out).replace(/\n/g, '<br>');
  return out.replace(/\uE000(\d+)\uE001/g, (_, index) => held[Number(index)]);
}

/** A text object: `plain_text` is shown as is (with emoji), `mrkdwn` is formatted. */
const textHtml = (object) => {
  if (!object || typeof object.text !== 'string') return '';
  return object.type === 'mrkdwn' ? mrkdwn(object.text) : emojify(escapeHtml(object.text));
};

// ---------- DOM helpers ----------

function el(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name === 'html') node.innerHTML = value;
    else if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of [children].flat()) if (child) node.append(child);
  return node;
}

const channelName = (id) => view.state?.channels.find((c) => c.id === id)?.name ?? id;

// ---------- blocks ----------
//
// Blocks render against a surface: a message, an unfurl of a link in a message, or a view (a modal or
// the Home tab). The surface says what a button click sends: a message's block_actions, or a view's.

/** A message's surface: its buttons are clicked through POST /local/click. */
const messageSurface = (message, unfurlUrl) => ({
  click: (element, blockId) => {
    awaitAnswer();
    return postJson('/local/click', {
      user: view.user,
      channel: message.channel,
      ts: message.ts,
      actionId: element.action_id,
      blockId,
      ...(unfurlUrl ? { unfurlUrl } : {}),
    });
  },
});

/** A view's surface: clicks and choices are block_actions with the form's current values. */
const viewSurface = (fakeView) => ({
  view: fakeView,
  click: (element, blockId, action) =>
    postJson('/local/view/click', {
      user: view.user,
      viewId: fakeView.id,
      actionId: element.action_id,
      blockId,
      ...(action ? { action } : {}),
      inputs: fakeView.type === 'modal' ? formInputs(fakeView) : {},
    }),
});

function renderBlock(surface, block, index) {
  const blockId = block.block_id ?? `block-${index}`;
  switch (block.type) {
    case 'header':
      return el('div', { class: 'block block-header', html: textHtml(block.text) });
    case 'section': {
      const main = el('div', { class: 'section-main' }, [
        block.text ? el('div', { class: 'section-text', html: textHtml(block.text) }) : null,
        Array.isArray(block.fields)
          ? el(
              'div',
              { class: 'fields' },
              block.fields.map((field) => el('div', { class: 'field', html: textHtml(field) })),
            )
          : null,
      ]);
      return el('div', { class: 'block block-section' }, [main, renderAccessory(surface, block, blockId)]);
    }
    case 'context':
      return el(
        'div',
        { class: 'block block-context' },
        (block.elements ?? []).map((element) =>
          element.type === 'image'
            ? el('img', { src: element.image_url, alt: element.alt_text ?? '' })
            : el('span', { html: textHtml(element) }),
        ),
      );
    case 'divider':
      return el('hr', { class: 'block block-divider' });
    case 'image':
      return el('figure', { class: 'block block-image' }, [
        block.title ? el('figcaption', { html: textHtml(block.title) }) : null,
        el('img', { src: block.image_url, alt: block.alt_text ?? '' }),
      ]);
    case 'actions':
      return el(
        'div',
        { class: 'block block-actions' },
        (block.elements ?? []).map((element) => renderElement(surface, element, blockId)),
      );
    case 'input':
      return surface.view ? renderInput(surface.view, block, index) : unsupported(block.type);
    default:
      return unsupported(block.type);
  }
}

const unsupported = (type) =>
  el('div', { class: 'block unknown-block', text: `[unsupported block: ${type}]` });

/** An interactive element outside an input block: a button, or (in a view) a select that acts at once. */
function renderElement(surface, element, blockId) {
  if (element.type === 'button') return renderButton(surface, element, blockId);
  if (surface.view && element.type === 'static_select') {
    const select = el(
      'select',
      { class: 'slack-select', 'aria-label': element.placeholder?.text ?? 'Choose' },
      [
        el('option', { value: '', text: element.placeholder?.text ?? 'Choose…' }),
        ...optionsOf(element).map((o) => el('option', { value: o.value, text: o.text?.text ?? o.value })),
      ],
    );
    select.value = element.initial_option?.value ?? '';
    select.addEventListener('change', () => {
      const chosen = optionsOf(element).find((o) => o.value === select.value) ?? null;
      const action = {
        type: 'static_select',
        action_id: element.action_id,
        block_id: blockId,
        selected_option: chosen,
      };
      surface.click(element, blockId, action);
    });
    return select;
  }
  return el('span', { class: 'unknown-block', text: `[${element.type}]` });
}

function renderAccessory(surface, block, blockId) {
  const accessory = block.accessory;
  if (!accessory) return null;
  if (accessory.type === 'image')
    return el('img', { class: 'accessory-image', src: accessory.image_url, alt: accessory.alt_text ?? '' });
  return renderElement(surface, accessory, blockId);
}

function renderButton(surface, element, blockId) {
  const button = el('button', {
    type: 'button',
    class: `slack-button ${element.style ?? ''}`.trim(),
    'data-action-id': element.action_id,
    html: textHtml(element.text),
  });
  button.addEventListener('click', async () => {
    if (element.url) window.open(element.url, '_blank', 'noreferrer');
    if (element.confirm && !(await confirmDialog(element.confirm))) return;
    button.disabled = true;
    try {
      const answer = await surface.click(element, blockId);
      if (!answer.ok) showJobResult('click', answer.error);
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

/** Slack's confirmation dialog: resolves true only when the user presses its confirm button. */
function confirmDialog(confirm) {
  const dialog = $('confirm-dialog');
  $('confirm-title').innerHTML = textHtml(confirm.title) || 'Are you sure?';
  $('confirm-text').innerHTML = textHtml(confirm.text);
  $('confirm-accept').innerHTML = textHtml(confirm.confirm) || 'Yes';
  $('confirm-deny').innerHTML = textHtml(confirm.deny) || 'Cancel';
  $('confirm-accept').className = confirm.style === 'danger' ? 'danger' : 'primary';
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'accept'), { once: true });
  });
}

const warningsBox = (warnings) =>
  warnings?.length
    ? el('div', { class: 'warnings', role: 'alert' }, [
        el('b', { text: '⚠ Block Kit: ' }),
        el('span', { text: warnings.join('; ') }),
      ])
    : null;

// ---------- modal inputs ----------
//
// What the user types or picks is kept per view in `view.drafts`, so a re-render (a live update)
// never loses it; Submit sends it as { [blockId]: { [actionId]: text | value | values | null } } and
// the fake Slack shapes it into view.state.values.

const optionsOf = (element) => [
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
function formInputs(fakeView) {
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

function renderInput(fakeView, block, index) {
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

// ---------- modals and the Home tab ----------

/** The modal on top of the user's stack, drawn over everything; re-drawn only when it changes. */
function renderModal() {
  const layer = $('modal-layer');
  const modal = view.state.modal;
  const key = modal ? JSON.stringify([modal.id, modal.hash, modal.errors, modal.warnings, view.user]) : '';
  if (key === view.modalKey) return;
  view.modalKey = key;
  layer.hidden = !modal;
  if (!modal) {
    layer.replaceChildren();
    return;
  }
  const surface = viewSurface(modal);
  const spec = modal.view;
  const form = el(
    'form',
    {
      class: 'modal',
      role: 'dialog',
      'aria-modal': 'true',
      'aria-labelledby': 'modal-title',
      'data-view-id': modal.id,
    },
    [
      el('header', { class: 'modal-header' }, [
        el('h2', { id: 'modal-title', html: textHtml(spec.title) }),
        el('button', {
          type: 'button',
          class: 'modal-x',
          'aria-label': 'Close modal',
          text: '✕',
          onclick: closeModal,
        }),
      ]),
      el('div', { class: 'modal-body' }, [
        warningsBox(modal.warnings),
        ...(spec.blocks ?? []).map((block, index) => renderBlock(surface, block, index)),
      ]),
      el('footer', { class: 'modal-footer' }, [
        el('button', {
          type: 'button',
          class: 'slack-button',
          html: textHtml(spec.close) || 'Cancel',
          onclick: closeModal,
        }),
        spec.submit
          ? el('button', { type: 'submit', class: 'slack-button primary', html: textHtml(spec.submit) })
          : null,
      ]),
    ],
  );
  form.addEventListener('submit', (event) => submitModal(event, modal));
  layer.replaceChildren(form);
}

async function submitModal(event, modal) {
  event.preventDefault();
  const submit = event.target.querySelector('button[type="submit"]');
  if (submit) submit.disabled = true;
  try {
    awaitAnswer();
    const answer = await postJson('/local/view/submit', { user: view.user, inputs: formInputs(modal) });
    if (!answer.ok) showJobResult('submit', answer.error);
  } finally {
    if (submit) submit.disabled = false;
  }
}

async function closeModal() {
  await postJson('/local/view/close', { user: view.user });
}

/** The app's Home tab for the current user, as it last published it. */
function renderHome() {
  const home = view.state.home;
  const key = home ? JSON.stringify([home.id, home.hash, home.warnings]) : 'none';
  if (key === view.homeKey && $('home').childElementCount > 0) return;
  view.homeKey = key;
  if (!home) {
    $('home').replaceChildren(
      el('div', { class: 'empty', text: 'The app has not published a Home tab for you yet.' }),
    );
    return;
  }
  const surface = viewSurface(home);
  $('home').replaceChildren(
    el('div', { class: 'home-view', 'data-view-id': home.id }, [
      warningsBox(home.warnings),
      ...(home.view.blocks ?? []).map((block, index) => renderBlock(surface, block, index)),
    ]),
  );
}

// ---------- menus: shortcuts and message actions ----------

function openMenu(anchor, items) {
  const menu = $('menu');
  menu.replaceChildren(
    ...(items.length === 0
      ? [el('div', { class: 'menu-empty', text: 'No shortcuts' })]
      : items.map((item) =>
          el('button', {
            type: 'button',
            role: 'menuitem',
            text: item.label,
            onclick: () => {
              closeMenu();
              item.run();
            },
          }),
        )),
  );
  const box = anchor.getBoundingClientRect();
  menu.hidden = false;
  menu.style.left = `${Math.max(8, Math.min(box.left, window.innerWidth - menu.offsetWidth - 8))}px`;
  const above = box.top - menu.offsetHeight - 4;
  menu.style.top = `${above > 8 ? above : box.bottom + 4}px`;
}

function closeMenu() {
  $('menu').hidden = true;
}

async function runShortcut(callbackId, message) {
  awaitAnswer();
  const answer = await postJson('/local/shortcut', {
    user: view.user,
    callbackId,
    ...(message ? { channel: message.channel, ts: message.ts } : {}),
  });
  if (!answer.ok) showJobResult('shortcut', answer.error);
  else if (answer.status !== 200) showJobResult('shortcut', `the app answered HTTP ${answer.status}`);
}

const shortcutsOf = (type) => (view.state?.shortcuts ?? []).filter((s) => s.type === type);

function openGlobalShortcuts(event) {
  event.stopPropagation();
  openMenu(
    event.currentTarget,
    shortcutsOf('global').map((s) => ({ label: s.name, run: () => runShortcut(s.callbackId) })),
  );
}

function messageActions(message) {
  const shortcuts = shortcutsOf('message');
  if (shortcuts.length === 0) return null;
  return el('button', {
    type: 'button',
    class: 'message-actions',
    'aria-label': 'More actions',
    title: 'More actions',
    text: '⋯',
    onclick: (event) => {
      event.stopPropagation();
      openMenu(
        event.currentTarget,
        shortcuts.map((s) => ({ label: s.name, run: () => runShortcut(s.callbackId, message) })),
      );
    },
  });
}

// ---------- messages ----------

function renderUnfurl(message, unfurl) {
  const surface = messageSurface(message, unfurl.url);
  let host = unfurl.url;
  try {
    host = new URL(unfurl.url).hostname;
  } catch {
    // shown as sent
  }
  return el('div', { class: 'unfurl', 'data-url': unfurl.url }, [
    el('div', { class: 'unfurl-source', text: host }),
    warningsBox(unfurl.warnings),
    ...(unfurl.blocks.length > 0
      ? unfurl.blocks.map((block, index) => renderBlock(surface, block, index))
      : [el('div', { class: 'message-text', html: mrkdwn(unfurl.text) })]),
  ]);
}

const fileSize = (bytes) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1048576).toFixed(1)} MB`;

/** A shared file as Slack shows it: its kind, title (opens it), name and size, and a download link. */
function renderFile(file) {
  const kind = (file.name.split('.').pop() ?? '').toUpperCase().slice(0, 4) || 'FILE';
  return el('div', { class: 'file', 'data-file-id': file.id }, [
    el('span', { class: 'file-kind', 'aria-hidden': 'true', text: kind }),
    el('div', { class: 'file-info' }, [
      el('a', { class: 'file-title', href: file.url, target: '_blank', rel: 'noreferrer', text: file.title }),
      el('div', { class: 'file-meta' }, [
        el('span', { class: 'file-name', text: file.name }),
        ' · ',
        el('span', { class: 'file-size', text: fileSize(file.size) }),
      ]),
    ]),
    el('a', {
      class: 'file-download',
      href: `${file.url}?download`,
      download: file.name,
      text: 'Download',
      'aria-label': `Download ${file.name}`,
    }),
  ]);
}

function renderMessage(message, replies = []) {
  const isBot = message.user === view.state.botUserId;
  const isSlackbot = message.user === 'USLACKBOT';
  const name = nameOf(message.user);
  const meta = el('div', { class: 'meta' }, [
    el('span', { class: 'name', text: name }),
    isBot ? el('span', { class: 'badge', text: 'APP' }) : null,
    message.edited ? el('span', { class: 'edited', text: '(edited)' }) : null,
    message.visibleTo ? el('span', { class: 'only-you', text: 'Only visible to you' }) : null,
  ]);
  const body = el('div', { class: 'body' }, [meta, warningsBox(message.warnings)]);
  if (Array.isArray(message.blocks) && message.blocks.length > 0) {
    const surface = messageSurface(message);
    message.blocks.forEach((block, index) => {
      body.append(renderBlock(surface, block, index));
    });
  } else {
    body.append(el('div', { class: 'message-text', html: mrkdwn(message.text) }));
  }
  for (const file of message.files ?? []) body.append(renderFile(file));
  for (const unfurl of view.state.unfurls.filter((u) => u.channel === message.channel && u.ts === message.ts))
    body.append(renderUnfurl(message, unfurl));
  if (replies.length > 0) {
    body.append(
      el('div', { class: 'thread' }, [
        el('div', {
          class: 'thread-count',
          text: `${replies.length} ${replies.length === 1 ? 'reply' : 'replies'}`,
        }),
        ...replies.map((reply) => renderMessage(reply)),
      ]),
    );
  }
  const avatarClass = `avatar${isBot ? ' bot' : ''}${isSlackbot ? ' slackbot' : ''}`;
  return el(
    'div',
    {
      class: `message${message.visibleTo ? ' ephemeral' : ''}`,
      'data-ts': message.ts,
      'data-thread-ts': message.threadTs,
    },
    [el('div', { class: avatarClass, text: name.slice(0, 1).toUpperCase() }), body, messageActions(message)],
  );
}

/** The current channel's canvases (the app keeps the channel's plan in one), each a tab beside Messages. */
const canvasesHere = () => {
  const conversation = currentConversation();
  return (view.state.canvases ?? []).filter((c) => c.channel === conversation);
};

/** The open canvas of the current channel, when a canvas tab is chosen and the canvas still exists. */
const openCanvas = () => {
  if (onApp()) return undefined;
  const chosen = view.channelTabs[view.channel];
  return canvasesHere().find((canvas) => canvas.id === chosen);
};

function renderChannelTabs() {
  const canvases = onApp() ? [] : canvasesHere();
  const open = openCanvas();
  const tab = (label, id, selected) =>
    el('button', {
      type: 'button',
      role: 'tab',
      'data-tab': id ? 'canvas' : 'messages',
      'data-canvas-id': id,
      'aria-selected': String(selected),
      text: label,
      onclick: () => {
        view.channelTabs[view.channel] = id;
        render();
      },
    });
  $('channel-tabs').hidden = canvases.length === 0;
  $('channel-tabs').replaceChildren(
    tab('Messages', undefined, !open),
    ...canvases.map((canvas) => tab(`📄 ${canvas.title}`, canvas.id, canvas.id === open?.id)),
  );
}

/** The open canvas drawn as a document (redrawn only when it changed, so a reader's scroll stays). */
function renderCanvas(canvas) {
  const key = JSON.stringify([canvas.id, canvas.title, canvas.markdown]);
  if ($('canvas').dataset.key === key) return;
  $('canvas').dataset.key = key;
  $('canvas').replaceChildren(
    el('article', { class: 'canvas-doc', 'data-canvas-id': canvas.id }, [
      el('h1', { class: 'canvas-title', text: canvas.title }),
      ...canvasDocument(canvas.markdown),
    ]),
  );
}

function renderTimeline() {
  const timeline = $('timeline');
  const nearBottom = timeline.scrollHeight - timeline.scrollTop - timeline.clientHeight < 80;
  const conversation = currentConversation();
  const messages = view.state.messages.filter((m) => m.channel === conversation);
  const shown = new Set(messages.map((m) => m.ts));
  const replies = new Map();
  const top = [];
  for (const message of messages) {
    const parent = message.threadTs && message.threadTs !== message.ts ? message.threadTs : undefined;
    if (parent && shown.has(parent)) replies.set(parent, [...(replies.get(parent) ?? []), message]);
    else top.push(message);
  }
  timeline.replaceChildren(
    ...(top.length === 0
      ? [el('div', { class: 'empty', text: 'No messages yet. Try /events help or /events fit 26855.' })]
      : top.map((message) => renderMessage(message, replies.get(message.ts)))),
  );
  if (nearBottom) timeline.scrollTop = timeline.scrollHeight;
  revealAnswer();
}

// ---------- the answer to what the user just did, brought into view ----------

const ANSWER_WAIT_MS = 15_000;
const signature = (m) => JSON.stringify([m.text, m.blocks, m.files?.length ?? 0]);
const signatures = () =>
  new Map((view.state?.messages ?? []).map((m) => [`${m.channel}/${m.ts}`, signature(m)]));

/**
 * The user sent a command or clicked: what the app answers in this conversation (a new message, a
 * reply in a thread, a message updated in place) is scrolled into view as it arrives, however long the
 * list above it. On a canvas tab, the Messages tab opens to show it.
 */
function awaitAnswer() {
  view.awaiting = { until: Date.now() + ANSWER_WAIT_MS, seen: signatures() };
  if (openCanvas()) {
    view.channelTabs[view.channel] = undefined;
    render();
  }
}

function revealAnswer() {
  const awaiting = view.awaiting;
  if (awaiting && Date.now() > awaiting.until) view.awaiting = undefined;
  if (!view.awaiting) return;
  const conversation = currentConversation();
  const fresh = view.state.messages.filter(
    (m) => m.channel === conversation && awaiting.seen.get(`${m.channel}/${m.ts}`) !== signature(m),
  );
  awaiting.seen = signatures();
  const newest = fresh.at(-1);
  if (newest) view.answerTs = newest.ts;
  const shown =
    view.answerTs && $('timeline').querySelector(`.message[data-ts="${CSS.escape(view.answerTs)}"]`);
  if (!shown) return;
  shown.classList.add('answer');
  if (newest) shown.scrollIntoView({ block: 'nearest' });
}

// ---------- where the user is: a channel, or the app (Home / Messages) ----------

const APP = '@app';
const onApp = () => view.channel === APP;
/** The conversation the user is looking at: a channel, the app's DM, or none (the Home tab). */
function currentConversation() {
  if (!onApp()) return view.channel;
  return view.appTab === 'messages' ? view.state?.appDm : undefined;
}

function goTo(channel, appTab) {
  const openingHome = channel === APP && (appTab ?? view.appTab) === 'home';
  view.channel = channel;
  if (appTab) view.appTab = appTab;
  localStorage.setItem('localSlack.channel', channel);
  localStorage.setItem('localSlack.appTab', view.appTab);
  render();
  // Slack tells the app each time the user opens its Home tab.
  if (openingHome) void postJson('/local/home', { user: view.user });
}

function renderSidebar() {
  const { channels, users } = view.state;
  $('channels').replaceChildren(
    ...channels.map((channel) =>
      el('li', {}, [
        el('button', {
          type: 'button',
          'aria-current': channel.id === view.channel ? 'true' : 'false',
          text: `# ${channel.name}`,
          onclick: () => goTo(channel.id),
        }),
      ]),
    ),
  );
  $('home-entry').setAttribute('aria-current', onApp() ? 'true' : 'false');
  $('users').replaceChildren(
    ...users.map((user) =>
      el('button', {
        type: 'button',
        role: 'radio',
        'aria-checked': user.id === view.user ? 'true' : 'false',
        // With two workspaces, the switch is also the workspace switch.
        text: user.teamId ? `${user.name} (${user.teamId})` : user.name,
        onclick: () => {
          view.user = user.id;
          localStorage.setItem('localSlack.user', user.id);
          view.modalKey = undefined;
          view.homeKey = undefined;
          refresh().then(() => {
            if (onApp() && view.appTab === 'home') void postJson('/local/home', { user: view.user });
          });
        },
      }),
    ),
  );
  $('user-note').textContent = users.find((u) => u.id === view.user)?.title ?? '';
  // A distributed app: each workspace can run the OAuth install against the local Slack.
  const installTeams = view.state.installTeams ?? [];
  $('installs').hidden = installTeams.length === 0;
  $('install-links').replaceChildren(
    ...installTeams.map((team) =>
      el('li', {}, [
        el('a', {
          class: 'install-link',
          href: `/local/install?team=${encodeURIComponent(team)}`,
          text: `Install in ${team}`,
        }),
      ]),
    ),
  );
  $('channel-name').textContent = onApp() ? 'eventbot' : `# ${channelName(view.channel)}`;
  $('app-tabs').hidden = !onApp();
  for (const tab of $('app-tabs').querySelectorAll('[role="tab"]'))
    tab.setAttribute('aria-selected', String(tab.dataset.tab === view.appTab));
}

function renderJobs() {
  $('jobs').replaceChildren(
    ...view.state.jobs.map((job) =>
      el('button', {
        type: 'button',
        'data-job': job,
        text: `Run now: ${job}`,
        onclick: async (event) => {
          event.currentTarget.disabled = true;
          const target = event.currentTarget;
          try {
            const answer = await postJson(`/local/jobs/${job}`, {});
            showJobResult(job, answer.ok ? answer.said : `failed: ${answer.error}`);
          } finally {
            target.disabled = false;
          }
          refreshAccount();
        },
      }),
    ),
  );
}

// The service adds a known exhibitor to another upcoming show: what account watch would then announce.
async function addExhibitor(event) {
  const button = event.currentTarget;
  button.disabled = true;
  const box = $('new-exhibitor-result');
  try {
    const answer = await postJson('/local/sim/new-exhibitor', {});
    box.textContent = answer.ok ? answer.message : `Could not add an exhibitor: ${answer.error}`;
  } finally {
    box.hidden = false;
    button.disabled = false;
  }
}

function showJobResult(job, result) {
  const box = $('job-result');
  box.hidden = false;
  box.dataset.job = job;
  // The words may hold `code` (a command to try): shown as Slack shows mrkdwn.
  box.innerHTML = mrkdwn(`${job}: ${typeof result === 'string' ? result : JSON.stringify(result)}`);
}

function render() {
  if (!view.state) return;
  renderSidebar();
  const showHome = onApp() && view.appTab === 'home';
  renderChannelTabs();
  const canvas = showHome ? undefined : openCanvas();
  $('home').hidden = !showHome;
  $('timeline').hidden = showHome || Boolean(canvas);
  $('composer').hidden = showHome;
  $('canvas').hidden = !canvas;
  if (showHome) renderHome();
  else renderTimeline();
  if (canvas) renderCanvas(canvas);
  $('shortcuts-button').hidden = shortcutsOf('global').length === 0;
  renderModal();
  renderJobs();
  $('service-data').hidden = !view.state.canAddExhibitor;
}

// ---------- side panel: credits ----------

const credits = (n) => (typeof n === 'number' ? n.toLocaleString('en-US') : '—');

async function refreshAccount() {
  if (!view.state?.hasAccount) {
    $('balance').textContent = 'not available';
    return;
  }
  const response = await fetch('/local/account');
  const account = await response.json();
  if (!account.ok) {
    $('balance').textContent = 'unavailable';
    return;
  }
  $('balance').textContent = credits(account.balance);
  if (account.ledger.length === 0) {
    $('ledger').replaceChildren(el('li', { class: 'ledger-empty', text: 'No charges yet' }));
    return;
  }
  $('ledger').replaceChildren(
    ...[...account.ledger].reverse().map((entry) =>
      el('li', {}, [
        el('span', { class: 'credits', text: `−${credits(entry.credits)} ` }),
        el('span', {
          text: [entry.action, entry.eventId, entry.personnelIds?.join(' ')].filter(Boolean).join(' · '),
        }),
        entry.at ? el('div', { class: 'help-summary', text: new Date(entry.at).toLocaleTimeString() }) : null,
      ]),
    ),
  );
}

// ---------- composer and help ----------

function commandName() {
  return view.state?.command?.name ?? '/events';
}

function updateHelp() {
  const input = $('composer-input');
  const help = $('help');
  const value = input.value;
  const command = commandName();
  const specs = view.state?.command?.help ?? [];
  view.helpItems = [];
  const rows = [];
  if (value.startsWith('/') && !value.includes(' ') && command.startsWith(value)) {
    view.helpItems = [{ complete: `${command} `, usage: command, summary: 'Event Intelligence commands' }];
  } else if (value.startsWith(`${command} `)) {
    const rest = value.slice(command.length + 1).replace(/^\s+/, '');
    const word = rest.split(/\s/)[0];
    const typingWord = !/\s/.test(rest);
    const exact = specs.find((spec) => spec.word === word);
    if (typingWord) {
      view.helpItems = specs
        .filter((spec) => spec.word.startsWith(word))
        .map((spec) => ({ ...spec, complete: `${command} ${spec.word} ` }));
    } else if (exact) {
      view.helpItems = [{ ...exact, complete: undefined }];
    } else {
      rows.push(el('div', { class: 'help-problem', text: `Unknown word "${word}". The commands are:` }));
      view.helpItems = specs.map((spec) => ({ ...spec, complete: `${command} ${spec.word} ` }));
    }
  } else if (value.startsWith('/')) {
    rows.push(el('div', { class: 'help-problem', text: `Only ${command} is installed in this workspace.` }));
  }
  view.helpActive = Math.min(view.helpActive, Math.max(0, view.helpItems.length - 1));
  view.helpItems.forEach((item, index) => {
    rows.push(
      el(
        'div',
        {
          class: `help-item${index === view.helpActive && item.complete ? ' active' : ''}`,
          onmousedown: (event) => {
            event.preventDefault();
            if (item.complete) completeTo(item.complete);
          },
        },
        [
          el('div', { class: 'help-usage', text: item.word ? `${command} ${item.usage}` : item.usage }),
          el('div', {
            class: 'help-summary',
            text: `${item.summary}${item.example ? ` · e.g. ${command} ${item.example}` : ''}`,
          }),
          item.credits ? el('div', { class: 'help-credits', text: `Spends credits: ${item.credits}` }) : null,
        ],
      ),
    );
  });
  help.replaceChildren(...rows);
  help.hidden = rows.length === 0;
}

function completeTo(text) {
  const input = $('composer-input');
  input.value = text;
  input.focus();
  view.helpActive = 0;
  updateHelp();
}

async function submitComposer(event) {
  event.preventDefault();
  const input = $('composer-input');
  const value = input.value.trim();
  if (!value) return;
  const command = commandName();
  const channel = currentConversation();
  if (!value.startsWith('/')) {
    // A plain message: posted as the user; Slack sends the app link_shared for its links.
    input.value = '';
    updateHelp();
    awaitAnswer();
    const answer = await postJson('/local/message', { user: view.user, channel, text: value });
    if (!answer.ok) showJobResult('message', answer.error);
    return;
  }
  if (!(value === command || value.startsWith(`${command} `))) {
    updateHelp();
    $('help').hidden = false;
    return;
  }
  input.value = '';
  updateHelp();
  awaitAnswer();
  const answer = await postJson('/local/command', {
    user: view.user,
    channel,
    text: value.slice(command.length).trim(),
  });
  if (!answer.ok) showJobResult('command', answer.error);
}

function onComposerKey(event) {
  const completable = view.helpItems.filter((item) => item.complete);
  if (event.key === 'Escape') $('help').hidden = true;
  if (completable.length === 0) return;
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    event.preventDefault();
    const step = event.key === 'ArrowDown' ? 1 : -1;
    view.helpActive = (view.helpActive + step + view.helpItems.length) % view.helpItems.length;
    updateHelp();
  } else if (event.key === 'Tab') {
    event.preventDefault();
    const item = view.helpItems[view.helpActive];
    if (item?.complete) completeTo(item.complete);
  }
}

// ---------- data ----------

async function postJson(url, body) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return response.json();
}

let refreshing = false;
let again = false;
async function refresh() {
  if (refreshing) {
    again = true;
    return;
  }
  refreshing = true;
  try {
    do {
      again = false;
      const response = await fetch(`/local/state?user=${encodeURIComponent(view.user ?? '')}`);
      view.state = await response.json();
      const { users, channels } = view.state;
      if (!users.some((u) => u.id === view.user) && users[0]) {
        view.user = users[0].id;
        again = true;
      }
      if (view.channel !== APP && !channels.some((c) => c.id === view.channel))
        view.channel = channels[0]?.id;
      render();
    } while (again);
  } finally {
    refreshing = false;
  }
  await refreshAccount();
}

function connect() {
  const events = new EventSource('/local/events');
  events.addEventListener('open', () => {
    $('connection').classList.add('live');
    refresh();
  });
  events.addEventListener('error', () => $('connection').classList.remove('live'));
  events.addEventListener('change', () => refresh());
}

$('composer').addEventListener('submit', submitComposer);
$('shortcuts-button').addEventListener('click', openGlobalShortcuts);
$('new-exhibitor').addEventListener('click', addExhibitor);
$('home-entry').addEventListener('click', () => goTo(APP, 'home'));
for (const tab of $('app-tabs').querySelectorAll('[role="tab"]'))
  tab.addEventListener('click', () => goTo(APP, tab.dataset.tab));
document.addEventListener('click', (event) => {
  if (!$('menu').contains(event.target)) closeMenu();
});
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  if (!$('menu').hidden) closeMenu();
  else if (view.state?.modal && !$('confirm-dialog').open) void closeModal();
});
$('composer-input').addEventListener('input', () => {
  view.helpActive = 0;
  updateHelp();
});
$('composer-input').addEventListener('keydown', onComposerKey);
$('composer-input').addEventListener('blur', () => {
  $('help').hidden = true;
});
$('composer-input').addEventListener('focus', updateHelp);
setInterval(refreshAccount, 5000);
await refresh();
// A page opened (or reloaded) on the Home tab opens it, as Slack does.
if (onApp() && view.appTab === 'home') void postJson('/local/home', { user: view.user });
connect();
document.body.dataset.ready = 'true';
