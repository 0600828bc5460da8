import { OAUTH_PATHS } from '../src/slack/oauth-paths.ts';
import { CfnOutput, Duration, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FunctionUrlAuthType, type IDestination } from 'aws-cdk-lib/aws-lambda';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { BOLT_ON_LAMBDA_ALIASES } from './bundling/aliases.ts';
import type { DeployConfig } from './config.ts';
import { Alarms } from './constructs/alarms.ts';
import { AppSecret } from './constructs/app-secret.ts';
import { BotFunction } from './constructs/bot-function.ts';
import { BotTable, TABLE_ACCESS } from './constructs/bot-table.ts';
import { OpsDashboard } from './constructs/dashboard.ts';
import { Distribution } from './constructs/distribution.ts';
import { Schedules } from './constructs/schedules.ts';
import { WatchQueue } from './constructs/watch-queue.ts';

export interface EventbotStackProps extends StackProps {
  readonly config: DeployConfig;
}

/** Output names, shared with `fill-manifest.ts` and docs/deploy.md. */
export const OUTPUTS = {
  slackRequestUrl: 'SlackRequestUrl',
  secretArn: 'AppSecretArn',
  serviceSecretArn: 'ServiceSecretArn',
  tableName: 'TableName',
  deadLetterQueueUrl: 'WorkerDeadLetterQueueUrl',
  watchDeadLetterQueueUrl: 'WatchDeadLetterQueueUrl',
  alarmTopicArn: 'AlarmTopicArn',
  dashboardName: 'DashboardName',
  /** Distribution only: the "Add to Slack" page an installing workspace opens. */
  slackInstallUrl: 'SlackInstallUrl',
} as const;

/** The Slack path Bolt answers on; a Function URL routes every path to the function anyway. */
export const SLACK_EVENTS_PATH = 'slack/events';

export class EventbotStack extends Stack {
  readonly slack: BotFunction;
  readonly worker: BotFunction;
  readonly pollTasks: BotFunction;
  readonly digest: BotFunction;
  readonly watch: BotFunction;
  readonly watchCheck: BotFunction;
  readonly watchQueue: WatchQueue;
  /** The worker's on-failure destination. */
  readonly deadLetterQueue: Queue;
  readonly alarms: Alarms;
  readonly secrets: AppSecret;
  /** Set only with `-c slackClientId=…` (issue 15: installable by any workspace). */
  readonly distribution?: Distribution;

