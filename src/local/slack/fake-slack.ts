import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { blockKitViolations } from './block-kit-check.ts';
import { type LocalApp, type LocalPanel, type PageContext, type PageState, servePage } from './page-api.ts';
import { type Actor, blockActionsBody, buttonsOf, slashCommandBody } from './payloads.ts';
import { signedHeaders } from './sign.ts';

export type { CommandHelp, LocalApp, LocalPanel } from './page-api.ts';

import type { AppAnswer, SlackMessage } from './messages.ts';

export type { AppAnswer, SlackMessage } from './messages.ts';
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
  /** Workspace members; `title` is shown under the user switch on the page (e.g. "spend approver"). */
  users?: Record<string, { name: string; tz: string; title?: string }>;
  /** Display names of channels (the page's channel list); the id is shown otherwise. */
  channelNames?: Record<string, string>;
}

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
  responseUrl(channel: string, user: string, messageTs?: string): string;
  /**
   * The next calls to `method` answer `{ ok: false, error }` (or HTTP 429 for `ratelimited`); with
   * `slow:<ms>` they are carried out but answered `ms` late.
   */
  failNext(method: string, error: string, times?: number): void;
  /** Records a slash command's HTTP answer (the ack) as the message its `response_url` can replace. */
  recordAck(responseUrl: string, body: string): void;
  /** Reacts to every stored message change (for the dev page's live view). */
  onChange(listener: () => void): () => void;
  addUser(id: string, user: { name: string; tz: string; title?: string }): void;
  /**
   * Where this Slack sends slash commands and button clicks (signed with the app's signing secret),
   * as the page's composer and buttons do. Without it the page is read-only.
   */
  connectApp(app: LocalApp): void;
  /** The page's side panel: the credit account and the "Run now" jobs. */
  setPanel(panel: LocalPanel): void;
  /** Sends `/events <text>` as `user` in `channel`, exactly as Slack would; shows the ack as Slack does. */
  sendCommand(input: { user: string; channel: string; text: string }): Promise<AppAnswer>;
  /** Clicks a button of a stored message as `user` (a signed `block_actions` payload). */
  click(input: {
    user: string;
    channel: string;
    ts: string;
    actionId: string;
    blockId?: string;
  }): Promise<AppAnswer>;
  close(): Promise<void>;
}

type Args = Record<string, unknown>;
type WorkspaceUser = { name: string; tz: string; title?: string };
type CommandInput = Parameters<FakeSlack['sendCommand']>[0];
type ClickInput = Parameters<FakeSlack['click']>[0];

/** Where a response_url's messages go; `superseded` when the app replaced its ack before the ack was shown. */
interface ResponseTarget {
  channel: string;
  user: string;
  messageTs?: string | undefined;
  superseded?: boolean;
}

