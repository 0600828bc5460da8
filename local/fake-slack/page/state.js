// What the page shows and where the user is: the view's state, names, and the page's calls to the fake.

export const view = {
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

/**
 * The page's whole redraw and reload, set by page.js (the one module that sees every part) before it
 * starts: a part asks for them here without importing page.js, so the page's modules form no circle.
 */
export const page = { render: () => {}, refresh: async () => {} };

export const nameOf = (userId) => {
  const state = view.state;
  if (!state) return userId;
  if (userId === state.botUserId) return 'eventbot';
  if (userId === 'USLACKBOT') return 'Slackbot';
  return state.users.find((u) => u.id === userId)?.name ?? userId;
};

export const channelName = (id) => view.state?.channels.find((c) => c.id === id)?.name ?? id;

export const APP = '@app';
export const onApp = () => view.channel === APP;
/** The conversation the user is looking at: a channel, the app's DM, or none (the Home tab). */
export function currentConversation() {
  if (!onApp()) return view.channel;
  return view.appTab === 'messages' ? view.state?.appDm : undefined;
}

export async function postJson(url, body) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return response.json();
}
