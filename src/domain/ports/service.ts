import { AppError } from '../../platform/errors.ts';

/** The codes of the service client's errors that the domain decides on. */
export const SERVICE_ERROR_CODE = {
  unauthorized: 'EIS_UNAUTHORIZED',
  insufficientCredits: 'EIS_INSUFFICIENT_CREDITS',
  upstream: 'EIS_UPSTREAM',
} as const;

/**
 * The base of every error the service client throws (src/eis/errors.ts), so the domain can tell a
 * service failure and its code apart without importing the client. `outcomeUnknown`: a charging call
 * may have run, so credits may have been spent.
 */
export class ServiceError extends AppError {
  readonly traceId: string | undefined;
  readonly outcomeUnknown: boolean;

  constructor(
    code: string,
    message: string,
    options: {
      cause?: unknown;
      userMessage: string;
      retryable: boolean;
      traceId?: string | undefined;
      outcomeUnknown?: boolean;
    },
  ) {
    super(code, message, {
      cause: options.cause,
      userMessage: options.userMessage,
      retryable: options.retryable,
    });
    this.traceId = options.traceId;
    this.outcomeUnknown = options.outcomeUnknown ?? false;
  }
}

export const isServiceError = (error: unknown, code: string): error is ServiceError =>
  error instanceof ServiceError && error.code === code;

/**
 * The service's trace id of each successful response (its `x-trace-id` header), kept beside the parsed
 * object rather than on it, so result types stay as the spec shows them. The client remembers it; the
 * ledger records it. Free of the HTTP client, so code that only reads results does not bundle it.
 */
const responseTraces = new WeakMap<object, string>();

export function traceIdOf(result: unknown): string | undefined {
  return typeof result === 'object' && result !== null ? responseTraces.get(result) : undefined;
}

export function rememberTraceId(result: unknown, traceId: string): void {
  if (typeof result === 'object' && result !== null) responseTraces.set(result, traceId);
}
