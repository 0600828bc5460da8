import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { Logger } from '../platform/log.ts';
import { EisBadInputError, type EisError } from './errors.ts';
import { rememberTraceId } from '../platform/trace-ids.ts';
import { semaphoreForKey } from './limiter.ts';
import { dispatcherTransport, fetchTransport, type Transport } from './transport.ts';
import { type Attempt, type Failure, judgeAttempt, transportAttempt, type Verdict } from './verdict.ts';

// The classifier's pure helpers, kept importable from here.
export { errorEnvelope, parseRetryAfter, safeTraceId } from './verdict.ts';

export interface EisClientOptions {
  /** The service's base address, e.g. `https://platform.example.com`. */
  baseUrl: string;
  /** The user API key (`sk_...`). Held in a closure; never logged, never put on an error. */
  apiKey: string;
  /**
   * An undici dispatcher to send through (tests inject a `MockAgent`). By default requests go through
   * Node's built-in `fetch` and its process-wide keep-alive pool (see `transport.ts`).
   */
  dispatcher?: Dispatcher;
  /** Per attempt, headers and body together. Default 10 000 ms. */
  timeoutMs?: number;
  /** Retries after the first attempt, where retrying is safe. Default 2. */
  maxRetries?: number;
  /** A Retry-After longer than this is not waited for: the rate-limit error is thrown. Default 15 000 ms. */
  maxRetryAfterMs?: number;
  /** Exponential backoff: base and cap of the delay before retry n (before jitter). Defaults 300 ms, 5 000 ms. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Injectable for tests. */
  sleep?: (ms: number) => Promise<void>;
  /** Injectable for tests; a number in [0, 1). */
  random?: () => number;
  logger?: Logger;
}

export type QueryValue = string | number | boolean | readonly string[] | undefined;
export type QueryParams = Record<string, QueryValue>;

export interface EisRequest<S extends z.ZodType> {
  /** A stable operation name for logs and errors, e.g. `events.unlock`. */
  operation: string;
  method: 'GET' | 'POST';
  /** The path below the base address, with path parameters already encoded (`call.ts` fills them). */
  path: string;
  query?: QueryParams;
  body?: Record<string, unknown>;
  /**
   * A charging call is retried only when the service provably did not run it (429, the 200 concurrency
   * envelope, a connection that was never made). Anything else after sending has an unknown outcome.
   * The operation table's row decides it (`isCharging`, through `call.ts`).
   */
  charging: boolean;
  schema: S;
}

export interface EisCore {
  request<S extends z.ZodType>(request: EisRequest<S>): Promise<z.output<S>>;
  close(): Promise<void>;
}

// `Array.isArray` alone narrows a readonly array to `any[]`.
const isList = (value: QueryValue): value is readonly string[] => Array.isArray(value);

