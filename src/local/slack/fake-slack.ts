import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { blockKitViolations } from './block-kit-check.ts';
import { type LocalApp, type LocalPanel, servePage } from './page-api.ts';
import { type Actor, blockActionsBody, buttonsOf, slashCommandBody } from './payloads.ts';
import { signedHeaders } from './sign.ts';

export type { CommandHelp, LocalApp, LocalPanel } from './page-api.ts';

/**
 * A local stand-in for Slack's Web API and `response_url`s. It keeps channels and their messages
 * (with threads and in-place updates), records every call, checks what the bot sends against Block
 * Kit's limits, and can be told to fail the next calls. The dev page and the integration tests share it.
 */
export interface SlackMessage {
  channel: string;
  ts: string;
  threadTs?: string;
  text: string;
  blocks: unknown[];
  user: string;
  /** Set on ephemeral messages: only this user sees it. */
  visibleTo?: string;
  edited?: boolean;
  warnings: string[];
}

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

/** The app's HTTP answer to a command or a click, and how long it took (Slack allows 3 s). */
export interface AppAnswer {
  status: number;
  body: string;
  ms: number;
}

async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  if (!raw) return {};
  if ((request.headers['content-type'] ?? '').includes('application/json')) return JSON.parse(raw);
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    // The Web API client sends arrays and objects as JSON strings inside the form.
    args[key] = /^[[{]/.test(value) ? safeJson(value) : value;
  }
  return args;
}

/** Why Slack would show the user an error for this answer: a non-200, or no answer within 3 s. */
function appFailure(answer: AppAnswer): string | undefined {
  if (answer.status !== 200) return `http_${answer.status}`;
  if (answer.ms > 3000) return 'operation_timeout';
  return undefined;
}

