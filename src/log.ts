/**
 * One structured JSON logger. Keys that could carry secrets are redacted wherever they appear, and
 * any string that looks like a service key or Slack token is masked, as a last line of defence.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const SECRET_KEYS =
  /^(authorization|token|secret|password|apikey|api_key|eisapikey|slackbottoken|slacksigningsecret)$/i;
const SECRET_VALUES = /\b(sk_[A-Za-z0-9_-]+|xox[abposr]-[A-Za-z0-9-]+|xapp-[A-Za-z0-9-]+)/g;

export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.replace(SECRET_VALUES, '[redacted]');
  if (value instanceof Error) {
    // The stack and the cause chain are what make a failure findable (an upstream error's ECONNRESET).
    const { code } = value as { code?: unknown };
    return {
      name: value.name,
      message: redact(value.message),
      ...(code !== undefined ? { code } : {}),
      ...(value.stack ? { stack: redact(value.stack) } : {}),
      ...(value.cause !== undefined && depth < 5 ? { cause: redact(value.cause, depth + 1) } : {}),
    };
  }
  if (depth > 5 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      SECRET_KEYS.test(key) ? '[redacted]' : redact(item, depth + 1),
    ]),
  );
}

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

export function createLogger(
  options: { level?: LogLevel; base?: LogFields; write?: (line: string) => void } = {},
): Logger {
  const threshold = LEVELS[options.level ?? 'info'];
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const base = options.base ?? {};
  const emit = (level: LogLevel, message: string, fields?: LogFields) => {
    if (LEVELS[level] < threshold) return;
    const entry = redact({ level, time: new Date().toISOString(), message, ...base, ...fields });
    write(JSON.stringify(entry));
  };
  return {
    debug: (message, fields) => emit('debug', message, fields),
    info: (message, fields) => emit('info', message, fields),
    warn: (message, fields) => emit('warn', message, fields),
    error: (message, fields) => emit('error', message, fields),
    child: (fields) => createLogger({ ...options, base: { ...base, ...fields } }),
  };
}

/** A logger that records lines in memory, for tests that check what was (not) logged. */
export function createMemoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(createLogger({ level: 'debug', write: (line) => lines.push(line) }), { lines });
}
