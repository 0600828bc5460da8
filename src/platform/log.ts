import { AsyncLocalStorage } from 'node:async_hooks';
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { LogFormatter, LogItem, Logger as Powertools } from '@aws-lambda-powertools/logger';
import type { UnformattedAttributes } from '@aws-lambda-powertools/logger/types';

/**
 * One structured JSON logger: Powertools for AWS Lambda underneath (the Lambda context's request id
 * and cold start on every line), with this project's formatter on top. Keys that could carry secrets
 * are redacted wherever they appear, and any string that looks like a service key or Slack token is
 * masked, as a last line of defence. Every line carries the correlation id of the work it belongs to
 * (a Slack request, a confirmation, an unlock task), carried across the worker and scheduled jobs.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

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

const correlation = new AsyncLocalStorage<string>();

/** Runs `work` with `id` as the correlation id of every line it logs (an inner call takes over). */
export function withCorrelationId<T>(id: string, work: () => T): T {
  return correlation.run(id, work);
}

/** The correlation id of the work under way, to hand on to work started elsewhere (a worker job). */
export function currentCorrelationId(): string | undefined {
  return correlation.getStore();
}

class RedactingFormatter extends LogFormatter {
  override formatAttributes(attributes: UnformattedAttributes, fields: LogFields): LogItem {
    const line = redact({
      level: attributes.logLevel.toLowerCase(),
      time: this.formatTimestamp(attributes.timestamp),
      message: attributes.message,
      correlation_id: currentCorrelationId(),
      cold_start: attributes.lambdaContext?.coldStart,
      request_id: attributes.lambdaContext?.awsRequestId,
      ...fields,
    });
    return new LogItem({ attributes: line as LogFields });
  }
}

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
  /** Puts the Lambda invocation's request id and cold-start flag on every later line. */
  addLambdaContext(context: unknown): void;
}

export function createLogger(options: { level?: LogLevel; write?: (line: string) => void } = {}): Logger {
  const powertools = new Powertools({
    serviceName: 'eventbot',
    logLevel: (options.level ?? 'info').toUpperCase() as Uppercase<LogLevel>,
    logFormatter: new RedactingFormatter(),
  });
  if (options.write) divertOutput(powertools, options.write);
  const withBase = (base: LogFields): Logger => ({
    debug: (message, fields) => powertools.debug(message, { ...base, ...fields }),
    info: (message, fields) => powertools.info(message, { ...base, ...fields }),
    warn: (message, fields) => powertools.warn(message, { ...base, ...fields }),
    error: (message, fields) => powertools.error(message, { ...base, ...fields }),
    child: (fields) => withBase({ ...base, ...fields }),
    addLambdaContext: (context) => {
      if (isLambdaContext(context)) powertools.addContext(context);
    },
  });
  return withBase({});
}

type LambdaContext = Parameters<Powertools['addContext']>[0];

function isLambdaContext(context: unknown): context is LambdaContext {
  return typeof (context as Partial<LambdaContext> | undefined)?.awsRequestId === 'string';
}

/** Powertools writes through its own console on stdout; tests and the dev page read lines instead. */
function divertOutput(powertools: Powertools, write: (line: string) => void): void {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      write(chunk.toString().trimEnd());
      done();
    },
  });
  Object.assign(powertools, { console: new Console({ stdout: stream, stderr: stream }) });
}

/** A logger that records lines in memory, for tests that check what was (not) logged. */
export function createMemoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(createLogger({ level: 'debug', write: (line) => lines.push(line) }), { lines });
}