/** All the fake keeps: the workspace, its messages, the calls made, and the app it talks to. */
interface SlackState {
  botUserId: string;
  channels: Set<string>;
  botNotIn: Set<string>;
  users: Map<string, WorkspaceUser>;
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
}

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const state = createState(options);
  const server = createServer((request, response) => void handleRequest(state, request, response));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  state.baseUrl = url;

  return {
    url,
    apiUrl: `${url}/api/`,
    botUserId: state.botUserId,
    calls: state.calls,
    messages: (channel) => state.stored.filter((m) => channel === undefined || m.channel === channel),
    responseUrl: (channel, user, messageTs) => newResponseUrl(state, channel, user, messageTs),
    recordAck: (responseUrl, body) => recordAck(state, responseUrl, body),
    failNext: (method, error, times = 1) => {
      const queue = state.failures.get(method) ?? [];
      queue.push({ error, times });
      state.failures.set(method, queue);
    },
    onChange: (listener) => subscribe(state, listener),
    addUser: (id, user) => {
      state.users.set(id, user);
      changed(state);
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
    users: new Map(Object.entries(options.users ?? { U0ALICE: { name: 'alice', tz: 'Europe/Berlin' } })),
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
  const full = { ...message, warnings: blockKitViolations(message.text, message.blocks) };
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

function channelError(state: SlackState, channel: string): string | undefined {
  if (!state.channels.has(channel)) return 'channel_not_found';
  if (state.botNotIn.has(channel)) return 'not_in_channel';
  return undefined;
}

function postMessage(state: SlackState, args: Args): Args {
  const channel = textArg(args.channel);
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
  const channel = textArg(args.channel);
  if (!state.channels.has(channel)) return { ok: false, error: 'channel_not_found' };
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

function userInfo(state: SlackState, args: Args): Args {
  const id = textArg(args.user);
  const user = state.users.get(id);
  if (!user) return { ok: false, error: 'user_not_found' };
  return { user: { id, name: user.name, tz: user.tz } };
}

function conversationInfo(state: SlackState, args: Args): Args {
  const id = textArg(args.channel);
  const error = channelError(state, id);
  if (error === 'channel_not_found') return { ok: false, error };
  return { channel: { id, is_member: !state.botNotIn.has(id) } };
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
  'conversations.info': conversationInfo,
};

// --- HTTP ---

async function handleRequest(state: SlackState, request: IncomingMessage, response: ServerResponse) {
  try {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (await servePage(request, response, url, pageContext(state))) return;
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
  if (!authorization?.startsWith('Bearer '))
    return sendJson(response, 200, { ok: false, error: 'not_authed' });
  const carryOut = WEB_API[method];
  if (!carryOut) return sendJson(response, 200, { ok: false, error: 'unknown_method' });
  const result = carryOut(state, args);
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
      ...(args.response_type === 'in_channel' ? {} : { visibleTo: target.user }),
    });
    if (args.replace_original && !target.messageTs) target.messageTs = reply.ts;
  }
  sendJson(response, 200, { ok: true });
}

// --- The app: slash commands, acks and clicks ---

function newResponseUrl(state: SlackState, channel: string, user: string, messageTs?: string): string {
  const id = `r${++state.responseSeq}`;
  state.responseTargets.set(id, { channel, user, ...(messageTs ? { messageTs } : {}) });
  return `${state.baseUrl}/response/${id}`;
}

async function deliver(state: SlackState, body: string): Promise<AppAnswer> {
  if (!state.app) throw new Error('no app is connected to the local Slack (connectApp)');
  const started = performance.now();
  const response = await fetch(state.app.requestUrl, {
    method: 'POST',
    headers: signedHeaders(state.app.signingSecret, body),
    body,
  });
  const text = await response.text();
  return { status: response.status, body: text, ms: Math.round(performance.now() - started) };
}

function actorOf(state: SlackState, user: string, channel: string): Actor {
  const userName = state.users.get(user)?.name;
  return {
    teamId: state.app?.teamId ?? 'T0LOCAL',
    userId: user,
    channelId: channel,
    ...(userName ? { userName } : {}),
  };
}

/** Why Slack would show the user an error for this answer: a non-200, or no answer within 3 s. */
function appFailure(answer: AppAnswer): string | undefined {
  if (answer.status !== 200) return `http_${answer.status}`;
  if (answer.ms > 3000) return 'operation_timeout';
  return undefined;
}

async function sendCommand(state: SlackState, { user, channel, text }: CommandInput): Promise<AppAnswer> {
  const command = state.app?.command ?? '/events';
  // Slack never shows the typed command to others; the page keeps it, for the user only.
  store(state, {
    channel,
    ts: nextTs(state),
    text: `${command} ${text}`.trim(),
    blocks: [],
    user,
    visibleTo: user,
  });
  const url = newResponseUrl(state, channel, user);
  const answer = await deliver(state, slashCommandBody(actorOf(state, user, channel), text, url));
  const failure = appFailure(answer);
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

async function click(
  state: SlackState,
  { user, channel, ts, actionId, blockId }: ClickInput,
): Promise<AppAnswer> {
  const message = findMessage(state, channel, ts);
  if (!message) throw new Error(`no message ${ts} in ${channel}`);
  const clicked = buttonsOf(message).find(
    (candidate) =>
      candidate.button.action_id === actionId && (blockId === undefined || candidate.blockId === blockId),
  );
  if (!clicked) throw new Error(`no button ${actionId} on message ${ts}`);
  const url = newResponseUrl(state, channel, user, ts);
  const answer = await deliver(state, blockActionsBody(actorOf(state, user, channel), message, clicked, url));
  const failure = appFailure(answer);
  if (failure)
    slackbotNote(
      state,
      channel,
      user,
      `The app did not answer the click on "${clicked.button.text.text}" (${failure})`,
    );
  return answer;
}

// --- The page ---

function pageContext(state: SlackState): PageContext {
  return {
    state: (user) => pageState(state, user),
    onChange: (listener) => subscribe(state, listener),
    sendCommand: (input) => sendCommand(state, input),
    click: (input) => click(state, input),
    panel: () => state.panel,
  };
}

function pageState(state: SlackState, user: string | undefined): PageState {
  const { app, panel } = state;
  return {
    botUserId: state.botUserId,
    channels: [...state.channels].map((id) => ({ id, name: state.channelNames.get(id) ?? id })),
    users: [...state.users].map(([id, { name, title }]) => ({ id, name, ...(title ? { title } : {}) })),
    command: app ? { name: app.command ?? '/events', help: app.commandHelp ?? [] } : undefined,
    jobs: Object.keys(panel.jobs ?? {}),
    hasAccount: Boolean(panel.account),
    // Ephemeral messages reach only the user they were sent to, as in Slack.
    messages: state.stored.filter((m) => m.visibleTo === undefined || m.visibleTo === user),
  };
}
