// The user's top modal (submit, close) and the app's Home tab.

import { awaitAnswer } from './answer.js';
import { renderBlock, viewSurface, warningsBox } from './blocks.js';
import { $, el } from './dom.js';
import { formInputs } from './form-inputs.js';
import { showJobResult } from './side-panel.js';
import { postJson, view } from './state.js';
import { textHtml } from './text.js';

// ---------- modals and the Home tab ----------

/** The modal on top of the user's stack, drawn over everything; re-drawn only when it changes. */
export function renderModal() {
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

export async function closeModal() {
  await postJson('/local/view/close', { user: view.user });
}

/** The app's Home tab for the current user, as it last published it. */
export function renderHome() {
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
