/** An error the simulator answers as an ApiError body with a real HTTP status. */
export class SimError extends Error {
  constructor(
    readonly status: number,
    readonly errorKey: string,
    message: string,
  ) {
    super(message);
    this.name = 'SimError';
  }
}

export const badRequest = (message: string): SimError => new SimError(400, 'INVALID_REQUEST', message);
export const notFound = (message = 'Resource not found'): SimError => new SimError(404, 'NOT_FOUND', message);
export const conflict = (message: string, errorKey = 'STATE_CONFLICT'): SimError =>
  new SimError(409, errorKey, message);
export const insufficientCredits = (needed: number, balance: number): SimError =>
  new SimError(402, 'INSUFFICIENT_CREDITS', `Insufficient credits: ${needed} required, ${balance} available`);

export const ERROR_KEYS: Record<number, string> = {
  400: 'INVALID_REQUEST',
  401: 'INVALID_API_KEY',
  402: 'INSUFFICIENT_CREDITS',
  403: 'SUBSCRIPTION_REQUIRED',
  404: 'NOT_FOUND',
  409: 'STATE_CONFLICT',
  422: 'UNPROCESSABLE_ENTITY',
  429: 'RATE_LIMIT_EXCEEDED',
  500: 'INTERNAL_SERVER_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

export function apiErrorBody(status: number, errorKey: string, message: string, traceId: string) {
  return { code: status, message, errorKey, traceId };
}

/** HTTP 200 business error: the per-user concurrency limit was exceeded; nothing was executed. */
export function concurrencyEnvelope(traceId: string) {
  return {
    code: 429,
    message: 'Too many concurrent requests for this endpoint',
    errorKey: 'USER_CONCURRENCY_LIMIT_EXCEEDED',
    data: null,
    details: null,
    traceId,
  };
}

/** HTTP 200 business error: the feature needs an active paid subscription; nothing was executed. */
export function featureUnavailableEnvelope(traceId: string) {
  return {
    code: 400,
    message: 'This feature is not available to free users, please upgrade to continue',
    errorKey: 'USER_HAS_NO_FEATURE',
    traceId,
  };
}
