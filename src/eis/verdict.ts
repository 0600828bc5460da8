import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
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
import { safeCause, scrub, scrubValue } from './redact.ts';

/**
 * The classifier: what one attempt at a call came to (a response, or a transport failure) in, a verdict out
 * (the parsed value, or an error and whether retrying is safe). Pure: no I/O, no clock but Retry-After's.
 */

export interface ResponseAttempt {
  kind: 'response';
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface TransportAttempt {
  kind: 'transport';
  /** The client's timer or undici's headers/body timeout fired. */
  timedOut: boolean;
  /** The connection was never made, so the service never saw the request. */
  notSent: boolean;
  /** Already scrubbed of the key (`safeCause`). */
  cause: Error;
}

export type Attempt = ResponseAttempt | TransportAttempt;

export interface Failure {
  ok: false;
  error: EisError;
  retry: boolean;
  retryAfterMs?: number | undefined;
}

/** `traceId` is the response header's, for the caller to keep beside the value (see `traceIdOf`). */
export type Verdict<T> = { ok: true; value: T; traceId: string | undefined } | Failure;

/** What the classifier needs to know of a call. */
export interface JudgedCall<S extends z.ZodType> {
  operation: string;
  charging: boolean;
  schema: S;
}

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

/** A thrown dispatcher error as an attempt; `timedOutByClient` when the client's own timer aborted it. */
export function transportAttempt(
  error: unknown,
  timedOutByClient: boolean,
  apiKey: string,
): TransportAttempt {
  const code = (error as { code?: unknown }).code;
  const codeText = typeof code === 'string' ? code : '';
  return {
    kind: 'transport',
    timedOut: timedOutByClient || TIMEOUT_CODES.has(codeText),
    notSent: !timedOutByClient && NOT_SENT_CODES.has(codeText),
    cause: safeCause(error, apiKey),
  };
}

export function judgeAttempt<S extends z.ZodType>(
  call: JudgedCall<S>,
  attempt: Attempt,
  apiKey: string,
): Verdict<z.output<S>> {
  if (attempt.kind === 'transport') return judgeTransport(call, attempt);
  return judgeResponse(call, attempt, apiKey);
}

function judgeTransport(call: JudgedCall<z.ZodType>, attempt: TransportAttempt): Failure {
  // once sent, a charging call may have run: only a connection never made proves it did not
  const sentAndUnknown = call.charging && !attempt.notSent;
  const failure = attempt.timedOut ? 'timeout' : 'network';
  return {
    ok: false,
    error: new EisUpstreamError({
      operation: call.operation,
      cause: attempt.cause,
      failure,
      outcomeUnknown: sentAndUnknown,
      retryable: !sentAndUnknown,
    }),
    retry: !sentAndUnknown,
  };
}

/** The facts of one response that every branch of the classification uses. */
interface Reply {
  operation: string;
  charging: boolean;
  status: number;
  /** From the `x-trace-id` or `x-request-id` header, when it is a safe id. */
  traceHeader: string | undefined;
  retryAfterMs: number | undefined;
  apiKey: string;
}

type ParsedText = { parsed: true; json: unknown } | { parsed: false; error: unknown };

function parseJson(text: string): ParsedText {
  try {
    return { parsed: true, json: text === '' ? undefined : JSON.parse(text) };
  } catch (error) {
    return { parsed: false, error };
  }
}

function judgeResponse<S extends z.ZodType>(
  call: JudgedCall<S>,
  response: ResponseAttempt,
  apiKey: string,
): Verdict<z.output<S>> {
  const { status, headers, text } = response;
  const reply: Reply = {
    operation: call.operation,
    charging: call.charging,
    status,
    traceHeader:
      safeTraceId(headerValue(headers, 'x-trace-id'), apiKey) ??
      safeTraceId(headerValue(headers, 'x-request-id'), apiKey),
    retryAfterMs: parseRetryAfter(headerValue(headers, 'retry-after')),
    apiKey,
  };
  const body = parseJson(text);
  const success = status >= 200 && status < 300;
  if (!body.parsed && success)
    return unreadableSuccess(reply, 'malformed-json', safeCause(body.error, reply.apiKey));
  if (!body.parsed) return judgeErrorStatus(reply, undefined, unparsedBody(reply, text));
  const envelope = errorEnvelope(body.json);
  if (!success) return judgeErrorStatus(reply, envelope, scrubValue(body.json, apiKey));
  if (envelope) return judgeEnvelope(reply, envelope, body.json);
  return judgeSuccessBody(call.schema, reply, body.json);
}

/**
 * A 2xx whose body cannot be read (not JSON, or not the expected shape): a charging call ran, or may
 * have, so its outcome is unknown; never retried.
 */
function unreadableSuccess(
  reply: Reply,
  failure: 'malformed-json' | 'unexpected-shape',
  cause: unknown,
): Failure {
  return {
    ok: false,
    error: new EisUpstreamError({
      operation: reply.operation,
      status: reply.status,
      traceId: reply.traceHeader,
      cause,
      failure,
      outcomeUnknown: reply.charging,
      retryable: false,
    }),
    retry: false,
  };
}

/** A non-JSON error body, kept short and without the key. */
function unparsedBody(reply: Reply, text: string): string {
  return scrub(text.slice(0, 500), reply.apiKey);
}

function detailsOf(
  reply: Reply,
  status: number,
  envelope: ErrorEnvelope | undefined,
  body: unknown,
): EisErrorDetails {
  return {
    operation: reply.operation,
    status,
    errorKey: envelope?.errorKey,
    traceId: safeTraceId(envelope?.traceId, reply.apiKey) ?? reply.traceHeader,
    body,
  };
}

/** A non-2xx status, mapped by the status; Retry-After is honoured whenever the mapping allows a retry. */
function judgeErrorStatus(reply: Reply, envelope: ErrorEnvelope | undefined, body: unknown): Failure {
  const details = detailsOf(reply, reply.status, envelope, body);
  const message = messageOf(envelope, reply.apiKey);
  const mapped = errorForStatus(reply.status, details, reply.charging, reply.retryAfterMs, message);
  return { ok: false, ...mapped, retryAfterMs: reply.retryAfterMs };
}

/** A 2xx carrying an error envelope: the business code stands in for the status. */
function judgeEnvelope(reply: Reply, envelope: ErrorEnvelope, json: unknown): Failure {
  const details = detailsOf(reply, envelope.code, envelope, scrubValue(json, reply.apiKey));
  const { retryAfterMs } = reply;
  if (envelope.errorKey === CONCURRENCY_KEY || envelope.code === 429) {
    // the service refused to start the request: retrying cannot charge twice
    const error = new EisRateLimitedError({ ...details, retryAfterMs, concurrencyLimit: true });
    return { ok: false, error, retry: true, retryAfterMs };
  }
  if (SUBSCRIPTION_KEYS.test(envelope.errorKey) || envelope.code === 403) {
    return { ok: false, error: new EisSubscriptionRequiredError(details), retry: false };
  }
  const message = messageOf(envelope, reply.apiKey);
  return { ok: false, ...errorForStatus(envelope.code, details, reply.charging, retryAfterMs, message) };
}

/** A 2xx body parsed against the call's schema; a mismatch has an unknown outcome on a charging call. */
function judgeSuccessBody<S extends z.ZodType>(schema: S, reply: Reply, json: unknown): Verdict<z.output<S>> {
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data, traceId: reply.traceHeader };
  const issues = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
  const cause = new Error(`response did not match the schema: ${scrub(issues, reply.apiKey)}`);
  return unreadableSuccess(reply, 'unexpected-shape', cause);
}

