import { LogLevel, type Logger as SlackLogger } from '@slack/logger';
import type { Logger } from '../platform/log.ts';

// Apart from app.ts so the OAuth pages (oauth.ts) log through it without loading Bolt.

/** Bolt's logger interface over ours. Debug is dropped: Bolt logs raw request bodies at that level. */
export function boltLogger(logger: Logger): SlackLogger {
  const text = (parts: unknown[]) =>
    parts.map((part) => (typeof part === 'string' ? part : String(part))).join(' ');
  return {
    debug: () => {},
    info: (...parts) => logger.info(text(parts), { source: 'bolt' }),
    warn: (...parts) => logger.warn(text(parts), { source: 'bolt' }),
    error: (...parts) => logger.error(text(parts), { source: 'bolt' }),
    setLevel: () => {},
    getLevel: () => LogLevel.INFO,
    setName: () => {},
  };
}
