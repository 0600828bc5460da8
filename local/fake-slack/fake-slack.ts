import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type ClickInput,
  type CommandInput,
  click,
  newResponseUrl,
  recordAck,
  sendCommand,
} from './commands-and-clicks.ts';
import {
  type EventAnswer,
  type EventOptions,
  type MessageInput,
  openHome,
  runFunction,
  sendEvent,
  sendMessage,
  uninstall,
} from './events.ts';
import { handleRequest } from './http-routes.ts';
import type { AppAnswer, SlackMessage } from './messages.ts';
import { type FakeSlackOAuth, fakeSlackOAuth } from './oauth.ts';
import type { LocalApp, LocalPanel } from './page-api.ts';
import {
  type ViewClickInput,
  clickInView,
  closeView,
  globalShortcut,
  messageShortcut,
  submitForm,
  submitView,
} from './shortcuts-and-modals.ts';
import {
  type Args,
  type FakeSlackOptions,
  type RecordedCall,
  type WorkspaceUser,
  canvasesIn,
  changed,
  createState,
  subscribe,
} from './slack-state.ts';
import { type FakeView, type FunctionResult, type Unfurl, topModal } from './surfaces.ts';
import type { FakeCanvas } from './canvases.ts';
import type { FormInputs } from './view-state.ts';

export type { FakeView, FunctionResult, Unfurl } from './surfaces.ts';
export type { FakeCanvas } from './canvases.ts';
export type { FakeInstall, FakeOAuthOptions, FakeSlackOAuth } from './oauth.ts';
export type { CommandHelp, LocalApp, LocalPanel, LocalShortcut } from './page-api.ts';
export type { FormInputs } from './view-state.ts';
export type { AppAnswer, FakeFile, SlackMessage } from './messages.ts';
export type { ClickInput, CommandInput } from './commands-and-clicks.ts';
export type { EventAnswer, EventOptions, MessageInput } from './events.ts';
export type { ViewClickInput } from './shortcuts-and-modals.ts';
export { appDmOf, SLACK_DEADLINE_MS } from './slack-state.ts';
export type { FakeSlackOptions, RecordedCall, WorkspaceUser } from './slack-state.ts';

/**
 * A local stand-in for Slack's Web API and `response_url`s. It keeps channels and their messages
 * (with threads and in-place updates), records every call, checks what the bot sends against Block
 * Kit's limits, and can be told to fail the next calls. The dev page and the integration tests share it.
 */

