import { Duration, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { FUNCTION_SIZING, WATCH_CHECK_CONCURRENCY } from '../config.ts';
import type { BotFunction } from './bot-function.ts';

/** A check is received this often before it goes to the dead-letter queue (a failing one, not a slow one). */
export const WATCH_MAX_RECEIVES = 3;
/**
 * Slices per consumer invocation: one, so a slice never waits behind another in the same batch (nor a
 * failed one's lane behind a batch's later messages); partial batch responses are reported all the same.
 */
export const WATCH_CHECK_BATCH_SIZE = 1;

export interface WatchQueueProps {
  /** The hourly run: sends each due channel's check. */
  readonly scheduler: BotFunction;
  /** The consumer: one slice of a channel's check per message; it sends the check's next slice. */
  readonly consumer: BotFunction;
}

/**
 * The fan-out of the watch checks, a slice per message: a FIFO queue (a workspace's channels spread
 * over its lanes, `WATCH_LANES_PER_WORKSPACE` message groups, so at most that many of its slices run
 * at once and its service key's per-user concurrency holds however many consumers run; a slice sent
 * twice within 5 minutes is deduplicated by SQS, later by its claim), SQS-managed encryption, TLS
 * only, and a dead-letter queue after `WATCH_MAX_RECEIVES` receives. The scheduler may only send
 * (`WATCH_QUEUE_URL`); the consumer receives and deletes through an event source that reports
 * partial batch failures, one message at a time, and sends a check's next slice to the back of its lane.
 */
export class WatchQueue extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: WatchQueueProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      fifo: true,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "This is the dead-letter queue: the watch queue's redrive target (an alarm watches it)",
    });
    this.queue = new Queue(this, 'Queue', {
      fifo: true,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // AWS's advice for a Lambda consumer: at least 6 times its timeout, so a running batch is never
      // handed to a second consumer.
      visibilityTimeout: Duration.seconds(FUNCTION_SIZING.watchCheck.timeout.toSeconds() * 6),
      // Past this a check is stale anyway: the hourly run sends the channel again while it is due.
      retentionPeriod: Duration.days(1),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: WATCH_MAX_RECEIVES },
    });
    // SendMessage covers SendMessageBatch; not `grantSendMessages`, which adds GetQueueAttributes and GetQueueUrl.
    for (const sender of [props.scheduler, props.consumer]) {
      sender.role.addToPrincipalPolicy(
        new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }),
      );
      sender.fn.addEnvironment('WATCH_QUEUE_URL', this.queue.queueUrl);
    }
    props.consumer.fn.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: WATCH_CHECK_BATCH_SIZE,
        reportBatchItemFailures: true,
        maxConcurrency: WATCH_CHECK_CONCURRENCY,
      }),
    );
  }
}
