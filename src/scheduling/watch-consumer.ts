import { WorkspaceNotConnectedError } from '../platform/errors.ts';
import type { Logger } from '../platform/log.ts';
import { InstallationNotFoundError } from '../store/index.ts';
import { type WatchCheckRequest, WatchCheckRequestSchema } from './watch-dispatch.ts';

/** A check is started only while this much of the Lambda's time is left; later ones go back to the queue. */
export const CONSUMER_CHECK_RESERVE_MS = 3 * 60_000;

/** The part of an SQS record the consumer reads. */
interface QueueRecord {
  messageId: string;
  body: string;
}

/** Lambda's partial batch answer: only these messages return to the queue. */
export interface BatchResponse {
  batchItemFailures: { itemIdentifier: string }[];
}

export interface WatchConsumerDeps {
  /** One slice; `next`, when the check has more. */
  check: (request: WatchCheckRequest) => Promise<{ next?: WatchCheckRequest }>;
  /** Sends the next slice to the back of its lane (absent: the hourly run takes it over after the lease). */
  handOn?: (requests: WatchCheckRequest[]) => Promise<{ sent: number; failed: number }>;
  logger: Logger;
  remainingMs?: () => number;
}

/**
 * The queue's consumer: each record one slice of a channel's check, in turn; a slice that leaves
 * accounts for later sends its continuation to the queue, behind the checks already waiting in its
 * lane. A slice that fails returns to the queue alone (its claim makes a retried slice post nothing
 * twice); a malformed body is logged and
 * dropped, never retried into the dead-letter queue; a workspace that cannot be served now is dropped
 * too (the hourly run pauses it and sends its channels again when it can). Any other event (a
 * scheduled one, say) has no records: nothing to do.
 */
export async function consumeWatchChecks(event: unknown, deps: WatchConsumerDeps): Promise<BatchResponse> {
  const batchItemFailures: BatchResponse['batchItemFailures'] = [];
  for (const record of recordsOf(event)) {
    if (deps.remainingMs && deps.remainingMs() < CONSUMER_CHECK_RESERVE_MS) {
      batchItemFailures.push({ itemIdentifier: record.messageId });
      continue;
    }
    const request = parseBody(record, deps.logger);
    if (!request) continue;
    try {
      const { next } = await deps.check(request);
      if (next) await handOn(deps, next);
    } catch (error) {
      const { teamId, channelId } = request;
      if (error instanceof WorkspaceNotConnectedError || error instanceof InstallationNotFoundError) {
        deps.logger.warn('dropped the check of a workspace that cannot be served now', { teamId, channelId });
        continue;
      }
      deps.logger.error('a watched channel could not be checked', { teamId, channelId, error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}

/** Queues the next slice; if it cannot be, the hourly run takes the check over once its lease is out. */
async function handOn(deps: WatchConsumerDeps, next: WatchCheckRequest) {
  const { teamId, channelId } = next;
  const sent = deps.handOn ? await deps.handOn([next]).catch(() => ({ sent: 0 })) : { sent: 0 };
  if (sent.sent === 0)
    deps.logger.warn('the next slice of a watch check was not queued: the hourly run takes it over', {
      teamId,
      channelId,
    });
}

function recordsOf(event: unknown): QueueRecord[] {
  if (typeof event !== 'object' || event === null || !('Records' in event) || !Array.isArray(event.Records))
    return [];
  return event.Records.filter(
    (record): record is QueueRecord =>
      typeof record === 'object' &&
      record !== null &&
      typeof (record as Partial<QueueRecord>).messageId === 'string' &&
      typeof (record as Partial<QueueRecord>).body === 'string',
  );
}

/** The body as a check, or undefined (logged with the message id and what was wrong, never the body). */
function parseBody(record: QueueRecord, logger: Logger): WatchCheckRequest | undefined {
  let json: unknown;
  try {
    json = JSON.parse(record.body);
  } catch {
    logger.error('dropped a watch check message that is not JSON', { messageId: record.messageId });
    return undefined;
  }
  const parsed = WatchCheckRequestSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  logger.error('dropped a malformed watch check message', {
    messageId: record.messageId,
    problems: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
  });
  return undefined;
}
