import { AppError, type ServiceErrorCode } from './errors.ts';

/*
 * The service's failures as the rest of the bot sees them: the client throws them (src/eis/errors.ts),
 * the domain decides on them (through src/domain/ports/service.ts). Here, below both, so neither imports
 * the other for it.
 */

/** The codes of the service client's errors that the domain decides on. */
export const SERVICE_ERROR_CODE = {
  unauthorized: 'EIS_UNAUTHORIZED',
  insufficientCredits: 'EIS_INSUFFICIENT_CREDITS',
  upstream: 'EIS_UPSTREAM',
} as const satisfies Record<string, ServiceErrorCode>;

/**
 * The base of every error the service client throws, so the domain can tell a service failure and its
 * code apart without importing the client. `outcomeUnknown`: a charging call may have run, so credits may
 * have been spent.
 */
export class ServiceError extends AppError {
  declare readonly code: ServiceErrorCode;
  readonly traceId: string | undefined;
  readonly outcomeUnknown: boolean;

  constructor(
    code: ServiceErrorCode,
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

export const isServiceError = (error: unknown, code: ServiceErrorCode): error is ServiceError =>
  error instanceof ServiceError && error.code === code;
