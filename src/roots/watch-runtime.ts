import { SQSClient } from '@aws-sdk/client-sqs';
import * as z from 'zod';
import { type createScheduledLoader, type LambdaClock, remainingTimeOf } from './runtime.ts';
import { type BatchResponse, consumeWatchChecks } from '../scheduling/watch-consumer.ts';
import { dispatchDueWatches, type WatchDelivery, type WatchRunSummary } from '../scheduling/watch-dispatch.ts';
import { watchQueueSender } from '../scheduling/watch-queue.ts';

type ScheduledLoader = ReturnType<typeof createScheduledLoader>;

/** `WATCH_QUEUE_URL`: the queue each due channel's check is sent to; unset, the checks run inline. */
const WatchQueueUrl = z.url().optional();

export interface WatchRunOptions {
  /** The business clock the loader was built with (tests move it). */
  now?: () => Date;
  /** The SQS client (tests pass a fake); by default one built from the environment (`AWS_ENDPOINT_URL_SQS`). */
  sqs?: Pick<SQSClient, 'send'>;
}

/**
 * The hourly watch run over a scheduled loader: the due channels of the workspaces that can be served,
 * fairly, sent to `WATCH_QUEUE_URL` when it is set, else checked here within the Lambda's time.
 */
export function createWatchRun(
  load: ScheduledLoader,
  source: NodeJS.ProcessEnv = process.env,
  options: WatchRunOptions = {},
) {
  const queueUrl = WatchQueueUrl.parse(source.WATCH_QUEUE_URL || undefined);
  const now = options.now ?? (() => new Date());
  const sqs = queueUrl ? (options.sqs ?? new SQSClient({})) : undefined;
  return async (context?: LambdaClock): Promise<WatchRunSummary> => {
    const jobs = await load();
    jobs.logger.addLambdaContext(context);
    const logger = jobs.logger.child({ job: 'watch' });
    const delivery: WatchDelivery =
      queueUrl && sqs
        ? { kind: 'queue', send: watchQueueSender({ client: sqs, queueUrl, logger }) }
        : { kind: 'inline', check: jobs.checkWatchedChannel, ...remainingTimeOf(context) };
    const summary = await dispatchDueWatches({
      workspaces: load.store.scheduledWork,
      dueIn: load.store.watchLists.dueIn,
      servable: load.servable(),
      delivery,
      logger,
      now,
    });
    logger.info('watch run', { ...summary });
    return summary;
  };
}

/**
 * The watch queue's consumer over a scheduled loader: one slice per message, its continuation sent to
 * `WATCH_QUEUE_URL` (unset: the hourly run takes a handed-on check over once its lease is out).
 */
export function createWatchConsumer(
  load: ScheduledLoader,
  source: NodeJS.ProcessEnv = process.env,
  options: Pick<WatchRunOptions, 'sqs'> = {},
) {
  const queueUrl = WatchQueueUrl.parse(source.WATCH_QUEUE_URL || undefined);
  const sqs = queueUrl ? (options.sqs ?? new SQSClient({})) : undefined;
  return async (event: unknown, context?: LambdaClock): Promise<BatchResponse> => {
    const jobs = await load();
    jobs.logger.addLambdaContext(context);
    const logger = jobs.logger.child({ job: 'watch-check' });
    return consumeWatchChecks(event, {
      check: jobs.checkWatchedChannel,
      logger,
      ...(queueUrl && sqs ? { handOn: watchQueueSender({ client: sqs, queueUrl, logger }) } : {}),
      ...remainingTimeOf(context),
    });
  };
}