  constructor(scope: Construct, id: string, props: EventbotStackProps) {
    super(scope, id, props);
    const { config } = props;

    const table = new BotTable(this, 'Data');
    // Two secrets: the Slack one every function reads, the service key only those that call the
    // service read (not the public Slack function).
    this.secrets = new AppSecret(this, 'AppSecret');
    const secrets = this.secrets;
    const data = { table, secret: secrets.slack };

    // Tracing on the two functions a user waits on (the ack, and the work behind it).
    this.worker = new BotFunction(this, 'Worker', {
      name: 'worker',
      handlerFile: 'worker.ts',
      description: 'eventbot: slow work after the Slack ack (async invoke from the Slack function)',
      config,
      tracing: true,
      slackIdentity: true,
    })
      .bind(data, TABLE_ACCESS.worker)
      .allowServiceKey(secrets.service);

    this.slack = new BotFunction(this, 'Slack', {
      name: 'slack',
      handlerFile: 'slack.ts',
      description: 'eventbot: Slack slash commands and buttons',
      config,
      tracing: true,
      // The workspace and bot ids from configuration: no `auth.test` before the first ack.
      slackIdentity: true,
      // Bolt runs behind AwsLambdaReceiver here: its Express path's heavy dependencies are stubbed.
      aliases: BOLT_ON_LAMBDA_ALIASES,
      // What a request reaches only through `import()` stays out of the cold start's compile.
      codeSplitting: true,
    })
      .bind(data, TABLE_ACCESS.slack)
      .allowInvoke(this.worker);

    this.pollTasks = new BotFunction(this, 'PollTasks', {
      name: 'pollTasks',
      handlerFile: 'poll-tasks.ts',
      description: 'eventbot: every minute, unlock tasks that are due',
      config,
    })
      .bind(data, TABLE_ACCESS.pollTasks)
      .allowServiceKey(secrets.service);

    this.digest = new BotFunction(this, 'Digest', {
      name: 'digest',
      handlerFile: 'digest.ts',
      description: 'eventbot: every 5 minutes, the digests that are due',
      config,
    })
      .bind(data, TABLE_ACCESS.digest)
      .allowServiceKey(secrets.service);

    // Account watch: the hourly run sends each due channel's check to the watch queue; its consumer
    // checks one channel per message (constructs/watch-queue.ts).
    this.watch = new BotFunction(this, 'Watch', {
      name: 'watch',
      handlerFile: 'watch.ts',
      description: 'eventbot: every hour, the watched channels that are due, sent to the watch queue',
      config,
    })
      .bind(data, TABLE_ACCESS.watch)
      .allowServiceKey(secrets.service);
    this.watchCheck = new BotFunction(this, 'WatchCheck', {
      name: 'watchCheck',
      handlerFile: 'watch-check.ts',
      description: "eventbot: one watched channel's check per watch queue message",
      config,
    })
      .bind(data, TABLE_ACCESS.watchCheck)
      .allowServiceKey(secrets.service);
    this.watchQueue = new WatchQueue(this, 'WatchFanOut', {
      scheduler: this.watch,
      consumer: this.watchCheck,
    });

    // Distribution only with the app's client id: without it, the stack is exactly as before. The
    // Slack function stores a workspace's key (admin modal), the others read it for the service; all
    // of them read and refresh Slack tokens.
    if (config.slackClientId) {
      this.distribution = new Distribution(this, 'Distribution', { slackClientId: config.slackClientId });
      this.slack.allowDistribution(this.distribution, 'encrypt');
      // OAuth states are used once, and uninstalls and a disconnected service key are deletions.
      this.slack.role.addToPrincipalPolicy(
        new PolicyStatement({ actions: ['dynamodb:DeleteItem'], resources: [table.table.tableArn] }),
      );
      // Forgetting a removed workspace (src/domain/forget-workspace.ts) reads its due work on the indexes,
      // from the uninstall event (Slack function) or the scheduled run that meets it, and deletes its
      // key and policy there.
      this.slack.role.addToPrincipalPolicy(
        new PolicyStatement({ actions: ['dynamodb:Query'], resources: table.indexArns }),
      );
      // The watch run meets removed workspaces like the other timed runs.
      for (const scheduled of [this.pollTasks, this.digest, this.watch])
        scheduled.role.addToPrincipalPolicy(
          new PolicyStatement({ actions: ['dynamodb:DeleteItem'], resources: [table.table.tableArn] }),
        );
      for (const reader of [this.worker, this.pollTasks, this.digest, this.watch, this.watchCheck]) {
        reader.allowDistribution(this.distribution, 'decrypt');
      }
    }

    // Jobs the worker could not finish land here for a look (and an alarm), not in a retry loop.
    const deadLetterQueue = new Queue(this, 'WorkerDeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.deadLetterQueue = deadLetterQueue;
    Validations.of(deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "This is the dead-letter queue: the worker's on-failure destination (an alarm watches it)",
    });
    this.worker.fn.configureAsyncInvoke({
      // A job may spend credits: one attempt, never an automatic second one. Charge jobs are guarded
      // against redelivery, but a repeated command job would post a second card.
      retryAttempts: 0,
      maxEventAge: Duration.hours(1),
      onFailure: sendOnlyQueueDestination(deadLetterQueue),
    });
    // Schedule runs are not retried by Lambda either: the next run picks up what is still due.
    for (const timed of [this.pollTasks, this.digest, this.watch]) {
      timed.fn.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.minutes(1) });
    }

    // Digests every 5 minutes from one shared rule, not a Scheduler schedule per subscription: see
    // `DIGEST_SCHEDULE` for the reasons and the cost.
    new Schedules(this, 'Schedules', {
      pollTasks: this.pollTasks.fn,
      digest: this.digest.fn,
      watch: this.watch.fn,
    });

    // Function URL rather than an API Gateway HTTP API: Slack is the only caller and signs every
    // request, and Bolt rejects any without a valid signature, so auth NONE gives nothing away; there
    // is no extra service to pay for or configure, and no 29 s integration limit to reason about (the
    // function acks within Slack's 3 s and hands slow work to the worker). Reserved concurrency bounds
    // a flood of unsigned requests.
    const url = this.slack.fn.addFunctionUrl({ authType: FunctionUrlAuthType.NONE });

    const functions = {
      Slack: this.slack.fn,
      Worker: this.worker.fn,
      PollTasks: this.pollTasks.fn,
      Digest: this.digest.fn,
      Watch: this.watch.fn,
      WatchCheck: this.watchCheck.fn,
    };
    this.alarms = new Alarms(this, 'Alarms', {
      functions,
      ackFunction: this.slack.fn,
      deadLetterQueue,
      watchDeadLetterQueue: this.watchQueue.deadLetterQueue,
      ...(config.alarmEmail ? { email: config.alarmEmail } : {}),
      ...(config.alarmSlackWorkspaceId && config.alarmSlackChannelId
        ? {
            slackChannel: {
              workspaceId: config.alarmSlackWorkspaceId,
              channelId: config.alarmSlackChannelId,
            },
          }
        : {}),
    });
    const { dashboard } = new OpsDashboard(this, 'Dashboard', {
      slack: this.slack.fn,
      worker: this.worker.fn,
      functions,
      alarms: this.alarms.alarms,
    });

    new CfnOutput(this, OUTPUTS.slackRequestUrl, {
      description: 'Request URL for the Slack app (slash command and interactivity)',
      value: `${url.url}${SLACK_EVENTS_PATH}`,
    });
    if (this.distribution) {
      new CfnOutput(this, OUTPUTS.slackInstallUrl, {
        description: 'Add to Slack: the page a workspace opens to install the app',
        value: `${url.url}${OAUTH_PATHS.install.slice(1)}`,
      });
    }
    new CfnOutput(this, OUTPUTS.secretArn, {
      description: this.distribution
        ? 'Put {slackSigningSecret, slackClientSecret, slackStateSecret} here'
        : 'Put {slackSigningSecret, slackBotToken} here',
      value: secrets.slack.secretArn,
    });
    new CfnOutput(this, OUTPUTS.serviceSecretArn, {
      description: 'Put {eisApiKey} here',
      value: secrets.service.secretArn,
    });
    new CfnOutput(this, OUTPUTS.tableName, { value: table.table.tableName });
    new CfnOutput(this, OUTPUTS.deadLetterQueueUrl, { value: deadLetterQueue.queueUrl });
    new CfnOutput(this, OUTPUTS.watchDeadLetterQueueUrl, { value: this.watchQueue.deadLetterQueue.queueUrl });
    new CfnOutput(this, OUTPUTS.alarmTopicArn, {
      description: 'Every alarm notifies this topic (subscribe more targets here)',
      value: this.alarms.topic.topicArn,
    });
    new CfnOutput(this, OUTPUTS.dashboardName, { value: dashboard.dashboardName });
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
