// Menus: the app's global shortcuts (the ⚡ button) and a message's shortcuts (its ⋯).

import { awaitAnswer } from './answer.js';
import { $, el } from './dom.js';
import { showJobResult } from './side-panel.js';
import { postJson, view } from './state.js';

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

export function closeMenu() {
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

export const shortcutsOf = (type) => (view.state?.shortcuts ?? []).filter((s) => s.type === type);

export function openGlobalShortcuts(event) {
  event.stopPropagation();
  openMenu(
    event.currentTarget,
    shortcutsOf('global').map((s) => ({ label: s.name, run: () => runShortcut(s.callbackId) })),
  );
}

export function messageActions(message) {
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
