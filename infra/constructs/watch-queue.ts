import { Duration, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { FUNCTION_SIZING, WATCH_CHECK_CONCURRENCY } from '../config.ts';
import type { BotFunction } from './bot-function.ts';

/** A check is received this often before it goes to the dead-letter queue (a failing one, not a slow one). */
export const WATCH_MAX_RECEIVES = 3;
/** Checks per consumer invocation, run one after another (only the failed ones return). */
export const WATCH_CHECK_BATCH_SIZE = 5;

export interface WatchQueueProps {
  /** The hourly run: sends each due channel's check. */
  readonly scheduler: BotFunction;
  /** The consumer: one channel's check per message. */
  readonly consumer: BotFunction;
}

/**
 * The fan-out of the watch checks: a FIFO queue (a workspace's checks are one message group, so they
 * run one at a time and its service key's per-user concurrency holds however many consumers run;
 * a check sent twice within 5 minutes is deduplicated by SQS, later by its claim), SQS-managed
 * encryption, TLS only, and a dead-letter queue after `WATCH_MAX_RECEIVES` receives. The scheduler
 * may only send (`WATCH_QUEUE_URL`), the consumer only receive and delete, through an event source
 * that reports partial batch failures.
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
    props.scheduler.role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }),
    );
    props.scheduler.fn.addEnvironment('WATCH_QUEUE_URL', this.queue.queueUrl);
    props.consumer.fn.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: WATCH_CHECK_BATCH_SIZE,
        reportBatchItemFailures: true,
        maxConcurrency: WATCH_CHECK_CONCURRENCY,
      }),
    );
  }
}
