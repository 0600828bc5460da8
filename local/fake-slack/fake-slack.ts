import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { blockKitViolations } from './block-kit-check.ts';
import {
  type LocalApp,
  type LocalPanel,
  type PageContext,
  type PageState,
  type PageUnfurl,
  pageMessage,
  servePage,
} from './page-api.ts';
import {
  type Actor,
  type ButtonElement,
  blockActionsBody,
  buttonsOf,
  slashCommandBody,
  type Workspace,
} from './payloads.ts';
import {
  type FakeOAuthOptions,
  type FakeSlackOAuth,
  type OAuthState,
  answerOAuth,
  authorizeRedirect,
  createOAuthState,
  fakeSlackOAuth,
  tokenIdentity,
  servedOrgWide,
  revokeInstall,
  tokenTeam,
} from './oauth.ts';
import { signedHeaders } from './sign.ts';
import { type CanvasState, type FakeCanvas, canvasWebApi, createCanvasState } from './canvases.ts';
import {
  type FakeView,
  type FunctionResult,
  type SurfaceState,
  type Unfurl,
  applySubmissionAnswer,
  closeTopModal,
  createSurfaceState,
  eventCallbackBody,
  globalShortcutBody,
  messageShortcutBody,
  surfaceWebApi,
  topModal,
  viewActionBody,
  viewClosedBody,
  viewSubmissionBody,
} from './surfaces.ts';
import {
  type FormInputs,
  missingRequired,
  responseUrlFields,
  stateValues,
  withInitialValues,
} from './view-state.ts';

export type { FakeView, FunctionResult, Unfurl } from './surfaces.ts';
export type { FakeCanvas } from './canvases.ts';
export type { FakeInstall, FakeOAuthOptions, FakeSlackOAuth } from './oauth.ts';

export type { CommandHelp, LocalApp, LocalPanel, LocalShortcut } from './page-api.ts';
export type { FormInputs } from './view-state.ts';

import type { AppAnswer, FakeFile, SlackMessage } from './messages.ts';

export type { AppAnswer, FakeFile, SlackMessage } from './messages.ts';
/**
 * A local stand-in for Slack's Web API and `response_url`s. It keeps channels and their messages
 * (with threads and in-place updates), records every call, checks what the bot sends against Block
 * Kit's limits, and can be told to fail the next calls. The dev page and the integration tests share it.
 */

export interface RecordedCall {
  method: string;
  args: Record<string, unknown>;
  authorization?: string;
}

export interface FakeSlackOptions {
  port?: number;
  botUserId?: string;
  /** Channels that exist; the bot is a member of each unless listed in `botNotIn`. */
  channels?: string[];
  botNotIn?: string[];
  /** Channels whose members are listed (a private channel, say); any other channel has every user in it. */
  channelMembers?: Record<string, string[]>;
  /**
   * Workspace members; `title` is shown under the user switch on the page (e.g. "spend approver").
   * `teamId` puts a member in another workspace than the app's (a distributed app's second install):
   * what they send names their team, and the page shows them only their team's messages.
   */
  users?: Record<string, WorkspaceUser>;
  /** Display names of channels (the page's channel list); the id is shown otherwise. */
  channelNames?: Record<string, string>;
  /** The app's OAuth client (installs and token rotation). */
  oauth?: FakeOAuthOptions;
  /** Enterprise Grid orgs: each org's workspaces (their payloads name the org). */
  enterprises?: Record<string, string[]>;
  /** User groups (`S…`) and their members, as `usergroups.users.list` lists them. */
  userGroups?: Record<string, string[]>;
  /**
   * Whether Slack's 3 s deadlines are kept on the real clock: an answer later than `SLACK_DEADLINE_MS`
   * fails as `operation_timeout`, a trigger id older is expired. `npm run dev` keeps them, to show
   * what Slack would; tests leave them off (the default), so a loaded machine's slowness is never
   * taken for the app's. The bench measures the answers' times, and tests that the app answers
   * before a slow call returns hold that call on a virtual clock.
   */
  slackDeadlines?: boolean;
}

/** Slack's deadline for an app's answer to a command, a click or a form. */
export const SLACK_DEADLINE_MS = 3000;

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
  sendCommand(input: { user: string; channel: string; text: string; teamId?: string }): Promise<AppAnswer>;
  /** Clicks a button of a stored message as `user` (a signed `block_actions` payload). */
  click(input: {
    user: string;
    channel: string;
    ts: string;
    actionId: string;
    blockId?: string;
    /** The button sits in the app's unfurl of this link (found there anyway when not in the message). */
    unfurlUrl?: string;
    /**
     * The workspace the click is in (default: the user's own, else the connected app's team); a user of
     * another team clicking there is a Slack Connect guest (`user.team_id` names their own).
     */
    teamId?: string;
  }): Promise<AppAnswer>;
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
  sendMessage(input: { user: string; channel: string; text: string }): Promise<EventAnswer | undefined>;
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
  clickInView(input: {
    user: string;
    actionId: string;
    viewId?: string;
    blockId?: string;
    action?: Args;
    values?: Args;
    /** What the page's form holds (instead of `values`), shaped into `view.state.values`. */
    inputs?: FormInputs;
  }): Promise<AppAnswer>;
  /** A workflow runs the app's custom step `callbackId` with `inputs` (`function_executed`). */
  runFunction(input: {
    callbackId: string;
    inputs: Args;
  }): Promise<EventAnswer & { functionExecutionId: string }>;
  /** Installing the app: consent codes, `oauth.v2.access`, token refreshes. */
  oauth: FakeSlackOAuth;
  close(): Promise<void>;
}

