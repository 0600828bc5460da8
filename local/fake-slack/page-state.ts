import { click, sendCommand } from './commands-and-clicks.ts';
import { openHome, sendMessage } from './events.ts';
import { type PageContext, type PageState, pageMessage } from './page-api.ts';
import {
  clickInView,
  closeView,
  globalShortcut,
  messageShortcut,
  submitForm,
} from './shortcuts-and-modals.ts';
import {
  type SlackState,
  appDmOf,
  canvasesIn,
  isAppDm,
  subscribe,
  teamOf,
  unfurlsOf,
} from './slack-state.ts';
import { topModal } from './surfaces.ts';

/** What the local Slack page sees of the fake (one user's view) and what it may do there. */

/** The workspaces the page offers an Install link for: the app's and its members' own. */
function installTeams(state: SlackState): string[] {
  const teams = [state.app?.teamId ?? 'T0LOCAL', ...[...state.users.values()].map((u) => u.teamId)];
  return [...new Set(teams.filter((team): team is string => Boolean(team)))];
}

/**
 * The page's Install link: the consent that follows is for `team`; the browser goes on to the app's
 * install page (which sets its state cookie) and comes back through Slack's authorize step.
 */
function startInstall(state: SlackState, team: string): string | undefined {
  if (!state.app?.installUrl) return undefined;
  state.oauth.nextInstallTeam = team;
  return state.app.installUrl;
}

export function pageContext(state: SlackState): PageContext {
  return {
    install: (team) => startInstall(state, team),
    state: (user) => pageState(state, user),
    onChange: (listener) => subscribe(state, listener),
    sendCommand: (input) => sendCommand(state, input),
    sendMessage: (input) => sendMessage(state, input),
    click: (input) => click(state, input),
    openHome: (user) => openHome(state, user),
    shortcut: ({ user, callbackId, channel, ts }) =>
      channel && ts
        ? messageShortcut(state, { user, callbackId, channel, ts })
        : globalShortcut(state, { user, callbackId }),
    submitForm: (input) => submitForm(state, input),
    closeView: (input) => closeView(state, input),
    clickInView: (input) => clickInView(state, input),
    panel: () => state.panel,
    file: (id) => state.stored.flatMap((m) => m.files ?? []).find((file) => file.id === id),
  };
}

/** What one user sees: ephemeral messages and the app's DM only their own, their Home and modal. */
function pageState(state: SlackState, user: string | undefined): PageState {
  const { app, panel, surfaces } = state;
  const homeId = user ? surfaces.homes.get(user) : undefined;
  const modal = user ? topModal(surfaces, user) : undefined;
  // With two workspaces, each member sees their own workspace's messages (and the ones of no team).
  const team = user ? (teamOf(state, user) ?? app?.teamId) : undefined;
  const visible = state.stored.filter(
    (m) =>
      (m.visibleTo === undefined || m.visibleTo === user) &&
      (!isAppDm(state, m.channel) || m.channel === appDmOf(user ?? '')) &&
      (m.teamId === undefined || team === undefined || m.teamId === team),
  );
  return {
    botUserId: state.botUserId,
    channels: [...state.channels].map((id) => ({ id, name: state.channelNames.get(id) ?? id })),
    users: [...state.users].map(([id, { name, title, teamId }]) => ({
      id,
      name,
      ...(title ? { title } : {}),
      ...(teamId ? { teamId } : {}),
    })),
    ...(app?.installUrl ? { installTeams: installTeams(state) } : {}),
    command: app ? { name: app.command ?? '/events', help: app.commandHelp ?? [] } : undefined,
    shortcuts: app?.shortcuts ?? [],
    jobs: Object.keys(panel.jobs ?? {}),
    hasAccount: Boolean(panel.account),
    canAddExhibitor: Boolean(panel.newExhibitor),
    appDm: appDmOf(user ?? ''),
    home: homeId ? surfaces.views.get(homeId) : undefined,
    modal: modal ? { ...modal, depth: surfaces.modalStacks.get(modal.user)?.length ?? 1 } : undefined,
    messages: visible.map(pageMessage),
    unfurls: visible.flatMap((message) => unfurlsOf(state, message)),
    canvases: canvasesIn(state)
      .filter((c) => c.teamId === undefined || team === undefined || c.teamId === team)
      .map(({ id, channel, title, markdown }) => ({ id, channel, title, markdown })),
  };
}
