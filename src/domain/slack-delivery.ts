import { AppError } from '../platform/errors.ts';

/**
 * How the scheduled jobs see a failed Slack post, whatever client made it: the Slack error code,
 * whether trying again can help, and how long Slack asked us to wait. The handlers' wiring turns
 * Web API errors into this, so the domain never imports `@slack/*`.
 */
export class SlackDeliveryError extends AppError {
  /** Slack's own code, e.g. `channel_not_found`, `ratelimited`, or `request_failed` for a network error. */
  readonly slackError: string;
  readonly retryAfterMs: number | undefined;

  constructor(slackError: string, options: { retryable: boolean; retryAfterMs?: number; cause?: unknown }) {
    super('SLACK_DELIVERY', `Slack refused the message: ${slackError}`, {
      cause: options.cause,
      retryable: options.retryable,
    });
    this.slackError = slackError;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** The bot cannot post there and never will until a person acts: the channel is gone, archived, or left. */
export const CHANNEL_GONE = new Set([
  'channel_not_found',
  'is_archived',
  'not_in_channel',
  'restricted_action',
]);

export const isChannelGone = (error: unknown): error is SlackDeliveryError =>
  error instanceof SlackDeliveryError && CHANNEL_GONE.has(error.slackError);

export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

export interface PacerOptions {
  /** Slack allows about one message per second per channel. */
  minGapMs?: number;
  /** Tries per message, the first included. */
  maxAttempts?: number;
  /** Wait between tries when Slack gave no Retry-After. */
  backoffMs?: number;
  /** Never wait past this many ms from now (the Lambda's remaining time, less a margin). */
  budgetMs?: () => number;
  sleep?: Sleep;
  /** Monotonic milliseconds; pacing is real time even when the business clock is a test's. */
  monotonic?: () => number;
}

/**
 * Sends to Slack at most about once a second per channel, and tries again after a retryable failure,
 * waiting what Slack's Retry-After says (or a doubling backoff). A permanent failure, a failure after
 * the last try, or a wait that would not fit in the budget is thrown to the caller.
 */
export function createChannelPacer(options: PacerOptions = {}) {
  const minGapMs = options.minGapMs ?? 1000;
  const maxAttempts = options.maxAttempts ?? 3;
  const backoffMs = options.backoffMs ?? 1000;
  const budgetMs = options.budgetMs ?? (() => Number.POSITIVE_INFINITY);
  const sleep = options.sleep ?? realSleep;
  const monotonic = options.monotonic ?? (() => performance.now());
  const nextSlot = new Map<string, number>();
  // Sends to one channel queue behind each other; other channels go on in parallel.
  const queues = new Map<string, Promise<unknown>>();

  async function attempt<T>(channelId: string, send: () => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      const wait = (nextSlot.get(channelId) ?? 0) - monotonic();
      if (wait > 0) {
        if (wait > budgetMs()) throw new SlackDeliveryError('no_time_left', { retryable: true });
        await sleep(wait);
      }
      nextSlot.set(channelId, monotonic() + minGapMs);
      try {
        return await send();
      } catch (error) {
        const retryable = error instanceof SlackDeliveryError && error.retryable;
        if (!retryable || tries >= maxAttempts) throw error;
        const delay = error.retryAfterMs ?? backoffMs * 2 ** (tries - 1);
        nextSlot.set(channelId, monotonic() + delay);
      }
    }
  }

  return function paced<T>(channelId: string, send: () => Promise<T>): Promise<T> {
    const previous = queues.get(channelId) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => attempt(channelId, send));
    queues.set(channelId, run);
    return run;
  };
}