export type EventAnswer = AppAnswer & { eventId: string };

/** An Events API delivery: its id, Slack's retry number, and the workspace it comes from. */
export interface EventOptions {
  eventId?: string;
  retryNum?: number;
  /** Default: the connected app's team. */
  teamId?: string;
}

type Args = Record<string, unknown>;
export type WorkspaceUser = {
  name: string;
  tz: string;
  title?: string;
  teamId?: string;
  /** A workspace admin or owner as `users.info` says (`is_admin` / `is_owner`); default neither. */
  isAdmin?: boolean;
  isOwner?: boolean;
  /** An admin of their workspace's Enterprise Grid org (`enterprise_user.is_admin`); default not. */
  isOrgAdmin?: boolean;
  /** A guest of the workspace (`is_restricted`: a multi-channel guest); default a full member. */
  isGuest?: boolean;
  /** On Grid, the org's other workspaces they are a member of too (`enterprise_user.teams`, after `teamId`). */
  alsoIn?: string[];
};
type CommandInput = Parameters<FakeSlack['sendCommand']>[0];
type ClickInput = Parameters<FakeSlack['click']>[0];
type MessageInput = Parameters<FakeSlack['sendMessage']>[0];

/** Where a response_url's messages go; `superseded` when the app replaced its ack before the ack was shown. */
interface ResponseTarget {
  channel: string;
  user: string;
  messageTs?: string | undefined;
  superseded?: boolean;
  /** The workspace of the user who acted, when known (recorded on the replies). */
  teamId?: string | undefined;
}