/** The error for an HTTP status (or an envelope's code), and whether retrying it is safe. */
export function errorForStatus(
  status: number,
  details: EisErrorDetails,
  charging: boolean,
  retryAfterMs: number | undefined,
  message: string | undefined,
): { error: EisError; retry: boolean } {
  switch (status) {
    case 400:
    case 422: {
      const reason = message ? `the service rejected the request: ${message}` : undefined;
      return { error: new EisBadInputError({ ...details, reason }), retry: false };
    }
    case 401:
      return { error: new EisUnauthorizedError(details), retry: false };
    case 402:
      return { error: new EisInsufficientCreditsError(details), retry: false };
    case 403:
      return { error: new EisSubscriptionRequiredError(details), retry: false };
    case 404:
      return { error: new EisNotFoundError(details), retry: false };
    case 409:
      return { error: conflictError(details, message), retry: false };
    case 429:
      // rejected before execution: safe to retry, charging or not
      return { error: new EisRateLimitedError({ ...details, retryAfterMs }), retry: true };
  }
  if (status >= 500) return serverError(details, charging);
  const error = new EisUpstreamError({
    ...details,
    failure: 'unexpected-status',
    outcomeUnknown: false,
    retryable: false,
  });
  return { error, retry: false };
}

function conflictError(details: EisErrorDetails, message: string | undefined): EisError {
  // the generic conflict key means another credit operation holds the target; other keys name a state
  const inProgress = !details.errorKey || IN_PROGRESS_KEYS.test(details.errorKey);
  const reason = inProgress ? undefined : message;
  return new EisCreditOperationInProgressError({ ...details, reason });
}

/** A 5xx: a read is retried; a charging call may have run, so its outcome is unknown and it is not. */
function serverError(details: EisErrorDetails, charging: boolean): { error: EisError; retry: boolean } {
  const error = new EisUpstreamError({
    ...details,
    failure: 'server-error',
    outcomeUnknown: charging,
    retryable: !charging,
  });
  return { error, retry: !charging };
}

export interface ErrorEnvelope {
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
function messageOf(envelope: ErrorEnvelope | undefined, apiKey: string): string | undefined {
  const message = envelope?.message?.trim();
  return message ? scrub(message.slice(0, 200), apiKey) : undefined;
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
