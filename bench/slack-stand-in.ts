import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Slack's Web API as the scheduled jobs use it (`chat.postMessage`, `chat.update`), holding Slack's
 * posting limit: one message per channel per second (fixed one-second windows of the clock); a post
 * over it is answered HTTP 429 with `Retry-After: 1` and not stored. Accepted posts are counted per
 * thread, each with the time on the business clock it arrived at.
 */
export interface SlackStandIn {
  /** For `SLACK_API_URL`. */
  apiUrl: string;
  /** Accepted posts by `channel/thread_ts` (`channel/` for a top-level post): the clock's ms at each. */
  posts: Map<string, number[]>;
  /** Posts answered 429. */
  rateLimited(): number;
  updates(): number;
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString();
  if ((request.headers['content-type'] ?? '').includes('application/json')) {
    return JSON.parse(raw) as Record<string, string>;
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

export async function startSlackStandIn(clock: () => number = Date.now): Promise<SlackStandIn> {
  const posts = new Map<string, number[]>();
  const windowOf = new Map<string, number>();
  let limited = 0;
  let updates = 0;
  let seq = 0;
  const server = createServer((request, response) => {
    const method = (request.url ?? '').replace(/^\/api\//, '');
    void bodyOf(request).then((args) => {
      const channel = String(args.channel ?? '');
      if (method === 'chat.update') {
        updates++;
        return send(response, 200, { ok: true, channel, ts: args.ts });
      }
      if (method !== 'chat.postMessage') return send(response, 200, { ok: false, error: 'unknown_method' });
      const second = Math.floor(clock() / 1000);
      if (windowOf.get(channel) === second) {
        limited++;
        return send(response, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': '1' });
      }
      windowOf.set(channel, second);
      const thread = `${channel}/${args.thread_ts ?? ''}`;
      posts.set(thread, [...(posts.get(thread) ?? []), clock()]);
      send(response, 200, { ok: true, channel, ts: `${second}.${String(++seq).padStart(6, '0')}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    posts,
    rateLimited: () => limited,
    updates: () => updates,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