export interface FakeSlack {
  url: string;
  /** Base URL for `@slack/web-api` (`slackApiUrl`). */
  apiUrl: string;
  botUserId: string;
  calls: RecordedCall[];
  messages(channel?: string): SlackMessage[];
  /**
   * A `response_url` the fake accepts; messages sent there land in `channel` for `user`, or replace
   * `messageTs` when sent with `replace_original` (as for a button's response_url).
   */
  responseUrl(channel: string, user: string, messageTs?: string, teamId?: string): string;
  /**
   * The next calls to `method` answer `{ ok: false, error }` (or HTTP 429 for `ratelimited`); with
   * `slow:<ms>` they are carried out but answered `ms` late.
   */
  failNext(method: string, error: string, times?: number): void;
  /** Resolves once every `slow:` answer was sent (to a caller that may have given up on it). */
  lateAnswersSent(): Promise<void>;
  /** Forgets every failure `failNext` queued and no call has taken yet. */
  clearFailures(): void;
  /** Records a slash command's HTTP answer (the ack) as the message its `response_url` can replace. */
  recordAck(responseUrl: string, body: string): void;
  /** Reacts to every stored message change (for the dev page's live view). */
  onChange(listener: () => void): () => void;
  addUser(id: string, user: WorkspaceUser): void;
  /** Lists `channel`'s members (as `channelMembers` does); `users.conversations` answers with them. */
  setChannelMembers(channel: string, users: string[]): void;
  /** Sets user group `id`'s members (as `userGroups` does); `usergroups.users.list` answers with them. */
  setUserGroup(id: string, users: string[]): void;
  /**
   * Where this Slack sends slash commands and button clicks (signed with the app's signing secret),
   * as the page's composer and buttons do. Without it the page is read-only.
   */
  connectApp(app: LocalApp): void;
  /** The page's side panel: the credit account and the "Run now" jobs. */
  setPanel(panel: LocalPanel): void;
  /**
   * Sends `/events <text>` as `user` in `channel`, exactly as Slack would; shows the ack as Slack does.
   * `teamId` is the workspace they act in (default: their own, else the connected app's team); a user
   * of another team acting there is a Slack Connect guest.
   */
  sendCommand(input: CommandInput): Promise<AppAnswer>;
  /** Clicks a button of a stored message as `user` (a signed `block_actions` payload). */
  click(input: ClickInput): Promise<AppAnswer>;
  /** The Home tab the app last published for `user`. */
  home(user: string): FakeView | undefined;
  /** The modal on top of `user`'s stack (Slack keeps up to 3). */
  modal(user: string): FakeView | undefined;
  /** The canvases the app created (in `channel`, when given), oldest first, as last edited. */
  canvases(channel?: string): FakeCanvas[];
  /**
   * A person deletes canvas `id` in Slack: gone for every caller, so `canvases.edit` on it answers
   * `canvas_not_found`, as Slack's does; false when there was none.
   */
  deleteCanvas(id: string): boolean;
  /** Every `chat.unfurl` the app made, oldest first. */
  unfurls: Unfurl[];
  /** Every custom workflow step the app completed (`functions.completeSuccess` / `completeError`). */
  functionResults: FunctionResult[];
  /**
   * Delivers an Events API callback (`event`, e.g. `{ type: 'app_home_opened', … }`); with `retryNum`
   * it is Slack's retry of the delivery `eventId` (the `X-Slack-Retry-Num` header).
   */
  sendEvent(event: Args, options?: EventOptions): Promise<EventAnswer>;
  /**
   * The app is removed from `teamId` (with `orgWide`, from its whole Enterprise Grid org): Slack revokes
   * that install's tokens, then sends `app_uninstalled` naming that install.
   */
  uninstall(input: { teamId: string; orgWide?: boolean }): Promise<EventAnswer>;
  /** `user` (of `teamId`: default their own, else the app's team) opens the Home tab (`app_home_opened`). */
  openHome(user: string, teamId?: string): Promise<EventAnswer>;
  /** `user` posts `url` in `channel`; Slack sends `link_shared` when its domain is the app's. */
  shareLink(input: { user: string; channel: string; url: string }): Promise<EventAnswer | undefined>;
  /**
   * `user` posts `text` in `channel` (its links shown as Slack formats them); Slack sends one
   * `link_shared` for the links on the app's unfurl domains, if any.
   */
  sendMessage(input: MessageInput): Promise<EventAnswer | undefined>;
  /** `user` picks a global shortcut from the shortcuts menu. */
  globalShortcut(input: { user: string; callbackId: string; channel?: string }): Promise<AppAnswer>;
  /** `user` picks a message shortcut on the message `ts` in `channel`. */
  messageShortcut(input: {
    user: string;
    channel: string;
    ts: string;
    callbackId: string;
  }): Promise<AppAnswer>;
  /** `user` submits their top modal with `values` (`{ [blockId]: { [actionId]: { type, value… } } }`). */
  submitView(input: { user: string; values: Args }): Promise<AppAnswer>;
  /**
   * `user` fills in and submits their top modal as the page does: `inputs` by block and action id
   * (a text, a chosen value or values; `null` empties a field), shaped into `view.state.values`, a
   * prefilled field `inputs` do not name at its initial value, as Slack does. Required fields left empty
   * are refused in the modal, as Slack's client does, and nothing is sent (`undefined`).
   */
  submitForm(input: { user: string; inputs: FormInputs }): Promise<AppAnswer | undefined>;
  /** `user` closes their top modal; `view_closed` goes to the app when the view asked for it. */
  closeView(input: { user: string }): Promise<AppAnswer | undefined>;
  /**
   * `user` clicks the button `actionId` in the view `viewId` (their top modal by default), or sends
   * `action` as is (a select's choice).
   */
  clickInView(input: ViewClickInput): Promise<AppAnswer>;
  /** A workflow runs the app's custom step `callbackId` with `inputs` (`function_executed`). */
  runFunction(input: {
    callbackId: string;
    inputs: Args;
  }): Promise<EventAnswer & { functionExecutionId: string }>;
  /** Installing the app: consent codes, `oauth.v2.access`, token refreshes. */
  oauth: FakeSlackOAuth;
  close(): Promise<void>;
}

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const state = createState(options);
  const server = createServer((request, response) => void handleRequest(state, request, response));
  // A taken port rejects (EADDRINUSE), so `npm run dev` can try the next one.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  state.baseUrl = url;

  return {
    url,
    apiUrl: `${url}/api/`,
    botUserId: state.botUserId,
    calls: state.calls,
    messages: (channel) => state.stored.filter((m) => channel === undefined || m.channel === channel),
    responseUrl: (channel, user, messageTs, teamId) =>
      newResponseUrl(state, channel, user, messageTs, teamId),
    recordAck: (responseUrl, body) => recordAck(state, responseUrl, body),
    failNext: (method, error, times = 1) => {
      const queue = state.failures.get(method) ?? [];
      queue.push({ error, times });
      state.failures.set(method, queue);
    },
    clearFailures: () => state.failures.clear(),
    lateAnswersSent: async () => {
      await Promise.all(state.lateAnswers);
    },
    onChange: (listener) => subscribe(state, listener),
    addUser: (id, user) => {
      state.users.set(id, user);
      changed(state);
    },
    setChannelMembers: (channel, users) => {
      state.channelMembers.set(channel, new Set(users));
    },
    setUserGroup: (id, users) => {
      state.userGroups.set(id, [...users]);
    },
    connectApp: (app) => {
      state.app = app;
      changed(state);
    },
    setPanel: (panel) => {
      state.panel = panel;
      changed(state);
    },
    sendCommand: (input) => sendCommand(state, input),
    click: (input) => click(state, input),
    home: (user) => {
      const id = state.surfaces.homes.get(user);
      return id ? state.surfaces.views.get(id) : undefined;
    },
    modal: (user) => topModal(state.surfaces, user),
    canvases: (channel) => canvasesIn(state, channel),
    deleteCanvas: (id) => {
      const deleted = state.canvases.canvases.delete(id);
      changed(state);
      return deleted;
    },
    unfurls: state.surfaces.unfurls,
    functionResults: state.surfaces.functionResults,
    sendEvent: (event, options) => sendEvent(state, event, options),
    uninstall: (input) => uninstall(state, input),
    openHome: (user, teamId) => openHome(state, user, teamId),
    shareLink: (input) => sendMessage(state, { ...input, text: input.url }),
    sendMessage: (input) => sendMessage(state, input),
    submitForm: (input) => submitForm(state, input),
    closeView: (input) => closeView(state, input),
    globalShortcut: (input) => globalShortcut(state, input),
    messageShortcut: (input) => messageShortcut(state, input),
    submitView: (input) => submitView(state, input),
    clickInView: (input) => clickInView(state, input),
    runFunction: (input) => runFunction(state, input),
    oauth: fakeSlackOAuth(state.oauth),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
