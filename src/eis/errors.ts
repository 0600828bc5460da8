import type { ServiceErrorCode } from '../platform/errors.ts';
import { SERVICE_ERROR_CODE, ServiceError } from '../platform/service-error.ts';

/** What the service said about a failed call, as far as it said anything. Never holds request headers. */
export interface EisErrorDetails {
  /** The API operation, e.g. `events.unlock`. */
  operation: string;
  /** HTTP status, or the business code of a 200 error envelope; undefined when no response arrived. */
  status?: number | undefined;
  errorKey?: string | undefined;
  /** The service's trace id, already passed through `safeTraceId` (verdict.ts). */
  traceId?: string | undefined;
  /** The parsed error body (an ApiError envelope or whatever came back); never the request. */
  body?: unknown;
  cause?: unknown;
}

interface EisErrorInit extends EisErrorDetails {
  code: ServiceErrorCode;
  message: string;
  userMessage: string;
  retryable?: boolean;
  outcomeUnknown?: boolean;
}

/**
 * The base of every error the service client throws. `userMessage` is fit for a Slack user, even on a
 * public card, so it holds no trace id (see `referenceOf`); `message` is for logs. Neither, nor any field,
 * ever carries the API key.
 */
export class EisError extends ServiceError {
  readonly operation: string;
  readonly status: number | undefined;
  readonly errorKey: string | undefined;
  readonly body: unknown;

  constructor(init: EisErrorInit) {
    super(init.code, init.message, {
      cause: init.cause,
      userMessage: init.userMessage,
      retryable: init.retryable ?? false,
      traceId: init.traceId,
      outcomeUnknown: init.outcomeUnknown ?? false,
    });
    this.operation = init.operation;
    this.status = init.status;
    this.errorKey = init.errorKey;
    this.body = init.body;
  }
}

function describe(details: EisErrorDetails, what: string): string {
  const parts = [`${details.operation}: ${what}`];
  if (details.status !== undefined) parts.push(`status ${details.status}`);
  if (details.errorKey) parts.push(`errorKey ${details.errorKey}`);
  if (details.traceId) parts.push(`traceId ${details.traceId}`);
  return parts.join('; ');
}

/**
 * "Reference: <traceId>" for an EisError that carries one, else undefined. Only for messages the requester
 * alone sees: `userMessage` may be posted on a public card, so it never holds the trace id.
 */
export function referenceOf(error: unknown): string | undefined {
  return error instanceof EisError && error.traceId ? `Reference: ${error.traceId}` : undefined;
}

/** 400 / 422, or input the client refused before sending anything. */
export class EisBadInputError extends EisError {
  constructor(details: EisErrorDetails & { reason?: string | undefined }) {
    const reason = details.reason ?? 'the service rejected the request as invalid';
    super({
      ...details,
      code: 'EIS_BAD_INPUT',
      message: describe(details, reason),
      userMessage: `That request could not be accepted: ${reason}.`,
    });
  }
}

/** 401: the key is missing, malformed, revoked or invalid. */
export class EisUnauthorizedError extends EisError {
  constructor(details: EisErrorDetails) {
    super({
      ...details,
      code: SERVICE_ERROR_CODE.unauthorized,
      message: describe(details, 'the service rejected the API key'),
      userMessage:
        'The Event Intelligence Service did not accept the bot’s API key. Please ask a workspace admin to check the key.',
    });
  }
}

/** 402: not enough credits; nothing was charged. */
export class EisInsufficientCreditsError extends EisError {
  constructor(details: EisErrorDetails) {
    super({
      ...details,
      code: SERVICE_ERROR_CODE.insufficientCredits,
      message: describe(details, 'insufficient credits'),
      userMessage:
        'There are not enough credits for this action, so nothing was charged. Ask an admin to add credits, or choose a smaller scope.',
    });
  }
}

/** 403, or a 200 business envelope saying the feature needs an active paid subscription. */
export class EisSubscriptionRequiredError extends EisError {
  constructor(details: EisErrorDetails) {
    super({
      ...details,
      code: 'EIS_SUBSCRIPTION_REQUIRED',
      message: describe(details, 'an active paid subscription is required'),
      userMessage:
        'This needs an active paid subscription on the Event Intelligence account. Please ask a workspace admin.',
    });
  }
}

