import type { IncomingHttpHeaders } from 'node:http';
import { type Dispatcher, Pool } from 'undici';
import type { z } from 'zod';
import type { Logger } from '../log.ts';
import {
  EisBadInputError,
  EisCreditOperationInProgressError,
  type EisError,
  type EisErrorDetails,
  EisInsufficientCreditsError,
  EisNotFoundError,
  EisRateLimitedError,
  EisSubscriptionRequiredError,
  EisUnauthorizedError,
  EisUpstreamError,
} from './errors.ts';
import { MAX_IN_FLIGHT_PER_KEY, semaphoreForKey } from './limiter.ts';

/**
 * The service's trace id of each successful response (its `x-trace-id` header), kept beside the parsed
 * object rather than on it, so result types stay as the spec shows them. The ledger records it.
 */
const responseTraces = new WeakMap<object, string>();

export function traceIdOf(result: unknown): string | undefined {
  return typeof result === 'object' && result !== null ? responseTraces.get(result) : undefined;
}

const TRACE_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * The service's trace id if it is a plain id, else undefined. Trace ids reach logs, the ledger and users,
 * so an odd one is dropped, not repaired: a service that echoed the Authorization header put the key on
 * cards. A trace id that is a fragment of the key is dropped too.
 */
export function safeTraceId(value: unknown, apiKey: string): string | undefined {
  if (typeof value !== 'string' || !TRACE_ID.test(value)) return undefined;
  return value.includes(apiKey) || apiKey.includes(value) ? undefined : value;
}

export interface EisClientOptions {
  /** The service's base address, e.g. `https://platform.example.com`. */
  baseUrl: string;
  /** The user API key (`sk_...`). Held in a closure; never logged, never put on an error. */
  apiKey: string;
  /** An undici dispatcher; by default a keep-alive Pool of 10 connections to `baseUrl`'s origin. */
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
  /** The path below the base address, with path parameters already encoded (use `pathOf`). */
  path: string;
  query?: QueryParams;
  body?: Record<string, unknown>;
  /**
   * A charging call is retried only when the service provably did not run it (429, the 200 concurrency
   * envelope, a connection that was never made). Anything else after sending has an unknown outcome.
   */
  charging: boolean;
  schema: S;
}

export interface EisCore {
  request<S extends z.ZodType>(request: EisRequest<S>): Promise<z.output<S>>;
  close(): Promise<void>;
}

/** Builds a path from a template literal, encoding every parameter. */
export function pathOf(strings: TemplateStringsArray, ...params: string[]): string {
  return strings.reduce((path, part, index) => {
    const param = params[index - 1];
    return path + (param === undefined ? '' : encodeURIComponent(param)) + part;
  });
}

