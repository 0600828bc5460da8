// Block Kit blocks drawn on a surface (a message, an unfurl, a modal or the Home tab), with their buttons.

import { awaitAnswer } from './answer.js';
import { $, el } from './dom.js';
import { formInputs, optionsOf, renderInput } from './form-inputs.js';
import { showJobResult } from './side-panel.js';
import { postJson, view } from './state.js';
import { textHtml } from './text.js';

// ---------- blocks ----------
//
// Blocks render against a surface: a message, an unfurl of a link in a message, or a view (a modal or
// the Home tab). The surface says what a button click sends: a message's block_actions, or a view's.

/** A message's surface: its buttons are clicked through POST /local/click. */
export const messageSurface = (message, unfurlUrl) => ({
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
export const viewSurface = (fakeView) => ({
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

export function renderBlock(surface, block, index) {
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

export const warningsBox = (warnings) =>
  warnings?.length
    ? el('div', { class: 'warnings', role: 'alert' }, [
        el('b', { text: '⚠ Block Kit: ' }),
        el('span', { text: warnings.join('; ') }),
      ])
    : null;