/** The ack's body, when the app answered with a message (an empty ack shows nothing). */
function parseAck(body: string): Record<string, unknown> | undefined {
  if (!body.trim()) return undefined;
  const parsed = safeJson(body);
  if (typeof parsed === 'object' && parsed !== null) return parsed as Record<string, unknown>;
  return { text: body };
}

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const botUserId = options.botUserId ?? 'UBOT';
  const channels = new Set(options.channels ?? ['C0GENERAL', 'C0EVENTS']);
  const botNotIn = new Set(options.botNotIn ?? []);
  const users = new Map(Object.entries(options.users ?? { U0ALICE: { name: 'alice', tz: 'Europe/Berlin' } }));
  const channelNames = new Map(Object.entries(options.channelNames ?? {}));
  const calls: RecordedCall[] = [];
  const stored: SlackMessage[] = [];
  const failures = new Map<string, { error: string; times: number }[]>();
  const listeners = new Set<() => void>();
  /** Where a response_url's messages go; `superseded` when the app replaced its ack before the ack was shown. */
  const responseTargets = new Map<
    string,
    { channel: string; user: string; messageTs?: string | undefined; superseded?: boolean }
  >();
  let clock = 1_700_000_000;
  let seq = 0;
  const nextTs = () => `${clock++}.${String(++seq).padStart(6, '0')}`;
  const changed = () => {
    for (const listener of listeners) listener();
  };

  const store = (message: Omit<SlackMessage, 'warnings'>): SlackMessage => {
    const full = { ...message, warnings: blockKitViolations(message.text, message.blocks) };
    stored.push(full);
    changed();
    return full;
  };

  const takeFailure = (method: string) => {
    const queue = failures.get(method);
    const next = queue?.[0];
    if (!next) return undefined;
    next.times -= 1;
    if (next.times <= 0) queue.shift();
    return next.error;
  };

  const channelError = (channel: string): string | undefined => {
    if (!channels.has(channel)) return 'channel_not_found';
    if (botNotIn.has(channel)) return 'not_in_channel';
    return undefined;
  };

  const methods: Record<string, (args: Record<string, unknown>) => Record<string, unknown>> = {
    'auth.test': () => ({ user_id: botUserId, bot_id: 'BBOT', team_id: 'T0LOCAL', user: 'eventbot' }),
    'chat.postMessage': (args) => {
      const channel = String(args.channel);
      const error = channelError(channel);
      if (error) return { ok: false, error };
      const message = store({
        channel,
        ts: nextTs(),
        ...(args.thread_ts ? { threadTs: String(args.thread_ts) } : {}),
        text: String(args.text ?? ''),
        blocks: Array.isArray(args.blocks) ? args.blocks : [],
        user: botUserId,
      });
      return { channel, ts: message.ts, message: { text: message.text } };
    },
    'chat.postEphemeral': (args) => {
      const channel = String(args.channel);
      if (!channels.has(channel)) return { ok: false, error: 'channel_not_found' };
      const message = store({
        channel,
        ts: nextTs(),
        text: String(args.text ?? ''),
        blocks: Array.isArray(args.blocks) ? args.blocks : [],
        user: botUserId,
        visibleTo: String(args.user),
      });
      return { message_ts: message.ts };
    },
    'chat.update': (args) => {
      const message = stored.find((m) => m.channel === String(args.channel) && m.ts === String(args.ts));
      if (!message) return { ok: false, error: 'message_not_found' };
      message.text = String(args.text ?? '');
      message.blocks = Array.isArray(args.blocks) ? args.blocks : [];
      message.edited = true;
      message.warnings = blockKitViolations(message.text, message.blocks);
      changed();
      return { channel: message.channel, ts: message.ts };
    },
    'users.info': (args) => {
      const user = users.get(String(args.user));
      if (!user) return { ok: false, error: 'user_not_found' };
      return { user: { id: String(args.user), name: user.name, tz: user.tz } };
    },
    'conversations.info': (args) => {
      const error = channelError(String(args.channel));
      if (error === 'channel_not_found') return { ok: false, error };
      return { channel: { id: String(args.channel), is_member: !botNotIn.has(String(args.channel)) } };
    },
  };

  let app: LocalApp | undefined;
  let panel: LocalPanel = {};
  let baseUrl = '';
  let responseSeq = 0;
  const responseUrl = (channel: string, user: string, messageTs?: string) => {
    const id = `r${++responseSeq}`;
    responseTargets.set(id, { channel, user, ...(messageTs ? { messageTs } : {}) });
    return `${baseUrl}/response/${id}`;
  };

  /** What Slack itself shows when an app answers badly: only the user who acted sees it. */
  const slackbotNote = (channel: string, user: string, text: string) =>
    store({ channel, ts: nextTs(), text, blocks: [], user: 'USLACKBOT', visibleTo: user });

  const deliver = async (body: string): Promise<AppAnswer> => {
    if (!app) throw new Error('no app is connected to the local Slack (connectApp)');
    const started = performance.now();
    const response = await fetch(app.requestUrl, {
      method: 'POST',
      headers: signedHeaders(app.signingSecret, body),
      body,
    });
    const text = await response.text();
    return { status: response.status, body: text, ms: Math.round(performance.now() - started) };
  };

  const actorOf = (user: string, channel: string): Actor => {
    const userName = users.get(user)?.name;
    return {
      teamId: app?.teamId ?? 'T0LOCAL',
      userId: user,
      channelId: channel,
      ...(userName ? { userName } : {}),
    };
  };

  const sendCommand: FakeSlack['sendCommand'] = async ({ user, channel, text }) => {
    const command = app?.command ?? '/events';
    // Slack never shows the typed command to others; the page keeps it, for the user only.
    store({ channel, ts: nextTs(), text: `${command} ${text}`.trim(), blocks: [], user, visibleTo: user });
    const url = responseUrl(channel, user);
    const answer = await deliver(slashCommandBody(actorOf(user, channel), text, url));
    const failure = appFailure(answer);
    if (failure) {
      slackbotNote(channel, user, `${command} failed with the error "${failure}"`);
      return answer;
    }
    recordAck(url, answer.body);
    return answer;
  };

  /**
   * Shows a slash command's immediate answer as Slack does (only the user sees an ephemeral one), and
   * makes it the message its `response_url` replaces or deletes, as Slack does.
   */
  const recordAck = (url: string, body: string) => {
    const target = responseTargets.get(url.split('/').pop() ?? '');
    const ack = parseAck(body);
    if (!target || !ack || target.superseded) return;
    const message = store({
      channel: target.channel,
      ts: nextTs(),
      text: typeof ack.text === 'string' ? ack.text : '',
      blocks: Array.isArray(ack.blocks) ? ack.blocks : [],
      user: botUserId,
      ...(ack.response_type === 'in_channel' ? {} : { visibleTo: target.user }),
    });
    target.messageTs = message.ts;
  };

  const click: FakeSlack['click'] = async ({ user, channel, ts, actionId, blockId }) => {
    const message = stored.find((m) => m.channel === channel && m.ts === ts);
    if (!message) throw new Error(`no message ${ts} in ${channel}`);
    const clicked = buttonsOf(message).find(
      (candidate) =>
        candidate.button.action_id === actionId && (blockId === undefined || candidate.blockId === blockId),
    );
    if (!clicked) throw new Error(`no button ${actionId} on message ${ts}`);
    const body = blockActionsBody(actorOf(user, channel), message, clicked, responseUrl(channel, user, ts));
    const answer = await deliver(body);
    const failure = appFailure(answer);
    if (failure)
      slackbotNote(
        channel,
        user,
        `The app did not answer the click on "${clicked.button.text.text}" (${failure})`,
      );
    return answer;
  };

  const server = createServer(async (request, response) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(body));
    };
    try {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const page = await servePage(request, response, url, {
        state: (user) => pageState(user),
        onChange: (listener) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        sendCommand,
        click,
        panel: () => panel,
      });
      if (page) return;
      const args = await readBody(request);
      const responseMatch = url.pathname.match(/^\/response\/([\w-]+)$/);
      if (responseMatch?.[1]) {
        const target = responseTargets.get(responseMatch[1]);
        if (!target) return send(404, { ok: false, error: 'expired_url' });
        calls.push({ method: 'response_url', args });
        const blocks = Array.isArray(args.blocks) ? args.blocks : [];
        const original = stored.find((m) => m.channel === target.channel && m.ts === target.messageTs);
        // A reply can overtake the ack it replaces (the ack travels back through the test's HTTP client).
        if ((args.delete_original || args.replace_original) && !target.messageTs) target.superseded = true;
        if (args.delete_original) {
          if (original) stored.splice(stored.indexOf(original), 1);
          changed();
          return send(200, { ok: true });
        }
        if (args.replace_original && original) {
          Object.assign(original, { text: String(args.text ?? ''), blocks, edited: true });
          original.warnings = blockKitViolations(original.text, blocks);
          changed();
          return send(200, { ok: true });
        }
        const reply = store({
          channel: target.channel,
          ts: nextTs(),
          text: String(args.text ?? ''),
          blocks,
          user: botUserId,
          ...(args.response_type === 'in_channel' ? {} : { visibleTo: target.user }),
        });
        if (args.replace_original && !target.messageTs) target.messageTs = reply.ts;
        return send(200, { ok: true });
      }
      const method = url.pathname.replace(/^\/api\//, '');
      const authorization = request.headers.authorization;
      calls.push({ method, args, ...(authorization ? { authorization } : {}) });
      const failure = takeFailure(method);
      if (failure === 'ratelimited')
        return send(429, { ok: false, error: 'ratelimited' }, { 'retry-after': '1' });
      // `slow:<ms>`: Slack does the call, then answers late (the caller may give up first).
      const slowMs = failure?.startsWith('slow:') ? Number(failure.slice(5)) : 0;
      if (failure && !slowMs) return send(200, { ok: false, error: failure });
      if (!authorization?.startsWith('Bearer ')) return send(200, { ok: false, error: 'not_authed' });
      const handler = methods[method];
      if (!handler) return send(200, { ok: false, error: 'unknown_method' });
      const result = handler(args);
      if (slowMs) return void setTimeout(() => send(200, { ok: true, ...result }), slowMs);
      send(200, { ok: true, ...result });
    } catch (error) {
      send(500, { ok: false, error: String(error) });
    }
  });

  const pageState = (user: string | undefined) => ({
    botUserId,
    channels: [...channels].map((id) => ({ id, name: channelNames.get(id) ?? id })),
    users: [...users].map(([id, { name, title }]) => ({ id, name, ...(title ? { title } : {}) })),
    command: app ? { name: app.command ?? '/events', help: app.commandHelp ?? [] } : undefined,
    jobs: Object.keys(panel.jobs ?? {}),
    hasAccount: Boolean(panel.account),
    // Ephemeral messages reach only the user they were sent to, as in Slack.
    messages: stored.filter((m) => m.visibleTo === undefined || m.visibleTo === user),
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  baseUrl = url;

  return {
    url,
    apiUrl: `${url}/api/`,
    botUserId,
    calls,
    messages: (channel) => stored.filter((m) => channel === undefined || m.channel === channel),
    responseUrl,
    recordAck,
    failNext: (method, error, times = 1) => {
      const queue = failures.get(method) ?? [];
      queue.push({ error, times });
      failures.set(method, queue);
    },
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    addUser: (id, user) => {
      users.set(id, user);
      changed();
    },
    connectApp: (connected) => {
      app = connected;
      changed();
    },
    setPanel: (next) => {
      panel = next;
      changed();
    },
    sendCommand,
    click,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
