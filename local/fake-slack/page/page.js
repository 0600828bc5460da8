// The local Slack page: a view of the fake Slack's state (GET /local/state, live over
// /local/events), a composer that sends signed slash commands (or posts messages, whose links the
// app may unfurl), buttons that send signed block_actions, the app's Home tab, its modals, and its
// shortcuts (the ⚡ menu and each message's ⋯), files, and canvases as channel tabs. Plain DOM, no
// build step.
// The page's parts are ES modules beside this one (the fake serves every .js file of this folder);
// this one draws them together, keeps the state fresh and wires the controls.

import { openCanvas, renderCanvas, renderChannelTabs } from './canvas-tabs.js';
import { onComposerKey, submitComposer, updateHelp } from './composer.js';
import { $ } from './dom.js';
import { closeMenu, openGlobalShortcuts, shortcutsOf } from './menus.js';
import { renderTimeline } from './messages.js';
import { closeModal, renderHome, renderModal } from './modal-and-home.js';
import { addExhibitor, refreshAccount, renderJobs } from './side-panel.js';
import { goTo, renderSidebar } from './sidebar.js';
import { APP, onApp, page, postJson, view } from './state.js';

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

page.render = render;
page.refresh = refresh;

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