export function toQueryString(query: QueryParams | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
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

// Connection-phase failures: the request never reached the service, so even a charging call may be retried.
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

const CONCURRENCY_KEY = 'USER_CONCURRENCY_LIMIT_EXCEEDED';
const SUBSCRIPTION_KEYS = /FEATURE|SUBSCRIPTION|SUBSCRIBE|PAID|PLAN/i;
const IN_PROGRESS_KEYS = /STATE_CONFLICT|PROGRESS|LOCK|CONCURREN|DUPLICATE/i;

type Attempt =
  | { kind: 'response'; status: number; headers: IncomingHttpHeaders; text: string }
  | { kind: 'transport'; timedOut: boolean; notSent: boolean; cause: Error };

type Verdict<T> =
  { ok: true; value: T } | { ok: false; error: EisError; retry: boolean; retryAfterMs?: number | undefined };

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createEisCore(options: EisClientOptions): EisCore {
  const apiKey = options.apiKey;
  if (typeof apiKey !== 'string' || apiKey.trim() === '' || /\s/.test(apiKey)) {
    throw new EisBadInputError({ operation: 'client', reason: 'the API key is missing or malformed' });
  }
  const base = new URL(options.baseUrl);
  const origin = base.origin;
  const prefix = base.pathname.replace(/\/+$/, '');
  const ownsDispatcher = options.dispatcher === undefined;
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const dispatcher =
    options.dispatcher ??
    new Pool(origin, {
      connections: MAX_IN_FLIGHT_PER_KEY,
      keepAliveTimeout: 4_000,
      keepAliveMaxTimeout: 60_000,
      connect: { timeout: timeoutMs },
    });
  const maxRetries = options.maxRetries ?? DEFAULTS.maxRetries;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULTS.maxRetryAfterMs;
  const backoffBaseMs = options.backoffBaseMs ?? DEFAULTS.backoffBaseMs;
  const backoffMaxMs = options.backoffMaxMs ?? DEFAULTS.backoffMaxMs;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const logger = options.logger;

  /** Removes the key from anything that came from the outside world before it is kept on an error. */
  const scrub = (text: string) => text.split(apiKey).join('[redacted]');
  const scrubValue = (value: unknown): unknown => {
    if (value === undefined) return undefined;
    const json = JSON.stringify(value);
    return json === undefined || !json.includes(apiKey) ? value : JSON.parse(scrub(json));
  };
  const safeCause = (error: unknown): Error => {
    const source = error instanceof Error ? error : new Error(String(error));
    const copy = new Error(scrub(source.message));
    copy.name = source.name;
    const code = (source as { code?: unknown }).code;
    if (typeof code === 'string') Object.assign(copy, { code });
    return copy;
  };

  async function send(request: EisRequest<z.ZodType>): Promise<Attempt> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${apiKey}`,
      'x-call-source': 'api',
      accept: 'application/json',
    };
    let body: string | undefined;
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('request timed out'));
    }, timeoutMs);
    try {
      const response = await dispatcher.request({
        origin,
        path: `${prefix}${request.path}${toQueryString(request.query)}`,
        method: request.method,
        headers,
        body: body ?? null,
        signal: controller.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const text = await response.body.text();
      return { kind: 'response', status: response.statusCode, headers: response.headers, text };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const codeText = typeof code === 'string' ? code : '';
      return {
        kind: 'transport',
        timedOut: timedOut || TIMEOUT_CODES.has(codeText),
        notSent: !timedOut && NOT_SENT_CODES.has(codeText),
        cause: safeCause(error),
      };
    } finally {
      clearTimeout(timer);
    }
  }

  function fromStatus(
    status: number,
    details: EisErrorDetails,
    charging: boolean,
    retryAfterMs: number | undefined,
    message: string | undefined,
  ): { error: EisError; retry: boolean } {
    switch (status) {
      case 400:
      case 422:
        return {
          error: new EisBadInputError({
            ...details,
            reason: message ? `the service rejected the request: ${message}` : undefined,
          }),
          retry: false,
        };
      case 401:
        return { error: new EisUnauthorizedError(details), retry: false };
      case 402:
        return { error: new EisInsufficientCreditsError(details), retry: false };
      case 403:
        return { error: new EisSubscriptionRequiredError(details), retry: false };
      case 404:
        return { error: new EisNotFoundError(details), retry: false };
      case 409: {
        // the generic conflict key means another credit operation holds the target; other keys name a state
        const inProgress = !details.errorKey || IN_PROGRESS_KEYS.test(details.errorKey);
        const stateReason = inProgress ? undefined : message;
        return {
          error: new EisCreditOperationInProgressError({ ...details, reason: stateReason }),
          retry: false,
        };
      }
      case 429:
        // rejected before execution: safe to retry, charging or not
        return { error: new EisRateLimitedError({ ...details, retryAfterMs }), retry: true };
    }
    if (status >= 500) {
      return {
        error: new EisUpstreamError({
          ...details,
          failure: 'server-error',
          outcomeUnknown: charging,
          retryable: !charging,
        }),
        retry: !charging,
      };
    }
    return {
      error: new EisUpstreamError({
        ...details,
        failure: 'unexpected-status',
        outcomeUnknown: false,
        retryable: false,
      }),
      retry: false,
    };
  }

  function judge<S extends z.ZodType>(request: EisRequest<S>, attempt: Attempt): Verdict<z.output<S>> {
    const { operation, charging } = request;
    if (attempt.kind === 'transport') {
      const sentAndUnknown = charging && !attempt.notSent;
      return {
        ok: false,
        error: new EisUpstreamError({
          operation,
          cause: attempt.cause,
          failure: attempt.timedOut ? 'timeout' : 'network',
          outcomeUnknown: sentAndUnknown,
          retryable: !sentAndUnknown,
        }),
        retry: !sentAndUnknown,
      };
    }

    const { status, headers, text } = attempt;
    const traceHeader =
      safeTraceId(headerValue(headers, 'x-trace-id'), apiKey) ??
      safeTraceId(headerValue(headers, 'x-request-id'), apiKey);
    let json: unknown;
    let parsedJson = true;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch (error) {
      parsedJson = false;
      json = undefined;
      if (status >= 200 && status < 300) {
        return {
          ok: false,
          error: new EisUpstreamError({
            operation,
            status,
            traceId: traceHeader,
            cause: safeCause(error),
            failure: 'malformed-json',
            outcomeUnknown: charging,
            retryable: false,
          }),
          retry: false,
        };
      }
    }

    const envelope = errorEnvelope(json);
    const retryAfterMs = parseRetryAfter(headerValue(headers, 'retry-after'));

    if (status >= 200 && status < 300) {
      if (envelope) {
        const details: EisErrorDetails = {
          operation,
          status: envelope.code,
          errorKey: envelope.errorKey,
          traceId: safeTraceId(envelope.traceId, apiKey) ?? traceHeader,
          body: scrubValue(json),
        };
        if (envelope.errorKey === CONCURRENCY_KEY || envelope.code === 429) {
          // the service refused to start the request: retrying cannot charge twice
          return {
            ok: false,
            error: new EisRateLimitedError({ ...details, retryAfterMs, concurrencyLimit: true }),
            retry: true,
            retryAfterMs,
          };
        }
        if (SUBSCRIPTION_KEYS.test(envelope.errorKey) || envelope.code === 403) {
          return { ok: false, error: new EisSubscriptionRequiredError(details), retry: false };
        }
        const mapped = fromStatus(envelope.code, details, charging, retryAfterMs, messageOf(envelope, scrub));
        return { ok: false, ...mapped };
      }
      const parsed = request.schema.safeParse(json);
      if (parsed.success) {
        if (traceHeader && typeof parsed.data === 'object' && parsed.data !== null) {
          responseTraces.set(parsed.data, traceHeader);
        }
        return { ok: true, value: parsed.data };
      }
      const issues = parsed.error.issues
        .slice(0, 5)
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
        .join('; ');
      return {
        ok: false,
        error: new EisUpstreamError({
          operation,
          status,
          traceId: traceHeader,
          cause: new Error(`response did not match the schema: ${scrub(issues)}`),
          failure: 'unexpected-shape',
          outcomeUnknown: charging,
          retryable: false,
        }),
        retry: false,
      };
    }

    const details: EisErrorDetails = {
      operation,
      status,
      errorKey: envelope?.errorKey,
      traceId: safeTraceId(envelope?.traceId, apiKey) ?? traceHeader,
      body: parsedJson ? scrubValue(json) : scrub(text.slice(0, 500)),
    };
    const mapped = fromStatus(status, details, charging, retryAfterMs, messageOf(envelope, scrub));
    return { ok: false, ...mapped, retryAfterMs };
  }

  function delayBefore(retryNumber: number, retryAfterMs: number | undefined): number | undefined {
    if (retryAfterMs !== undefined) {
      // honour Retry-After, but never sleep longer than the cap: past it, give up and let the caller decide
      return retryAfterMs <= maxRetryAfterMs ? retryAfterMs : undefined;
    }
    const ceiling = Math.min(backoffMaxMs, backoffBaseMs * 2 ** retryNumber);
    return Math.round(ceiling / 2 + (random() * ceiling) / 2);
  }

  async function request<S extends z.ZodType>(call: EisRequest<S>): Promise<z.output<S>> {
    for (let attemptNumber = 0; ; attemptNumber += 1) {
      const release = await semaphoreForKey(apiKey).acquire();
      const started = Date.now();
      let attempt: Attempt;
      try {
        attempt = await send(call);
      } finally {
        release();
      }
      const verdict = judge(call, attempt);
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
      if (verdict.ok) return verdict.value;
      const { error } = verdict;
      const delayMs =
        verdict.retry && attemptNumber < maxRetries
          ? delayBefore(attemptNumber, verdict.retryAfterMs)
          : undefined;
      if (delayMs === undefined) throw error;
      logger?.warn('eis retry', {
        operation: call.operation,
        attempt: attemptNumber + 1,
        reason: error.code,
        status: error.status,
        errorKey: error.errorKey,
        traceId: error.traceId,
        delayMs,
      });
      await sleep(delayMs);
    }
  }

  return {
    request,
    async close() {
      if (ownsDispatcher) await dispatcher.close();
    },
  };
}

interface ErrorEnvelope {
  code: number;
  errorKey: string;
  message: string | undefined;
  traceId: string | undefined;
}

/**
 * An error envelope is recognised by shape: an `errorKey` string and a numeric `code` of 400 or more, with no
 * success payload (`data` null or absent, no `items`). Success bodies never look like that.
 */
export function errorEnvelope(body: unknown): ErrorEnvelope | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  const { code, errorKey, message, traceId, data } = record;
  if (typeof errorKey !== 'string' || typeof code !== 'number' || code < 400) return undefined;
  if ((data !== undefined && data !== null) || 'items' in record) return undefined;
  return {
    code,
    errorKey,
    message: typeof message === 'string' ? message : undefined,
    traceId: typeof traceId === 'string' ? traceId : undefined,
  };
}

/** The service's own words from an error body, short and without the key. */
function messageOf(envelope: ErrorEnvelope | undefined, scrub: (text: string) => string): string | undefined {
  const message = envelope?.message?.trim();
  return message ? scrub(message.slice(0, 200)) : undefined;
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Retry-After as delay-seconds or an HTTP date, in milliseconds; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