export function toQueryString(query: QueryParams | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (isList(value)) {
      for (const item of value) search.append(name, item);
    } else {
      search.append(name, String(value));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

const DEFAULTS = {
  timeoutMs: 10_000,
  maxRetries: 2,
  maxRetryAfterMs: 15_000,
  backoffBaseMs: 300,
  backoffMaxMs: 5_000,
};

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The options with defaults applied, once per client. Holds the key, so it never leaves this module. */
interface Settings {
  apiKey: string;
  origin: string;
  /** The base address's path, without a trailing slash, put before every request path. */
  prefix: string;
  transport: Transport;
  timeoutMs: number;
  maxRetries: number;
  maxRetryAfterMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  logger: Logger | undefined;
}

function settingsOf(options: EisClientOptions): Settings {
  const apiKey = options.apiKey;
  if (typeof apiKey !== 'string' || apiKey.trim() === '' || /\s/.test(apiKey)) {
    throw new EisBadInputError({ operation: 'client', reason: 'the API key is missing or malformed' });
  }
  const base = new URL(options.baseUrl);
  return {
    apiKey,
    origin: base.origin,
    prefix: base.pathname.replace(/\/+$/, ''),
    transport: options.dispatcher ? dispatcherTransport(options.dispatcher) : fetchTransport,
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
    maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULTS.maxRetryAfterMs,
    backoffBaseMs: options.backoffBaseMs ?? DEFAULTS.backoffBaseMs,
    backoffMaxMs: options.backoffMaxMs ?? DEFAULTS.backoffMaxMs,
    sleep: options.sleep ?? defaultSleep,
    random: options.random ?? Math.random,
    logger: options.logger,
  };
}

function headersFor(apiKey: string, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${apiKey}`,
    'x-call-source': 'api',
    accept: 'application/json',
  };
  if (hasBody) headers['content-type'] = 'application/json';
  return headers;
}

/** One attempt over the wire. Never throws for a transport failure: that comes back as an attempt. */
async function send(settings: Settings, request: EisRequest<z.ZodType>): Promise<Attempt> {
  const { transport, origin, prefix, timeoutMs } = settings;
  const headers = headersFor(settings.apiKey, request.body !== undefined);
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('request timed out'));
  }, timeoutMs);
  try {
    const response = await transport({
      origin,
      path: `${prefix}${request.path}${toQueryString(request.query)}`,
      method: request.method,
      headers,
      body,
      signal: controller.signal,
      timeoutMs,
    });
    return { kind: 'response', ...response };
  } catch (error) {
    return transportAttempt(error, timedOut, settings.apiKey);
  } finally {
    clearTimeout(timer);
  }
}

/** The delay before the next attempt, or undefined when the failure is final. */
function retryDelay(settings: Settings, failure: Failure, attemptNumber: number): number | undefined {
  if (!failure.retry || attemptNumber >= settings.maxRetries) return undefined;
  if (failure.retryAfterMs !== undefined) {
    // honour Retry-After, but never sleep longer than the cap: past it, give up and let the caller decide
    return failure.retryAfterMs <= settings.maxRetryAfterMs ? failure.retryAfterMs : undefined;
  }
  const ceiling = Math.min(settings.backoffMaxMs, settings.backoffBaseMs * 2 ** attemptNumber);
  return Math.round(ceiling / 2 + (settings.random() * ceiling) / 2);
}

/** Keeps the response's trace id beside a successful result (see `traceIdOf`). */
function remember<T>(value: T, traceId: string | undefined): T {
  if (traceId) rememberTraceId(value, traceId);
  return value;
}

function logAttempt(
  logger: Logger | undefined,
  call: EisRequest<z.ZodType>,
  attemptNumber: number,
  attempt: Attempt,
  verdict: Verdict<unknown>,
  started: number,
): void {
  logger?.debug('eis call', {
    operation: call.operation,
    method: call.method,
    path: call.path,
    attempt: attemptNumber + 1,
    status: attempt.kind === 'response' ? attempt.status : undefined,
    outcome: verdict.ok ? 'ok' : verdict.error.code,
    traceId: verdict.ok ? undefined : verdict.error.traceId,
    durationMs: Date.now() - started,
  });
}

function logRetry(
  logger: Logger | undefined,
  call: EisRequest<z.ZodType>,
  attemptNumber: number,
  error: EisError,
  delayMs: number,
): void {
  logger?.warn('eis retry', {
    operation: call.operation,
    attempt: attemptNumber + 1,
    reason: error.code,
    status: error.status,
    errorKey: error.errorKey,
    traceId: error.traceId,
    delayMs,
  });
}

export function createEisCore(options: EisClientOptions): EisCore {
  const settings = settingsOf(options);
  // When the service last asked this client to wait (a Retry-After): no new request starts before it.
  // A new object each time, so whoever waited a hold out ends it (with a test's instant sleep too)
  // unless a later 429 lengthened it meanwhile.
  let hold = { until: 0 };
  const waitOut = async (ms: number) => {
    const waited = hold;
    await settings.sleep(ms);
    if (hold === waited) hold = { until: 0 };
  };

  async function request<S extends z.ZodType>(call: EisRequest<S>): Promise<z.output<S>> {
    const held = hold.until - Date.now();
    if (held > 0) await waitOut(held);
    for (let attemptNumber = 0; ; attemptNumber += 1) {
      // the per-key semaphore bounds requests in flight; a retry's wait does not hold a slot
      const release = await semaphoreForKey(settings.apiKey).acquire();
      const started = Date.now();
      let attempt: Attempt;
      try {
        attempt = await send(settings, call);
      } finally {
        release();
      }
      const verdict = judgeAttempt(call, attempt, settings.apiKey);
      logAttempt(settings.logger, call, attemptNumber, attempt, verdict, started);
      if (verdict.ok) return remember(verdict.value, verdict.traceId);
      // Every request of the client waits it out, not only this one's retry (at most the longest wait
      // a call makes, so a long one does not stall the others past it).
      const { retryAfterMs } = verdict;
      if (retryAfterMs !== undefined)
        hold = { until: Math.max(hold.until, Date.now() + Math.min(retryAfterMs, settings.maxRetryAfterMs)) };
      const delayMs = retryDelay(settings, verdict, attemptNumber);
      if (delayMs === undefined) throw verdict.error;
      logRetry(settings.logger, call, attemptNumber, verdict.error, delayMs);
      await (retryAfterMs !== undefined ? waitOut(delayMs) : settings.sleep(delayMs));
    }
  }

  return {
    request,
    // Nothing of its own to close: the default transport uses Node's shared pool (idle sockets do not
    // keep the process alive), and an injected dispatcher belongs to whoever made it.
    close: () => Promise.resolve(),
  };
}
