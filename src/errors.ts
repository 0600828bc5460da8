/**
 * The one error base of the project. `code` is a stable string a caller may branch on; `userMessage`
 * is safe to show in Slack (no secrets, no stack, no internals).
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
    this.userMessage = options.userMessage ?? message;
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
