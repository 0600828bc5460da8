import { Agent, createServer, type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConfiguredRetryStrategy } from '@smithy/core/retry';

/*
 * An HTTP proxy in front of DynamoDB Local that fails, loses or delays chosen requests, so resilience
 * tests can show what the store does when a write fails before, or is applied without, an answer.
 */

/**
 * `fail`: answered with a retryable 500 and never forwarded. `lose`: forwarded and applied, then the
 * client's socket is destroyed, so the caller cannot know. `delay`: forwarded after `ms`.
 */
export type DynamoFault = { kind: 'fail' } | { kind: 'lose' } | { kind: 'delay'; ms: number };

export interface DynamoItemKey {
  pk: string;
  sk?: string;
}

export interface DynamoRequestView {
  /** 1-based, in the order the proxy received requests */
  seq: number;
  /** from `x-amz-target`, e.g. 'UpdateItem', 'TransactWriteItems' */
  operation: string;
  /** the request's TableName, or the first one inside TransactItems */
  tableName: string | undefined;
  /** pk/sk of Key, Item and every entry of TransactItems */
  keys: DynamoItemKey[];
  body: unknown;
}

export type FaultRule = (request: DynamoRequestView) => DynamoFault | undefined;

export interface InjectedFault {
  seq: number;
  operation: string;
  kind: DynamoFault['kind'];
  tableName: string | undefined;
  keys: DynamoItemKey[];
}

export interface FaultStats {
  requests: number;
  failed: number;
  lost: number;
  delayed: number;
}

export interface DynamoFaultProxy {
  /** point a DynamoDB client here */
  endpoint: string;
  setRule(rule: FaultRule): void;
  clearRule(): void;
  stats(): FaultStats;
  /** every fault injected so far, in order */
  injected(): InjectedFault[];
  close(): Promise<void>;
}

export async function startDynamoFaultProxy(options: { target: string }): Promise<DynamoFaultProxy> {
  const target = new URL(options.target);
  // Our own agent, so close() can drop the upstream keep-alive sockets too.
  const agent = new Agent({ keepAlive: true });
  const timers = new Set<NodeJS.Timeout>();
  const log: InjectedFault[] = [];
  const counts: FaultStats = { requests: 0, failed: 0, lost: 0, delayed: 0 };
  let rule: FaultRule | undefined;

  const forward = (method: string, path: string, headers: IncomingHttpHeaders, body: Buffer) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      // `host` passes through unchanged: SigV4 signs it. (DynamoDB Local only insists on an
      // Authorization header, but a stricter endpoint would reject a rewritten host.)
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method, path, headers, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      upstream.on('error', reject);
      upstream.end(body);
    });

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks);
        const view = describeRequest(++counts.requests, req.headers, raw);
        const fault = rule?.(view);
        if (fault) {
          counts[fault.kind === 'fail' ? 'failed' : fault.kind === 'lose' ? 'lost' : 'delayed']++;
          log.push({
            seq: view.seq,
            operation: view.operation,
            kind: fault.kind,
            tableName: view.tableName,
            keys: view.keys,
          });
        }
        if (fault?.kind === 'fail') {
          res.writeHead(500, {
            'content-type': 'application/x-amz-json-1.0',
            'x-amzn-errortype': 'InternalServerError',
          });
          res.end(
            JSON.stringify({
              __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
              message: 'injected',
            }),
          );
          return;
        }
        if (fault?.kind === 'delay') {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(() => {
              timers.delete(timer);
              resolve();
            }, fault.ms);
            timers.add(timer);
          });
        }
        const answer = await forward(req.method ?? 'POST', req.url ?? '/', req.headers, raw);
        if (fault?.kind === 'lose') {
          req.socket.destroy();
          return;
        }
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
      })().catch(() => {
        // Upstream gone (e.g. during close): the caller sees a reset, as it would in AWS.
        req.socket.destroy();
      });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    setRule: (next) => {
      rule = next;
    },
    clearRule: () => {
      rule = undefined;
    },
    stats: () => ({ ...counts }),
    injected: () => log.map((entry) => ({ ...entry, keys: [...entry.keys] })),
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A document client (same marshalling as the store's) that talks to DynamoDB through the proxy.
 * `noRetryWait`: the SDK's standard retries (same attempts, errors and quota) without their jittered
 * back-off, for tests that count requests and never time them.
 */
export function createProxiedDocumentClient(
  proxy: Pick<DynamoFaultProxy, 'endpoint'>,
  options: { maxAttempts?: number; noRetryWait?: boolean } = {},
): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    endpoint: proxy.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
    ...(options.noRetryWait ? { retryStrategy: new ConfiguredRetryStrategy(options.maxAttempts ?? 3, 0) } : {}),
  });
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

