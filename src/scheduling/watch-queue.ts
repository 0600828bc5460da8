import { createHash } from 'node:crypto';
import {
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { Logger } from '../platform/log.ts';
import type { WatchCheckRequest } from './watch-dispatch.ts';

/** SendMessageBatch takes at most 10 messages. */
export const SQS_BATCH_SIZE = 10;
/** Entries SQS refused for a passing reason (throttling, an internal error) are sent again, this often. */
export const SEND_ATTEMPTS = 4;
/**
 * A workspace's checks run in this many FIFO message groups (lanes) at once, each channel always in
 * the same lane. A lane runs one slice at a time, 3 look-ups at once (`LOOKUP_CONCURRENCY`), so a
 * workspace's service key has at most 6 watch calls in flight (`WATCH_IN_FLIGHT_PER_KEY`), wherever
 * its lanes run, under the service's 10 per user; and
 * as a slice's continuation joins the back of its lane, the channels of a lane take turns, a slice
 * each: a big list never holds its workspace's other channels back by more than a slice.
 */
export const WATCH_LANES_PER_WORKSPACE = 2;

export interface WatchQueueOptions {
  client: Pick<SQSClient, 'send'>;
  queueUrl: string;
  logger: Logger;
  /** Between attempts at the failed entries; tests make it instant. */
  sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends check slices to the queue, 10 to a call, sending again the entries SQS failed for a passing
 * reason. On a FIFO queue a channel's slices go to its workspace's lane (`WATCH_LANES_PER_WORKSPACE`),
 * and each slice's id is its deduplication id.
 */
export function watchQueueSender({ client, queueUrl, logger, sleep = wait }: WatchQueueOptions) {
  const fifo = queueUrl.endsWith('.fifo');
  const entryOf = (request: WatchCheckRequest, index: number): SendMessageBatchRequestEntry => ({
    Id: String(index),
    MessageBody: JSON.stringify(request),
    ...(fifo ? { MessageGroupId: laneOf(request), MessageDeduplicationId: deduplicationId(request) } : {}),
  });
  /** One batch, its failed entries sent again; answers how many were not queued. */
  const sendBatch = async (entries: SendMessageBatchRequestEntry[]) => {
    let pending = entries;
    let refused = 0;
    for (let attempt = 1; pending.length > 0 && attempt <= SEND_ATTEMPTS; attempt++) {
      if (attempt > 1) await sleep(100 * 2 ** attempt * Math.random());
      const { Failed = [] } = await client.send(
        new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: pending }),
      );
      // A sender fault (a malformed entry) fails the same way again: said once, not retried.
      for (const entry of Failed.filter((failed) => failed.SenderFault))
        logger.error('the watch queue refused a check', { code: entry.Code, reason: entry.Message });
      refused += Failed.filter((failed) => failed.SenderFault).length;
      const retry = new Set(Failed.filter((failed) => !failed.SenderFault).map((failed) => failed.Id));
      pending = pending.filter((entry) => retry.has(entry.Id));
    }
    if (pending.length > 0) logger.warn('checks not queued after retries', { checks: pending.length });
    return refused + pending.length;
  };
  return async (requests: WatchCheckRequest[]) => {
    let failed = 0;
    const entries = requests.map(entryOf);
    for (let start = 0; start < entries.length; start += SQS_BATCH_SIZE)
      failed += await sendBatch(entries.slice(start, start + SQS_BATCH_SIZE));
    return { sent: requests.length - failed, failed };
  };
}

/** The message group of a channel's slices: its workspace and one of the workspace's lanes, by channel. */
export function laneOf({ teamId, channelId }: Pick<WatchCheckRequest, 'teamId' | 'channelId'>): string {
  const lane = createHash('sha256').update(channelId).digest().readUInt32BE(0) % WATCH_LANES_PER_WORKSPACE;
  return `${teamId}#${lane}`;
}

/** FIFO deduplication ids are at most 128 characters: the slice's key, hashed. */
function deduplicationId({ teamId, channelId, checkId, slice }: WatchCheckRequest): string {
  return createHash('sha256')
    .update(`${teamId}/${channelId}/${checkId}/${slice ?? 'next'}`)
    .digest('hex');
}