/** All the fake keeps: the workspace, its messages, the calls made, and the app it talks to. */
interface SlackState {
  botUserId: string;
  channels: Set<string>;
  botNotIn: Set<string>;
  /** Channels with listed members; a channel not here has every user in it. */
  channelMembers: Map<string, Set<string>>;
  users: Map<string, WorkspaceUser>;
  userGroups: Map<string, string[]>;
  channelNames: Map<string, string>;
  calls: RecordedCall[];
  stored: SlackMessage[];
  failures: Map<string, { error: string; times: number }[]>;
  listeners: Set<() => void>;
  responseTargets: Map<string, ResponseTarget>;
  app: LocalApp | undefined;
  panel: LocalPanel;
  /** This server's own URL, for the response_urls it hands out. */
  baseUrl: string;
  clock: number;
  seq: number;
  responseSeq: number;
  surfaces: SurfaceState;
  slackDeadlines: boolean;
  /** Files asked for with files.getUploadURLExternal, by id; `content` once uploaded to their URL. */
  uploads: Map<string, { name: string; content?: string }>;
  oauth: OAuthState;
  /** While a Web API call is carried out: the team of its bot token, when the fake issued it. */
  callerTeam: string | undefined;
  /** The Enterprise Grid org of each workspace that belongs to one. */
  enterpriseOfTeam: Map<string, string>;
  canvases: CanvasState;
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

function createState(options: FakeSlackOptions): SlackState {
  return {
    botUserId: options.botUserId ?? 'UBOT',
    channels: new Set(options.channels ?? ['C0GENERAL', 'C0EVENTS']),
    botNotIn: new Set(options.botNotIn ?? []),
    channelMembers: new Map(
      Object.entries(options.channelMembers ?? {}).map(([channel, users]) => [channel, new Set(users)]),
    ),
    users: new Map(Object.entries(options.users ?? { U0ALICE: { name: 'alice', tz: 'Europe/Berlin' } })),
    userGroups: new Map(Object.entries(options.userGroups ?? {})),
    channelNames: new Map(Object.entries(options.channelNames ?? {})),
    calls: [],
    stored: [],
    failures: new Map(),
    listeners: new Set(),
    responseTargets: new Map(),
    app: undefined,
    panel: {},
    baseUrl: '',
    clock: 1_700_000_000,
    seq: 0,
    responseSeq: 0,
    surfaces: createSurfaceState(options.slackDeadlines ?? false),
    slackDeadlines: options.slackDeadlines ?? false,
    uploads: new Map(),
    oauth: createOAuthState(options.oauth, options.botUserId ?? 'UBOT', options.enterprises),
    callerTeam: undefined,
    canvases: createCanvasState(),
    enterpriseOfTeam: new Map(
      Object.entries(options.enterprises ?? {}).flatMap(([id, teams]) => teams.map((team) => [team, id])),
    ),
  };
}

// --- Stored messages ---

const nextTs = (state: SlackState) => `${state.clock++}.${String(++state.seq).padStart(6, '0')}`;

function changed(state: SlackState) {
  for (const listener of state.listeners) listener();
}

function subscribe(state: SlackState, listener: () => void) {
  state.listeners.add(listener);
  return () => state.listeners.delete(listener);
}

function store(state: SlackState, message: Omit<SlackMessage, 'warnings'>): SlackMessage {
  // A Web API post is its token's team's; other messages name their team themselves (or none).
  const team = state.callerTeam ? { teamId: state.callerTeam } : {};
  const full = { ...team, ...message, warnings: blockKitViolations(message.text, message.blocks) };
  state.stored.push(full);
  changed(state);
  return full;
}

function edit(state: SlackState, message: SlackMessage, text: string, blocks: unknown[]) {
  Object.assign(message, { text, blocks, edited: true });
  message.warnings = blockKitViolations(text, blocks);
  changed(state);
}

const findMessage = (state: SlackState, channel: string, ts: string | undefined) =>
  state.stored.find((m) => m.channel === channel && m.ts === ts);

/** What Slack itself shows when an app answers badly: only the user who acted sees it. */
const slackbotNote = (state: SlackState, channel: string, user: string, text: string) =>
  store(state, { channel, ts: nextTs(state), text, blocks: [], user: 'USLACKBOT', visibleTo: user });

// --- Web API methods ---

/** An argument as text: strings as sent, numbers and booleans as written, objects as JSON, nothing as ''. */
function textArg(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

const blocksArg = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Each member's direct messages with the app are the channel `D<user id>`. */
export const appDmOf = (user: string) => `D${user}`;

/** A channel id as Slack resolves it: a user id names the app's DM with that user. */
const conversationOf = (state: SlackState, channel: string) =>
  state.users.has(channel) ? appDmOf(channel) : channel;

const isAppDm = (state: SlackState, channel: string) =>
  channel.startsWith('D') && state.users.has(channel.slice(1));

function channelError(state: SlackState, channel: string): string | undefined {
  if (isAppDm(state, channel)) return undefined;
  if (!state.channels.has(channel)) return 'channel_not_found';
  if (state.botNotIn.has(channel)) return 'not_in_channel';
  return undefined;
}

function postMessage(state: SlackState, args: Args): Args {
  const channel = conversationOf(state, textArg(args.channel));
  const error = channelError(state, channel);
  if (error) return { ok: false, error };
  const message = store(state, {
    channel,
    ts: nextTs(state),
    ...(args.thread_ts ? { threadTs: textArg(args.thread_ts) } : {}),
    text: textArg(args.text),
    blocks: blocksArg(args.blocks),
    user: state.botUserId,
  });
  return { channel, ts: message.ts, message: { text: message.text } };
}

function postEphemeral(state: SlackState, args: Args): Args {
  const channel = conversationOf(state, textArg(args.channel));
  if (!state.channels.has(channel) && !isAppDm(state, channel))
    return { ok: false, error: 'channel_not_found' };
  const message = store(state, {
    channel,
    ts: nextTs(state),
    text: textArg(args.text),
    blocks: blocksArg(args.blocks),
    user: state.botUserId,
    visibleTo: textArg(args.user),
  });
  return { message_ts: message.ts };
}

function updateMessage(state: SlackState, args: Args): Args {
  const message = findMessage(state, textArg(args.channel), textArg(args.ts));
  if (!message) return { ok: false, error: 'message_not_found' };
  edit(state, message, textArg(args.text), blocksArg(args.blocks));
  return { channel: message.channel, ts: message.ts };
}

/**
 * `users.info`: where the user belongs (`team_id`), their roles and zone. A user the fake was not told
 * of is a plain member of the app's team, with no zone (as payloads take them to be).
 */
function userInfo(state: SlackState, args: Args): Args {
  const id = textArg(args.user);
  const user = state.users.get(id);
  if (!user) return { user: { id, team_id: state.app?.teamId ?? 'T0LOCAL', name: id.toLowerCase() } };
  return { user: userObject(state, id, user) };
}

/**
 * `users.list`: every user the fake knows, `limit` at a time with Slack's cursor, each with their own
 * `team_id` and roles: a partner organisation's users (Slack Connect) are listed too, as a workspace
 * sharing channels with them may see them, so the app must tell its own members apart.
 */
function usersList(state: SlackState, args: Args): Args {
  const all = [...state.users.entries()];
  const start = Number(textArg(args.cursor) || '0');
  const limit = Math.min(Number(textArg(args.limit) || '100'), 1000);
  const next = start + limit < all.length ? String(start + limit) : '';
  const members = all.slice(start, start + limit).map(([id, user]) => userObject(state, id, user));
  return { members, response_metadata: { next_cursor: next } };
}

/** A user as `users.info` and `users.list` show them: their team, roles, zone and Grid org. */
function userObject(state: SlackState, id: string, user: WorkspaceUser): Args {
  const roles = {
    ...(user.isAdmin ? { is_admin: true } : {}),
    ...(user.isOwner ? { is_owner: true } : {}),
    ...(user.isGuest ? { is_restricted: true } : {}),
  };
  const teamId = user.teamId ?? state.app?.teamId;
  const enterpriseId = teamId ? state.enterpriseOfTeam.get(teamId) : undefined;
  // A member of a Grid org's workspace: their org roles, and the org's workspaces they belong to.
  const enterpriseUser = enterpriseId
    ? {
        enterprise_user: {
          id,
          enterprise_id: enterpriseId,
          is_admin: user.isOrgAdmin === true,
          teams: [teamId, ...(user.alsoIn ?? [])],
        },
      }
    : {};
  return { id, team_id: teamId, name: user.name, tz: user.tz, ...roles, ...enterpriseUser };
}

function conversationInfo(state: SlackState, args: Args): Args {
  const id = textArg(args.channel);
  const error = channelError(state, id);
  if (error === 'channel_not_found') return { ok: false, error };
  const name = state.channelNames.get(id);
  return { channel: { id, ...(name ? { name } : {}), is_member: !state.botNotIn.has(id) } };
}

/**
 * users.conversations for `user`: the channels they are in that the bot is in too (what a bot token
 * sees), a page of `limit` at a time with Slack's cursor.
 */
function userConversations(state: SlackState, args: Args): Args {
  const user = textArg(args.user);
  const memberOf = (channel: string) => state.channelMembers.get(channel)?.has(user) ?? true;
  const visible = [...state.channels].filter((channel) => !state.botNotIn.has(channel) && memberOf(channel));
  const start = Number(textArg(args.cursor) || '0');
  const limit = Math.min(Number(textArg(args.limit) || '100'), 1000);
  const page = visible.slice(start, start + limit);
  const next = start + limit < visible.length ? String(start + limit) : '';
  return { channels: page.map((id) => ({ id })), response_metadata: { next_cursor: next } };
}

/**
 * files.completeUploadExternal: the uploaded files are shared as one message in the channel (in the
 * thread of `thread_ts`), its text the `initial_comment`, as Slack shows a file upload.
 */
function completeUpload(state: SlackState, args: Args): Args {
  const channel = conversationOf(state, textArg(args.channel_id));
  const error = channelError(state, channel);
  if (error) return { ok: false, error };
  const listed = Array.isArray(args.files) ? (args.files as { id?: unknown; title?: unknown }[]) : [];
  const files: FakeFile[] = [];
  for (const { id, title } of listed) {
    const upload = state.uploads.get(textArg(id));
    if (upload?.content === undefined) return { ok: false, error: 'file_not_found' };
    files.push({
      id: textArg(id),
      name: upload.name,
      title: textArg(title) || upload.name,
      content: upload.content,
    });
  }
  if (files.length === 0) return { ok: false, error: 'invalid_arguments' };
  store(state, {
    channel,
    ts: nextTs(state),
    ...(args.thread_ts ? { threadTs: textArg(args.thread_ts) } : {}),
    text: textArg(args.initial_comment),
    blocks: [],
    user: state.botUserId,
    files,
  });
  return { files: files.map(({ id, title }) => ({ id, title })) };
}

/** The POST to an upload URL: the file's bytes, as multipart form data (the Web API client's way) or raw. */
async function receiveUpload(
  state: SlackState,
  request: IncomingMessage,
  response: ServerResponse,
  id: string,
) {
  const upload = state.uploads.get(id);
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  state.calls.push({ method: 'upload', args: { file_id: id, bytes: raw.length } });
  if (!upload) return sendJson(response, 404, { ok: false, error: 'file_not_found' });
  const type = request.headers['content-type'] ?? '';
  if (type.startsWith('multipart/form-data')) {
    const form = await new Response(raw, { headers: { 'content-type': type } }).formData();
    const part = [...form.values()].find((value) => typeof value !== 'string');
    upload.content = part ? await part.text() : '';
  } else upload.content = raw.toString('utf8');
  response.writeHead(200, { 'content-type': 'text/plain' });
  response.end(`OK - ${raw.length}`);
}

/** The Web API methods the bot calls, by name; each answers the fields besides `ok: true`. */
const WEB_API: Record<string, (state: SlackState, args: Args) => Args> = {
  'auth.test': (state) => ({
    user_id: state.botUserId,
    bot_id: 'BBOT',
    team_id: 'T0LOCAL',
    user: 'eventbot',
  }),
  'chat.postMessage': postMessage,
  'chat.postEphemeral': postEphemeral,
  'chat.update': updateMessage,
  'users.info': userInfo,
  'users.list': usersList,
  'conversations.info': conversationInfo,
  'users.conversations': userConversations,
  // A group the workspace does not have is Slack's `no_such_subteam`.
  'usergroups.users.list': (state, args) => {
    const users = state.userGroups.get(textArg(args.usergroup));
    return users ? { users } : { ok: false, error: 'no_such_subteam' };
  },
  'files.getUploadURLExternal': (state, args) => {
    const fileId = `F${String(++state.seq).padStart(8, '0')}`;
    state.uploads.set(fileId, { name: textArg(args.filename) });
    return { file_id: fileId, upload_url: `${state.baseUrl}/upload/${fileId}` };
  },
  'files.completeUploadExternal': completeUpload,
  'conversations.open': (state, args) => {
    const user = textArg(args.users).split(',')[0] ?? '';
    if (!state.users.has(user)) return { ok: false, error: 'user_not_found' };
    return { channel: { id: appDmOf(user) } };
  },
};

const canvasesIn = (state: SlackState, channel?: string) =>
  [...state.canvases.canvases.values()].filter((c) => channel === undefined || c.channel === channel);

/** A canvas call; the page is told of the change. */
function canvasMethod(state: SlackState, method: string) {
  const carryOut = canvasWebApi(
    state.canvases,
    (channel) => channelError(state, channel),
    () => state.callerTeam,
  )[method];
  if (!carryOut) return undefined;
  return (_: SlackState, args: Args) => {
    const result = carryOut(args);
    changed(state);
    return result;
  };
}

/** A modal, Home tab, unfurl or workflow step call; the page is told of the change. */
function surfaceMethod(state: SlackState, method: string) {
  const carryOut = surfaceWebApi(state.surfaces, () => state.stored)[method];
  if (!carryOut) return undefined;
  return (_: SlackState, args: Args) => {
    const result = carryOut(args);
    changed(state);
    return result;
  };
}

// --- HTTP ---

async function handleRequest(state: SlackState, request: IncomingMessage, response: ServerResponse) {
  try {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (await servePage(request, response, url, pageContext(state))) return;
    const uploadId = url.pathname.match(/^\/upload\/(\w+)$/)?.[1];
    if (uploadId) return await receiveUpload(state, request, response, uploadId);
    if (url.pathname === '/oauth/v2/authorize') {
      const { status, location } = authorizeRedirect(state.oauth, url);
      response.writeHead(status, location ? { location } : {});
      return void response.end();
    }
    const args = await readBody(request);
    const responseId = url.pathname.match(/^\/response\/([\w-]+)$/)?.[1];
    if (responseId) return answerResponseUrl(state, response, responseId, args);
    answerWebApi(state, request, response, url.pathname.replace(/^\/api\//, ''), args);
  } catch (error) {
    sendJson(response, 500, { ok: false, error: String(error) });
  }
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<Args> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  if (!raw) return {};
  if ((request.headers['content-type'] ?? '').includes('application/json')) return JSON.parse(raw) as Args;
  const args: Args = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    // The Web API client sends arrays and objects as JSON strings inside the form.
    args[key] = /^[[{]/.test(value) ? safeJson(value) : value;
  }
  return args;
}

/** A Web API call: recorded, then failed as `failNext` asked, or carried out. */
function answerWebApi(
  state: SlackState,
  request: IncomingMessage,
  response: ServerResponse,
  method: string,
  args: Args,
) {
  const authorization = request.headers.authorization;
  state.calls.push({ method, args, ...(authorization ? { authorization } : {}) });
  const failure = takeFailure(state, method);
  if (failure === 'ratelimited')
    return sendJson(response, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': '1' });
  // `slow:<ms>`: Slack does the call, then answers late (the caller may give up first).
  const slowMs = failure?.startsWith('slow:') ? Number(failure.slice(5)) : 0;
  if (failure && !slowMs) return sendJson(response, 200, { ok: false, error: failure });
  // OAuth methods authenticate the app's client, not a token.
  if (method.startsWith('oauth.'))
    return sendJson(response, 200, answerOAuth(state.oauth, method, args, authorization));
  if (!authorization?.startsWith('Bearer '))
    return sendJson(response, 200, { ok: false, error: 'not_authed' });
  const carryOut = WEB_API[method] ?? surfaceMethod(state, method) ?? canvasMethod(state, method);
  if (!carryOut) return sendJson(response, 200, { ok: false, error: 'unknown_method' });
  state.callerTeam = tokenTeam(state.oauth, authorization);
  let result: Args;
  try {
    result = carryOut(state, args);
  } finally {
    state.callerTeam = undefined;
  }
  if (method === 'auth.test') Object.assign(result, tokenIdentity(state.oauth, authorization));
  if (slowMs) return void setTimeout(() => sendJson(response, 200, { ok: true, ...result }), slowMs);
  sendJson(response, 200, { ok: true, ...result });
}

function takeFailure(state: SlackState, method: string): string | undefined {
  const queue = state.failures.get(method);
  const next = queue?.[0];
  if (!next) return undefined;
  next.times -= 1;
  if (next.times <= 0) queue.shift();
  return next.error;
}

/** A message sent to a response_url: a reply, or the replacement or deletion of the message it answers. */
function answerResponseUrl(state: SlackState, response: ServerResponse, id: string, args: Args) {
  const target = state.responseTargets.get(id);
  if (!target) return sendJson(response, 404, { ok: false, error: 'expired_url' });
  state.calls.push({ method: 'response_url', args });
  const original = findMessage(state, target.channel, target.messageTs);
  // A reply can overtake the ack it replaces (the ack travels back through the test's HTTP client).
  if ((args.delete_original || args.replace_original) && !target.messageTs) target.superseded = true;
  if (args.delete_original) {
    if (original) state.stored.splice(state.stored.indexOf(original), 1);
    changed(state);
  } else if (args.replace_original && original) {
    edit(state, original, textArg(args.text), blocksArg(args.blocks));
  } else {
    const reply = store(state, {
      channel: target.channel,
      ts: nextTs(state),
      text: textArg(args.text),
      blocks: blocksArg(args.blocks),
      user: state.botUserId,
      ...(target.teamId ? { teamId: target.teamId } : {}),
      ...(args.response_type === 'in_channel' ? {} : { visibleTo: target.user }),
    });
    if (args.replace_original && !target.messageTs) target.messageTs = reply.ts;
  }
  sendJson(response, 200, { ok: true });
}

// --- The app: slash commands, acks and clicks ---

function newResponseUrl(
  state: SlackState,
  channel: string,
  user: string,
  messageTs?: string,
  teamId?: string,
): string {
  const id = `r${++state.responseSeq}`;
  state.responseTargets.set(id, {
    channel,
    user,
    ...(messageTs ? { messageTs } : {}),
    ...(teamId ? { teamId } : {}),
  });
  return `${state.baseUrl}/response/${id}`;
}

async function deliver(
  state: SlackState,
  body: string,
  headers: Record<string, string> = {},
): Promise<AppAnswer> {
  if (!state.app) throw new Error('no app is connected to the local Slack (connectApp)');
  const started = performance.now();
  const response = await fetch(state.app.requestUrl, {
    method: 'POST',
    headers: { ...signedHeaders(state.app.signingSecret, body), ...headers },
    body,
  });
  const text = await response.text();
  return { status: response.status, body: text, ms: Math.round(performance.now() - started) };
}

/** A member's own workspace, when they have one (else they are of the app's team). */
const teamOf = (state: SlackState, user: string): string | undefined => state.users.get(user)?.teamId;

/** A workspace as payloads name it: with its org, and whether the app is installed org-wide there. */
function workspaceOf(state: SlackState, teamId: string): Workspace {
  const enterpriseId = state.enterpriseOfTeam.get(teamId);
  if (!enterpriseId) return { teamId };
  return {
    teamId,
    enterprise: { id: enterpriseId, orgWideInstall: servedOrgWide(state.oauth, enterpriseId, teamId) },
  };
}

/**
 * Who acts, as payloads name them: in `teamId` when given (a user of another team acting there is a
 * Slack Connect guest: their payloads name their own team as `user.team_id`), else in their own team.
 */
function actorOf(state: SlackState, user: string, channel: string, teamId?: string): Actor {
  const userName = state.users.get(user)?.name;
  const ownTeam = teamOf(state, user);
  return {
    ...workspaceOf(state, teamId ?? ownTeam ?? state.app?.teamId ?? 'T0LOCAL'),
    userId: user,
    channelId: channel,
    ...(userName ? { userName } : {}),
    ...(teamId && ownTeam && ownTeam !== teamId ? { userTeamId: ownTeam } : {}),
  };
}

/** Why Slack would show the user an error for this answer: a non-200, or (kept) no answer within 3 s. */
function appFailure(state: SlackState, answer: AppAnswer): string | undefined {
  if (answer.status !== 200) return `http_${answer.status}`;
  if (state.slackDeadlines && answer.ms > SLACK_DEADLINE_MS) return 'operation_timeout';
  return undefined;
}

async function sendCommand(state: SlackState, input: CommandInput): Promise<AppAnswer> {
  const { user, channel, text } = input;
  const teamId = input.teamId ?? teamOf(state, user);
  const command = state.app?.command ?? '/events';
  // Slack never shows the typed command to others; the page keeps it, for the user only.
  store(state, {
    channel,
    ts: nextTs(state),
    text: `${command} ${text}`.trim(),
    blocks: [],
    user,
    visibleTo: user,
    ...(teamId ? { teamId } : {}),
  });
  const url = newResponseUrl(state, channel, user, undefined, teamId);
  const answer = await deliver(state, slashCommandBody(actorOf(state, user, channel, teamId), text, url));
  const failure = appFailure(state, answer);
  if (failure) {
    slackbotNote(state, channel, user, `${command} failed with the error "${failure}"`);
    return answer;
  }
  recordAck(state, url, answer.body);
  return answer;
}

/**
 * Shows a slash command's immediate answer as Slack does (only the user sees an ephemeral one), and
 * makes it the message its `response_url` replaces or deletes, as Slack does.
 */
function recordAck(state: SlackState, url: string, body: string) {
  const target = state.responseTargets.get(url.split('/').pop() ?? '');
  const ack = parseAck(body);
  if (!target || !ack || target.superseded) return;
  const message = store(state, {
    channel: target.channel,
    ts: nextTs(state),
    text: typeof ack.text === 'string' ? ack.text : '',
    blocks: blocksArg(ack.blocks),
    user: state.botUserId,
    ...(target.teamId ? { teamId: target.teamId } : {}),
    ...(ack.response_type === 'in_channel' ? {} : { visibleTo: target.user }),
  });
  target.messageTs = message.ts;
}

/** The ack's body, when the app answered with a message (an empty ack shows nothing). */
function parseAck(body: string): Args | undefined {
  if (!body.trim()) return undefined;
  const parsed = safeJson(body);
  if (typeof parsed === 'object' && parsed !== null) return parsed as Args;
  return { text: body };
}

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** The button `actionId` of the message, else of the app's unfurls on it (with the unfurled link). */
function findButton(state: SlackState, message: SlackMessage, input: ClickInput) {
  const matches = (candidate: { blockId: string; button: ButtonElement }) =>
    candidate.button.action_id === input.actionId &&
    (input.blockId === undefined || candidate.blockId === input.blockId);
  const inMessage = input.unfurlUrl === undefined ? buttonsOf(message).find(matches) : undefined;
  if (inMessage) return { clicked: inMessage };
  for (const unfurl of unfurlsOf(state, message)) {
    if (input.unfurlUrl !== undefined && unfurl.url !== input.unfurlUrl) continue;
    const clicked = buttonsOf(unfurl).find(matches);
    if (clicked) return { clicked, unfurlUrl: unfurl.url };
  }
  return undefined;
}

async function click(state: SlackState, input: ClickInput): Promise<AppAnswer> {
  const { user, channel, ts, actionId } = input;
  const message = findMessage(state, channel, ts);
  if (!message) throw new Error(`no message ${ts} in ${channel}`);
  const found = findButton(state, message, input);
  if (!found) throw new Error(`no button ${actionId} on message ${ts}`);
  const { clicked, unfurlUrl } = found;
  // A reply to an unfurl's button cannot replace the message: it is the user's, not the app's.
  const teamId = input.teamId ?? teamOf(state, user);
  const url = newResponseUrl(state, channel, user, unfurlUrl ? undefined : ts, teamId);
  const actor = actorOf(state, user, channel, teamId);
  const answer = await deliver(state, blockActionsBody(actor, message, clicked, url, unfurlUrl));
  const failure = appFailure(state, answer);
  if (failure)
    slackbotNote(
      state,
      channel,
      user,
      `The app did not answer the click on "${clicked.button.text.text}" (${failure})`,
    );
  return answer;
}

// --- Events, shortcuts and views ---

let events = 0;

function sendEvent(state: SlackState, event: Args, options: EventOptions = {}): Promise<EventAnswer> {
  return deliverEvent(
    state,
    workspaceOf(state, options.teamId ?? state.app?.teamId ?? 'T0LOCAL'),
    event,
    options,
  );
}

function uninstall(state: SlackState, { teamId, orgWide = false }: { teamId: string; orgWide?: boolean }) {
  const { enterprise } = workspaceOf(state, teamId);
  revokeInstall(state.oauth, { teamId, orgWide });
  const named = enterprise
    ? { teamId, enterprise: { id: enterprise.id, orgWideInstall: orgWide } }
    : { teamId };
  return deliverEvent(state, named, { type: 'app_uninstalled' }, {});
}

async function deliverEvent(
  state: SlackState,
  workspace: Workspace,
  event: Args,
  { eventId = `Ev${Date.now()}${++events}`, retryNum }: EventOptions,
): Promise<EventAnswer> {
  const body = eventCallbackBody(workspace, event, eventId);
  const retry = retryNum
    ? { 'x-slack-retry-num': String(retryNum), 'x-slack-retry-reason': 'http_timeout' }
    : {};
  const answer = await deliver(state, body, { 'content-type': 'application/json', ...retry });
  return { ...answer, eventId };
}

function openHome(state: SlackState, user: string, teamId = teamOf(state, user)) {
  const id = state.surfaces.homes.get(user);
  const view = id ? state.surfaces.views.get(id) : undefined;
  return sendEvent(
    state,
    {
      type: 'app_home_opened',
      user,
      channel: `D${user}`,
      tab: 'home',
      ...(view ? { view: { id: view.id, type: 'home', hash: view.hash } } : {}),
    },
    teamId ? { teamId } : {},
  );
}

const LINK = /<?(https?:\/\/[^\s<>|]+)(?:\|[^>]*)?>?/g;

/** The links of a message's text, once each, whether typed bare or as Slack's `<url|label>`. */
function linksIn(text: string): string[] {
  return [...new Set([...text.matchAll(LINK)].map((match) => match[1] ?? ''))].filter((url) => {
    try {
      return Boolean(new URL(url).hostname);
    } catch {
      return false;
    }
  });
}

async function sendMessage(state: SlackState, { user, channel, text }: MessageInput) {
  const links = linksIn(text);
  // Slack stores a typed link as `<url>`, which is how the page and the app see it.
  const stored = text.replace(LINK, (all: string, url: string) => (all.startsWith('<') ? all : `<${url}>`));
  const message = store(state, { channel, ts: nextTs(state), text: stored, blocks: [], user });
  const domains = state.app?.unfurlDomains;
  const ours = links
    .map((url) => ({ domain: new URL(url).hostname, url }))
    .filter(({ domain }) => !domains || domains.some((d) => domain === d || domain.endsWith(`.${d}`)));
  if (ours.length === 0) return undefined;
  const team = teamOf(state, user);
  return sendEvent(
    state,
    {
      type: 'link_shared',
      channel,
      user,
      message_ts: message.ts,
      unfurl_id: `${message.ts}.${user}`,
      source: 'conversations_history',
      links: ours,
    },
    team ? { teamId: team } : {},
  );
}

function globalShortcut(state: SlackState, { user, callbackId }: { user: string; callbackId: string }) {
  return deliver(state, globalShortcutBody(actorOf(state, user, ''), callbackId));
}

function messageShortcut(
  state: SlackState,
  { user, channel, ts, callbackId }: { user: string; channel: string; ts: string; callbackId: string },
) {
  const message = findMessage(state, channel, ts);
  if (!message) throw new Error(`no message ${ts} in ${channel}`);
  const url = newResponseUrl(state, channel, user);
  return deliver(state, messageShortcutBody(actorOf(state, user, channel), message, callbackId, url));
}

async function submitView(state: SlackState, { user, values }: { user: string; values: Args }) {
  const view = topModal(state.surfaces, user);
  if (!view) throw new Error(`${user} has no modal open`);
  delete view.errors;
  // Conversation pickers with `response_url_enabled` get a response_url for the chosen conversation.
  const responseUrls = responseUrlFields(view.view, values).map((field) => ({
    block_id: field.blockId,
    action_id: field.actionId,
    channel_id: field.channelId,
    response_url: newResponseUrl(state, field.channelId, user),
  }));
  const body = viewSubmissionBody(actorOf(state, user, ''), view, values, responseUrls);
  const answer = await deliver(state, body);
  if (answer.status === 200) applySubmissionAnswer(state.surfaces, view, answer.body);
  else
    slackbotNote(
      state,
      appDmOf(user),
      user,
      `The app did not answer the form (${appFailure(state, answer)})`,
    );
  changed(state);
  return answer;
}

async function submitForm(state: SlackState, { user, inputs }: { user: string; inputs: FormInputs }) {
  const view = topModal(state.surfaces, user);
  if (!view) throw new Error(`${user} has no modal open`);
  const values = stateValues(view.view, withInitialValues(view.view, inputs));
  const missing = missingRequired(view.view, values);
  if (Object.keys(missing).length > 0) {
    view.errors = missing;
    changed(state);
    return undefined;
  }
  return submitView(state, { user, values });
}

async function closeView(state: SlackState, { user }: { user: string }) {
  const view = closeTopModal(state.surfaces, user);
  changed(state);
  if (!view || view.view.notify_on_close !== true) return undefined;
  return deliver(state, viewClosedBody(actorOf(state, user, ''), view, false));
}

function clickInView(state: SlackState, input: Parameters<FakeSlack['clickInView']>[0]) {
  const view = input.viewId ? state.surfaces.views.get(input.viewId) : topModal(state.surfaces, input.user);
  if (!view) throw new Error(`no view to click in for ${input.user}`);
  const clicked = buttonsOf({ blocks: Array.isArray(view.view.blocks) ? view.view.blocks : [] }).find(
    (c) =>
      c.button.action_id === input.actionId && (input.blockId === undefined || c.blockId === input.blockId),
  );
  const action = input.action ?? (clicked ? { ...clicked.button, block_id: clicked.blockId } : undefined);
  if (!action) throw new Error(`no button ${input.actionId} in view ${view.id}`);
  const values = input.inputs ? stateValues(view.view, input.inputs) : input.values;
  return deliver(state, viewActionBody(actorOf(state, input.user, ''), view, action, values));
}

async function runFunction(state: SlackState, { callbackId, inputs }: { callbackId: string; inputs: Args }) {
  const functionExecutionId = `Fx${Date.now()}${++events}`;
  const answer = await sendEvent(state, {
    type: 'function_executed',
    function: { id: `Fn0${callbackId}`, callback_id: callbackId, title: callbackId, type: 'app' },
    inputs,
    function_execution_id: functionExecutionId,
    workflow_execution_id: `Wx${Date.now()}${events}`,
    bot_access_token: 'xwfp-local-workflow-token',
  });
  return { ...answer, functionExecutionId };
}

// --- The page ---

/** The app's unfurls of a message's links, the latest per link (`chat.unfurl` again replaces one). */
function unfurlsOf(state: SlackState, message: Pick<SlackMessage, 'channel' | 'ts'>): PageUnfurl[] {
  const byUrl = new Map<string, PageUnfurl>();
  for (const unfurl of state.surfaces.unfurls) {
    if (unfurl.channel !== message.channel || unfurl.ts !== message.ts) continue;
    for (const [url, attachment] of Object.entries(unfurl.unfurls)) {
      const shown = (attachment ?? {}) as Args;
      const blocks = blocksArg(shown.blocks);
      const fallback = [shown.title, shown.text].map(textArg).filter(Boolean).join('\n');
      byUrl.set(url, {
        channel: message.channel,
        ts: message.ts,
        url,
        blocks,
        text: fallback,
        warnings: blocks.length > 0 ? blockKitViolations('unfurl', blocks) : [],
      });
    }
  }
  return [...byUrl.values()];
}

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

function pageContext(state: SlackState): PageContext {
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