function describeRequest(seq: number, headers: IncomingHttpHeaders, raw: Buffer): DynamoRequestView {
  const targetHeader = headers['x-amz-target'];
  const operation = (Array.isArray(targetHeader) ? targetHeader[0] : targetHeader)?.split('.').pop() ?? '';
  let body: unknown;
  try {
    body = raw.length > 0 ? JSON.parse(raw.toString('utf8')) : undefined;
  } catch {
    body = undefined;
  }
  const record = asRecord(body);
  const keys: DynamoItemKey[] = [];
  let tableName = typeof record.TableName === 'string' ? record.TableName : undefined;
  const addKey = (item: unknown) => {
    const key = keyOf(item);
    if (key) keys.push(key);
  };
  addKey(record.Key);
  addKey(record.Item);
  for (const entry of Array.isArray(record.TransactItems) ? record.TransactItems : []) {
    // Each entry is { Put | Update | Delete | ConditionCheck: { TableName, Key | Item } }.
    for (const action of Object.values(asRecord(entry))) {
      const inner = asRecord(action);
      tableName ??= typeof inner.TableName === 'string' ? inner.TableName : undefined;
      addKey(inner.Key);
      addKey(inner.Item);
    }
  }
  return { seq, operation, tableName, keys, body };
}

function keyOf(item: unknown): DynamoItemKey | undefined {
  const fields = asRecord(item);
  const pk = asRecord(fields.pk).S;
  const sk = asRecord(fields.sk).S;
  if (typeof pk !== 'string') return undefined;
  return typeof sk === 'string' ? { pk, sk } : { pk };
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** Counts requests that match `predicate` (all by default) and returns `fault` for the nth (1-based) only. */
function nth(fault: DynamoFault, n: number, predicate: (request: DynamoRequestView) => boolean): FaultRule {
  let seen = 0;
  return (request) => (predicate(request) && ++seen === n ? fault : undefined);
}

export function failNth(
  n: number,
  predicate: (request: DynamoRequestView) => boolean = () => true,
): FaultRule {
  return nth({ kind: 'fail' }, n, predicate);
}

export function loseNth(
  n: number,
  predicate: (request: DynamoRequestView) => boolean = () => true,
): FaultRule {
  return nth({ kind: 'lose' }, n, predicate);
}

/**
 * Fails or loses each request of `operations` (all by default) with the given rates, drawn from a
 * seeded PRNG so a failing run repeats exactly. One draw per matching request.
 */
export function randomFaults(options: {
  seed: number;
  failRate: number;
  loseRate: number;
  operations?: readonly string[];
}): FaultRule {
  const next = mulberry32(options.seed);
  return (request) => {
    if (options.operations && !options.operations.includes(request.operation)) return undefined;
    const draw = next();
    if (draw < options.failRate) return { kind: 'fail' };
    if (draw < options.failRate + options.loseRate) return { kind: 'lose' };
    return undefined;
  };
}

/** A tiny seeded PRNG (mulberry32): numbers in [0, 1), the same sequence for the same seed. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
