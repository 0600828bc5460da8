import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a local stand-in that holds every client-to-server chunk back by `delayMs`
 * (in order): each HTTP exchange then takes one added round trip, whatever the protocol on top.
 * Connection set-up (TCP and TLS handshakes on AWS) is not delayed, so real figures are higher.
 */
export interface DelayProxy {
  url: string;
  setDelay(ms: number): void;
  /** HTTP requests seen since the last `resetCount` (chunks that start with a request line). */
  requests(): number;
  resetCount(): void;
  close(): Promise<void>;
}

const REQUEST_LINE = /^(GET|POST|PUT|DELETE|HEAD|PATCH|OPTIONS) \S+ HTTP\/1\.[01]\r\n/;

export async function startDelayProxy(target: URL): Promise<DelayProxy> {
  let delayMs = 0;
  let requests = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    const later = delayedInOrder(() => delayMs);
    client.on('data', (chunk: Buffer) => {
      if (REQUEST_LINE.test(chunk.toString('latin1', 0, 512))) requests++;
      later(() => upstream.write(chunk));
    });
    client.on('end', () => later(() => upstream.end()));
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  const url = await listen(server);
  return {
    url,
    setDelay: (ms) => (delayMs = ms),
    requests: () => requests,
    resetCount: () => (requests = 0),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Lambda's Invoke API, as far as an asynchronous invoke needs: 202 and an empty body for any
 * `POST /2015-03-31/functions/<name>/invocations`. Invokes are counted per function name, so two
 * handlers sharing the stand-in can be told apart.
 */
export async function startLambdaStandIn(): Promise<{
  url: string;
  invokes(functionName: string): number;
  close(): Promise<void>;
}> {
  const invokes = new Map<string, number>();
  const server = createHttpServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const name = /\/functions\/([^/]+)\/invocations$/.exec(request.url ?? '')?.[1];
      const isInvoke = request.method === 'POST' && name !== undefined;
      if (isInvoke) {
        const functionName = decodeURIComponent(name);
        invokes.set(functionName, (invokes.get(functionName) ?? 0) + 1);
      }
      response.writeHead(isInvoke ? 202 : 404, { 'content-type': 'application/json' });
      response.end(isInvoke ? '' : '{"message":"not found"}');
    });
  });
  const url = await listen(server);
  return {
    url,
    invokes: (functionName) => invokes.get(functionName) ?? 0,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Secrets Manager's GetSecretValue, as far as the Slack function's secret read needs: any POST is
 * answered with `secret` as the JSON `SecretString`. Counts the reads.
 */
export async function startSecretsManagerStandIn(secret: Record<string, string>): Promise<{
  url: string;
  reads(): number;
  close(): Promise<void>;
}> {
  let reads = 0;
  const server = createHttpServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const isRead = request.headers['x-amz-target'] === 'secretsmanager.GetSecretValue';
      if (isRead) reads++;
      response.writeHead(isRead ? 200 : 400, { 'content-type': 'application/x-amz-json-1.1' });
      response.end(JSON.stringify(isRead ? { Name: 'bench', SecretString: JSON.stringify(secret) } : {}));
    });
  });
  const url = await listen(server);
  return {
    url,
    reads: () => reads,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs callbacks `delay()` ms after they were queued, strictly in the order they were queued. */
function delayedInOrder(delay: () => number): (run: () => void) => void {
  const queue: { at: number; run: () => void }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const pump = () => {
    timer = undefined;
    while (queue[0] && queue[0].at <= Date.now()) queue.shift()?.run();
    if (queue[0]) timer = setTimeout(pump, queue[0].at - Date.now());
  };
  return (run) => {
    if (delay() <= 0 && queue.length === 0) return run();
    queue.push({ at: Date.now() + delay(), run });
    timer ??= setTimeout(pump, Math.max(0, (queue[0]?.at ?? 0) - Date.now()));
  };
}

async function listen(server: Server | HttpServer): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
