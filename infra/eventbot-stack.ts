import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FunctionUrlAuthType, type IDestination } from 'aws-cdk-lib/aws-lambda';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { DeployConfig } from './config.ts';
import { Alarms } from './constructs/alarms.ts';
import { AppSecret } from './constructs/app-secret.ts';
import { BotFunction } from './constructs/bot-function.ts';
import { BotTable, TABLE_ACCESS } from './constructs/bot-table.ts';
import { Schedules } from './constructs/schedules.ts';

export interface EventbotStackProps extends StackProps {
  readonly config: DeployConfig;
}

/** Output names, shared with `fill-manifest.ts` and the README. */
export const OUTPUTS = {
  slackRequestUrl: 'SlackRequestUrl',
  secretArn: 'AppSecretArn',
  tableName: 'TableName',
  deadLetterQueueUrl: 'WorkerDeadLetterQueueUrl',
} as const;

/** The Slack path Bolt answers on; a Function URL routes every path to the function anyway. */
export const SLACK_EVENTS_PATH = 'slack/events';

export class EventbotStack extends Stack {
  readonly slack: BotFunction;
  readonly worker: BotFunction;
  readonly pollTasks: BotFunction;
  readonly digest: BotFunction;

  constructor(scope: Construct, id: string, props: EventbotStackProps) {
    super(scope, id, props);
    const { config } = props;

    const table = new BotTable(this, 'Data');
    const { secret } = new AppSecret(this, 'AppSecret');
    const data = { table, secret };

    this.worker = new BotFunction(this, 'Worker', {
      name: 'worker',
      handlerFile: 'worker.ts',
      description: 'eventbot: slow work after the Slack ack (async invoke from the Slack function)',
      config,
    }).bind(data, TABLE_ACCESS.readWrite);

    this.slack = new BotFunction(this, 'Slack', {
      name: 'slack',
      handlerFile: 'slack.ts',
      description: 'eventbot: Slack slash commands and buttons',
      config,
    })
      .bind(data, TABLE_ACCESS.confirmations)
      .allowInvoke(this.worker);

    this.pollTasks = new BotFunction(this, 'PollTasks', {
      name: 'pollTasks',
      handlerFile: 'poll-tasks.ts',
      description: 'eventbot: every minute, unlock tasks that are due',
      config,
    }).bind(data, TABLE_ACCESS.readWrite);

    this.digest = new BotFunction(this, 'Digest', {
      name: 'digest',
      handlerFile: 'digest.ts',
      description: 'eventbot: hourly, the digests that are due',
      config,
    }).bind(data, TABLE_ACCESS.readWrite);

    // Jobs the worker could not finish land here for a look (and an alarm), not in a retry loop.
    const deadLetterQueue = new Queue(this, 'WorkerDeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.worker.fn.configureAsyncInvoke({
      // A job may spend credits: one attempt, never an automatic second one. Charge jobs are guarded
      // against redelivery, but a repeated command job would post a second card.
      retryAttempts: 0,
      maxEventAge: Duration.hours(1),
      onFailure: sendOnlyQueueDestination(deadLetterQueue),
    });
    // Schedule runs are not retried by Lambda either: the next run picks up what is still due.
    for (const timed of [this.pollTasks, this.digest]) {
      timed.fn.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.minutes(1) });
    }

    new Schedules(this, 'Schedules', { pollTasks: this.pollTasks.fn, digest: this.digest.fn });

    // Function URL rather than an API Gateway HTTP API: Slack is the only caller and signs every
    // request, and Bolt rejects any without a valid signature, so auth NONE gives nothing away; there
    // is no extra service to pay for or configure, and no 29 s integration limit to reason about (the
    // function acks within Slack's 3 s and hands slow work to the worker). Reserved concurrency bounds
    // a flood of unsigned requests.
    const url = this.slack.fn.addFunctionUrl({ authType: FunctionUrlAuthType.NONE });

    new Alarms(this, 'Alarms', {
      functions: {
        Slack: this.slack.fn,
        Worker: this.worker.fn,
        PollTasks: this.pollTasks.fn,
        Digest: this.digest.fn,
      },
      deadLetterQueue,
      ...(config.alarmEmail ? { email: config.alarmEmail } : {}),
    });

    new CfnOutput(this, OUTPUTS.slackRequestUrl, {
      description: 'Request URL for the Slack app (slash command and interactivity)',
      value: `${url.url}${SLACK_EVENTS_PATH}`,
    });
    new CfnOutput(this, OUTPUTS.secretArn, {
      description: 'Put {slackSigningSecret, slackBotToken, eisApiKey} here',
      value: secret.secretArn,
    });
    new CfnOutput(this, OUTPUTS.tableName, { value: table.table.tableName });
    new CfnOutput(this, OUTPUTS.deadLetterQueueUrl, { value: deadLetterQueue.queueUrl });
  }
}

/**
 * An on-failure destination like `SqsDestination`, but granting only `sqs:SendMessage` (the one call
 * Lambda makes with the function's role), not also GetQueueAttributes and GetQueueUrl.
 */
function sendOnlyQueueDestination(queue: IQueue): IDestination {
  return {
    bind: (_scope, fn) => {
      fn.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }));
      return { destination: queue.queueArn };
    },
  };
}