/** 404: the event, person or task cannot be resolved. */
export class EisNotFoundError extends EisError {
  constructor(details: EisErrorDetails) {
    super({
      ...details,
      code: 'EIS_NOT_FOUND',
      message: describe(details, 'not found'),
      userMessage: 'The service could not find that event, person or task. Please check the id.',
    });
  }
}

/**
 * 409: a conflicting credit operation for the same target is running, or the target's state does not allow
 * the action now (e.g. no contacts to unlock). `reason` carries the service's words for the latter.
 */
export class EisCreditOperationInProgressError extends EisError {
  constructor(details: EisErrorDetails & { reason?: string | undefined }) {
    super({
      ...details,
      code: 'EIS_CREDIT_OPERATION_IN_PROGRESS',
      message: describe(details, details.reason ?? 'a conflicting credit operation is in progress'),
      userMessage: details.reason
        ? `The service cannot do this right now: ${details.reason}.`
        : 'A credit operation for this is already in progress. Please wait a moment and check the result before trying again.',
    });
  }
}

/** 429, or the 200 USER_CONCURRENCY_LIMIT_EXCEEDED envelope. The service did not run the request. */
export class EisRateLimitedError extends EisError {
  readonly retryAfterMs: number | undefined;
  /** true for the concurrency-limit business envelope, false for an HTTP 429. */
  readonly concurrencyLimit: boolean;

  constructor(details: EisErrorDetails & { retryAfterMs?: number | undefined; concurrencyLimit?: boolean }) {
    const seconds = details.retryAfterMs === undefined ? undefined : Math.ceil(details.retryAfterMs / 1000);
    super({
      ...details,
      code: 'EIS_RATE_LIMITED',
      message: describe(
        details,
        details.concurrencyLimit
          ? 'concurrency limit exceeded'
          : `rate limited (retry after ${seconds ?? '?'} s)`,
      ),
      userMessage:
        seconds === undefined
          ? 'The Event Intelligence Service is busy right now. The bot retried where that was safe, then stopped; nothing was charged. Please try again in a minute.'
          : `The Event Intelligence Service is busy right now. The bot retried where that was safe, then stopped; nothing was charged. Please try again in ${seconds} s.`,
      retryable: true,
    });
    this.retryAfterMs = details.retryAfterMs;
    this.concurrencyLimit = details.concurrencyLimit ?? false;
  }
}

export type UpstreamFailure =
  'server-error' | 'timeout' | 'network' | 'malformed-json' | 'unexpected-shape' | 'unexpected-status';

/**
 * 5xx, timeouts, network errors, malformed JSON, a 2xx whose body does not match the schema, or a status the
 * client does not know. When `outcomeUnknown` is set, a charging call may have run: credits may have been spent.
 */
export class EisUpstreamError extends EisError {
  readonly failure: UpstreamFailure;

  constructor(
    details: EisErrorDetails & { failure: UpstreamFailure; outcomeUnknown: boolean; retryable: boolean },
  ) {
    const what = {
      'server-error': 'the service failed',
      timeout: 'the service did not answer in time',
      network: 'a network error interrupted the call',
      'malformed-json': 'the service answered with malformed JSON',
      'unexpected-shape': 'the service answered with an unexpected body',
      'unexpected-status': 'the service answered with an unexpected status',
    }[details.failure];
    const message = details.outcomeUnknown
      ? `${what}; the outcome is unknown: the charging call may have run and credits may have been spent`
      : what;
    super({
      ...details,
      code: SERVICE_ERROR_CODE.upstream,
      message: describe(details, message),
      userMessage: details.outcomeUnknown
        ? 'The Event Intelligence Service did not confirm the result, so the outcome is unknown and credits may have been spent. Please check the credit balance and the result before trying again.'
        : 'The Event Intelligence Service is not answering properly right now. Please try again later.',
      retryable: details.retryable,
    });
    this.failure = details.failure;
  }
}
