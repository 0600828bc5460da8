/**
 * The one error base of the project. `code` is a stable string a caller may branch on; `userMessage`
 * is safe to show in Slack (no secrets, no stack, no internals) and must be given to say more.
 */
export class AppError extends Error {
  readonly code: string;
  readonly userMessage: string;
  readonly retryable: boolean;

  constructor(
    code: string,
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
