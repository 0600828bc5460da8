/** The codes of the service client's errors (src/eis/errors.ts), one per failure the service reports. */
export type ServiceErrorCode =
  | 'EIS_BAD_INPUT'
  | 'EIS_UNAUTHORIZED'
  | 'EIS_INSUFFICIENT_CREDITS'
  | 'EIS_SUBSCRIPTION_REQUIRED'
  | 'EIS_NOT_FOUND'
  | 'EIS_CREDIT_OPERATION_IN_PROGRESS'
  | 'EIS_RATE_LIMITED'
  | 'EIS_UPSTREAM';

/** Every code an `AppError` carries, so that a misspelt code, thrown or compared, fails the typecheck. */
export type AppErrorCode =
  | ServiceErrorCode
  | 'VALIDATION'
  | 'CONFLICT'
  | 'WORKSPACE_NOT_CONNECTED'
  | 'KEY_CIPHER'
  | 'KEY_CIPHER_MISSING'
  | 'STORE_ITEM_INVALID'
  | 'INSTALLATION_NOT_FOUND'
  | 'SLACK_TOKEN_REFRESH_FAILED'
  | 'SLACK_DELIVERY'
  | 'WATCH_CHECK_FAILED';

/**
 * The one error base of the project. `code` is a stable string a caller may branch on; `userMessage`
 * is safe to show in Slack (no secrets, no stack, no internals) and must be given to say more.
 */
export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly userMessage: string;
  readonly retryable: boolean;

  constructor(
    code: AppErrorCode,
    message: string,
    options: { cause?: unknown; userMessage?: string; retryable?: boolean } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    // Internal messages (ids, conditions) are not for users: without a userMessage they see a generic line.
    this.userMessage =
      options.userMessage ?? 'Something went wrong on our side. Please try again in a moment.';
    this.retryable = options.retryable ?? false;
  }
}

/** Input that cannot be acted on: a malformed command, an invalid id. */
export class ValidationError extends AppError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('VALIDATION', message, options);
  }
}

/** A conditional write lost: somebody else got there first. */
export class ConflictError extends AppError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('CONFLICT', message, options);
  }
}

/** A workspace that installed the app but has not connected its service key (or removed it). */
export class WorkspaceNotConnectedError extends AppError {
  constructor(teamId: string) {
    super('WORKSPACE_NOT_CONNECTED', `Workspace ${teamId} has no service key connected`, {
      userMessage:
        'This workspace has not connected its Event Intelligence key yet: an admin can connect it from the app’s Home tab.',
    });
  }
}
