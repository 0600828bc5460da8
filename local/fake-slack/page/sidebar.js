// The sidebar: channels, the app's Home, the user (and workspace) switch, and Install links.

import { $, el } from './dom.js';
import { APP, channelName, onApp, page, postJson, view } from './state.js';

export function goTo(channel, appTab) {
  const openingHome = channel === APP && (appTab ?? view.appTab) === 'home';
  view.channel = channel;
  if (appTab) view.appTab = appTab;
  localStorage.setItem('localSlack.channel', channel);
  localStorage.setItem('localSlack.appTab', view.appTab);
  page.render();
  // Slack tells the app each time the user opens its Home tab.
  if (openingHome) void postJson('/local/home', { user: view.user });
}

export function renderSidebar() {
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
          page.refresh().then(() => {
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
