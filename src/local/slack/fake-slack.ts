import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { blockKitViolations } from './block-kit-check.ts';

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
  users?: Record<string, { name: string; tz: string }>;
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
  /** The next calls to `method` answer `{ ok: false, error }` (or HTTP 429 for `ratelimited`). */
  failNext(method: string, error: string, times?: number): void;
  /** Reacts to every stored message change (for the dev page's live view). */
  onChange(listener: () => void): () => void;
  addUser(id: string, user: { name: string; tz: string }): void;
  close(): Promise<void>;
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
  const calls: RecordedCall[] = [];
  const stored: SlackMessage[] = [];
  const failures = new Map<string, { error: string; times: number }[]>();
  const listeners = new Set<() => void>();
  const responseTargets = new Map<string, { channel: string; user: string; messageTs?: string }>();
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

  const server = createServer(async (request, response) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(body));
    };
    try {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const args = await readBody(request);
      const responseMatch = url.pathname.match(/^\/response\/([\w-]+)$/);
      if (responseMatch?.[1]) {
        const target = responseTargets.get(responseMatch[1]);
        if (!target) return send(404, { ok: false, error: 'expired_url' });
        calls.push({ method: 'response_url', args });
        const blocks = Array.isArray(args.blocks) ? args.blocks : [];
        const original = stored.find((m) => m.channel === target.channel && m.ts === target.messageTs);
        if (args.replace_original && original) {
          Object.assign(original, { text: String(args.text ?? ''), blocks, edited: true });
          original.warnings = blockKitViolations(original.text, blocks);
          changed();
          return send(200, { ok: true });
        }
        store({
          channel: target.channel,
          ts: nextTs(),
          text: String(args.text ?? ''),
          blocks,
          user: botUserId,
          ...(args.response_type === 'in_channel' ? {} : { visibleTo: target.user }),
        });
        return send(200, { ok: true });
      }
      const method = url.pathname.replace(/^\/api\//, '');
      const authorization = request.headers.authorization;
      calls.push({ method, args, ...(authorization ? { authorization } : {}) });
      const failure = takeFailure(method);
      if (failure === 'ratelimited')
        return send(429, { ok: false, error: 'ratelimited' }, { 'retry-after': '1' });
      if (failure) return send(200, { ok: false, error: failure });
      if (!authorization?.startsWith('Bearer ')) return send(200, { ok: false, error: 'not_authed' });
      const handler = methods[method];
      if (!handler) return send(200, { ok: false, error: 'unknown_method' });
      const result = handler(args);
      send(200, { ok: true, ...result });
    } catch (error) {
      send(500, { ok: false, error: String(error) });
    }
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  let responseSeq = 0;

  return {
    url,
    apiUrl: `${url}/api/`,
    botUserId,
    calls,
    messages: (channel) => stored.filter((m) => channel === undefined || m.channel === channel),
    responseUrl: (channel, user, messageTs) => {
      const id = `r${++responseSeq}`;
      responseTargets.set(id, { channel, user, ...(messageTs ? { messageTs } : {}) });
      return `${url}/response/${id}`;
    },
    failNext: (method, error, times = 1) => {
      const queue = failures.get(method) ?? [];
      queue.push({ error, times });
      failures.set(method, queue);
    },
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    addUser: (id, user) => users.set(id, user),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
