import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createEisClient,
  type EisClientOptions,
  EisUpstreamError,
  traceIdOf,
} from '../../../src/eis/index.ts';
import { caught, creditBalance, KEY } from '../../support/fake-service.ts';

/*
 * The client's default transport (Node's built-in fetch, no dispatcher injected) against real local
 * servers: what the classifier needs from it is the same as from undici's `request`.
 */

const BALANCE = '/external/credits/balance';
const UNLOCK = '/external/events/ev-101/unlock';

const servers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
});

/** A local HTTP server; counts the connections it accepted and the paths it was asked for. */
async function serve(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const paths: string[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    paths.push(req.url?.split('?')[0] ?? '');
    answer(req, res);
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  servers.push(close);
  return { url: `http://127.0.0.1:${port}`, paths, connections: () => connections, close };
}

function clientAt(baseUrl: string, options: Partial<EisClientOptions> = {}) {
  const sleeps: number[] = [];
  const client = createEisClient({
    baseUrl,
    apiKey: KEY,
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    random: () => 0.5,
    ...options,
  });
  return { client, sleeps };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

describe('eis client over the built-in fetch', () => {
  it('keeps its connections alive across sequential calls', async () => {
    // Prepare
    const service = await serve((_req, res) => json(res, 200, creditBalance()));
    const { client } = clientAt(service.url);

    // Act
    for (let i = 0; i < 20; i++) await client.credits.balance();

    // Assess: undici (Node's or the package's Pool alike) may open a second socket while the first
    // is being released, but not one per call
    expect(service.paths).toEqual(Array(20).fill(BALANCE));
    expect(service.connections()).toBeLessThanOrEqual(2);
  });

  it('retries a charging POST whose connection was refused: it was never sent', async () => {
    // Prepare: a port nothing listens on any more
    const gone = await serve(() => undefined);
    await gone.close();
    const { client, sleeps } = clientAt(gone.url);

    // Act
    const error = await caught(client.events.unlock('ev-101'));

    // Assess
    expect(error).toBeInstanceOf(EisUpstreamError);
    expect(error).toMatchObject({ failure: 'network', outcomeUnknown: false, retryable: true });
    expect((error as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
    expect(sleeps).toHaveLength(2);
  });

  it('does not retry a charging POST whose connection dropped after it was sent', async () => {
    // Prepare
    const service = await serve((req) => req.socket.destroy());
    const { client, sleeps } = clientAt(service.url);

    // Act
    const error = await caught(client.events.unlock('ev-101'));

    // Assess
    expect(error).toMatchObject({ failure: 'network', outcomeUnknown: true, retryable: false });
    expect((error as Error).cause).toMatchObject({ code: 'UND_ERR_SOCKET' });
    expect(service.paths).toEqual([UNLOCK]);
    expect(sleeps).toEqual([]);
  });

  it('gives up on a charging POST at its timeout, outcome unknown', async () => {
    // Prepare: a service that never answers
    const service = await serve(() => undefined);
    const { client } = clientAt(service.url, { timeoutMs: 100 });

    // Act
    const started = Date.now();
    const error = await caught(client.events.unlock('ev-101'));

    // Assess
    expect(error).toMatchObject({ failure: 'timeout', outcomeUnknown: true, retryable: false });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(service.paths).toEqual([UNLOCK]);
  });

  it('does not follow a redirect: a 3xx is the answer to judge, never a second request', async () => {
    // Prepare
    const service = await serve((_req, res) => {
      res.writeHead(302, { location: '/elsewhere' });
      res.end();
    });
    const { client } = clientAt(service.url, { maxRetries: 0 });

    // Act
    const error = await caught(client.events.unlock('ev-101'));

    // Assess
    expect(error).toBeInstanceOf(EisUpstreamError);
    expect(service.paths).toEqual([UNLOCK]);
  });

  it('reads Retry-After and the trace id from the response headers', async () => {
    // Prepare
    const TRACE_ID = '5f0c9a4e-8d2b-4c6f-9e1a-3b7d2c1f0a9e';
    let calls = 0;
    const service = await serve((_req, res) => {
      calls += 1;
      if (calls === 1) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' });
        res.end(JSON.stringify({ code: 429, message: 'slow down', errorKey: 'RATE_LIMITED' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-trace-id': TRACE_ID });
      res.end(JSON.stringify(creditBalance()));
    });
    const { client, sleeps } = clientAt(service.url);

    // Act
    const balance = await client.credits.balance();

    // Assess
    expect(balance.totalBalance).toBe(8000);
    expect(sleeps).toEqual([2000]);
    expect(traceIdOf(balance)).toBe(TRACE_ID);
  });
});
