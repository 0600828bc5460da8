import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ICONV_STUB_MESSAGE } from '../../infra/bundling/stubs/iconv-lite.ts';
import { UNDICI_STUB_MESSAGE } from '../../infra/bundling/stubs/undici.ts';
import { type BotFunctionName, FUNCTION_SIZING, RESERVED_CONCURRENCY } from '../../infra/config.ts';
import { ACK_DURATION_ALARM_MS } from '../../infra/constructs/alarms.ts';
import { SERVICE_SECRET_PLACEHOLDER, SLACK_SECRET_PLACEHOLDER } from '../../infra/constructs/app-secret.ts';
import { APP_METRICS } from '../../infra/constructs/bot-function.ts';
import { APP_METRIC_NAMES } from '../../infra/constructs/dashboard.ts';
import { DIGEST_SCHEDULE, POLL_TASKS_SCHEDULE, WATCH_SCHEDULE } from '../../infra/constructs/schedules.ts';
import { WATCH_CHECK_BATCH_SIZE, WATCH_MAX_RECEIVES } from '../../infra/constructs/watch-queue.ts';
import { type EventbotStack, OUTPUTS } from '../../infra/eventbot-stack.ts';
import { TABLE_KEYS, tableDefinition } from '../../src/store/table.ts';
import { allStatements, asList, describeResource, grantsOf, roleStatements } from './support/iam.ts';
import {
  eventually,
  startAwsStandIn,
  startXRayDaemon,
  type TraceDocument,
  tracedLambdaEnvironment,
} from './support/lambda-tracing.ts';
import { removeSynthesized, sizeKb, synthesize } from './support/synth.ts';
import { at, recordAt, resourceOf, resourcesOf } from './support/template.ts';

const run = promisify(execFile);

// One synthesis (and one build of the four bundles) shared by every test in this file.
let stack: EventbotStack;
let template: Template;
let outdir: string;
/** Logical ids by what they are. */
let ids: {
  table: string;
  secret: string;
  serviceSecret: string;
  topic: string;
  queue: string;
  watchQueue: string;
  watchDeadLetters: string;
  fn: Record<BotFunctionName, string>;
  role: Record<BotFunctionName, string>;
  logs: Record<BotFunctionName, string>;
};
let names: Record<string, string>;

const FUNCTIONS: readonly BotFunctionName[] = [
  'slack',
  'worker',
  'pollTasks',
  'digest',
  'watch',
  'watchCheck',
];

beforeAll(() => {
  const started = performance.now();
  ({ stack, template, outdir } = synthesize());
  console.log(`synthesized with bundles in ${Math.round(performance.now() - started)} ms`);
  const id = (construct: { node: { defaultChild?: unknown } }) =>
    stack.getLogicalId(construct.node.defaultChild as CfnFunction);
  const per = (pick: (name: BotFunctionName) => { node: { defaultChild?: unknown } }) =>
    Object.fromEntries(FUNCTIONS.map((name) => [name, id(pick(name))])) as Record<BotFunctionName, string>;
  const bot = (name: BotFunctionName) => stack[name];
  ids = {
    table: logicalIdOfType('AWS::DynamoDB::Table'),
    secret: id(stack.secrets.slack),
    serviceSecret: id(stack.secrets.service),
    topic: logicalIdOfType('AWS::SNS::Topic'),
    queue: id(stack.deadLetterQueue),
    watchQueue: id(stack.watchQueue.queue),
    watchDeadLetters: id(stack.watchQueue.deadLetterQueue),
    fn: per((name) => bot(name).fn),
    role: per((name) => bot(name).role),
    logs: per((name) => bot(name).logGroup),
  };
  names = {
    [ids.table]: 'table',
    [ids.secret]: 'slack secret',
    [ids.serviceSecret]: 'service secret',
    [ids.queue]: 'dead-letter queue',
    [ids.watchQueue]: 'watch queue',
    [ids.watchDeadLetters]: 'watch dead-letter queue',
    [ids.fn.worker]: 'worker',
    ...Object.fromEntries(FUNCTIONS.map((name) => [ids.logs[name], 'own logs'])),
  };
}, 120_000);
afterAll(removeSynthesized);

function logicalIdOfType(type: string): string {
  const found = Object.keys(template.findResources(type));
  expect(found, type).toHaveLength(1);
  return found[0] as string;
}

function functionProps(name: BotFunctionName): Record<string, unknown> {
  return recordAt(resourceOf(template, ids.fn[name]), 'Properties');
}

function environmentOf(name: BotFunctionName): Record<string, unknown> {
  return (functionProps(name).Environment as { Variables: Record<string, unknown> }).Variables;
}

describe('the table', () => {
  it('has the keys, index and attribute types the store creates locally (from TABLE_KEYS)', () => {
    const local = tableDefinition('any');
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: local.KeySchema,
      AttributeDefinitions: Match.arrayEquals(local.AttributeDefinitions ?? []),
      GlobalSecondaryIndexes: [
        {
          IndexName: TABLE_KEYS.dueIndex,
          KeySchema: [
            { AttributeName: TABLE_KEYS.dueKind, KeyType: 'HASH' },
            { AttributeName: TABLE_KEYS.dueAt, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
        {
          IndexName: TABLE_KEYS.teamDueIndex,
          KeySchema: [
            { AttributeName: TABLE_KEYS.teamId, KeyType: 'HASH' },
            { AttributeName: TABLE_KEYS.dueAt, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    });
  });

  it('is on-demand, expires items by TTL and has point-in-time recovery', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: TABLE_KEYS.ttl, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });

  it('is retained when the stack is deleted or the table replaced', () => {
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it('has deletion protection on, so no DeleteTable call removes it either', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: true });
  });
});

describe('the secrets', () => {
  const secretString = (id: string): unknown =>
    JSON.parse(z.string().parse(at(resourceOf(template, id), 'Properties', 'SecretString')));

  it('are two: the Slack one and the service key, both created empty with nothing generated', () => {
    expect(Object.keys(resourcesOf(template, 'AWS::SecretsManager::Secret')).sort()).toEqual(
      [ids.secret, ids.serviceSecret].sort(),
    );
    expect(secretString(ids.serviceSecret)).toEqual({ eisApiKey: '' });
    expect(SERVICE_SECRET_PLACEHOLDER).toEqual({ eisApiKey: '' });
    for (const id of [ids.secret, ids.serviceSecret]) {
      expect(Object.values(secretString(id) as Record<string, string>).every((v) => v === '')).toBe(true);
      expect(at(resourceOf(template, id), 'Properties', 'GenerateSecretString')).toBeUndefined();
    }
  });

  it('leave the Slack secret as first released, so a deploy never writes over the values put in it', () => {
    // A changed SecretString would be written over whatever put-secret-value stored.
    expect(secretString(ids.secret)).toEqual({ slackSigningSecret: '', slackBotToken: '', eisApiKey: '' });
    expect(SLACK_SECRET_PLACEHOLDER).toEqual({ slackSigningSecret: '', slackBotToken: '', eisApiKey: '' });
    expect(ids.secret).toMatch(/^AppSecret[0-9A-F]{8}$/);
    expect(at(resourceOf(template, ids.secret), 'Properties', 'Description')).toBe(
      'eventbot: {slackSigningSecret, slackBotToken, eisApiKey} (put with put-secret-value)',
    );
  });
});

describe('the functions', () => {
  it('are exactly the six handlers: no helper functions (log retention, custom resources)', () => {
    expect(Object.keys(template.findResources('AWS::Lambda::Function')).sort()).toEqual(
      Object.values(ids.fn).sort(),
    );
  });

  it.each(FUNCTIONS)('%s runs Node.js 22 on arm64 from an ESM bundle with source maps on', (name) => {
    expect(functionProps(name)).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
    });
    expect(environmentOf(name).NODE_OPTIONS).toBe('--enable-source-maps');
  });

  it.each(FUNCTIONS)('%s has its timeout, memory and reserved concurrency from config.ts', (name) => {
    expect(functionProps(name)).toMatchObject({
      Timeout: FUNCTION_SIZING[name].timeout.toSeconds(),
      MemorySize: FUNCTION_SIZING[name].memorySize,
      ReservedConcurrentExecutions: RESERVED_CONCURRENCY[name],
    });
  });

  it('reserves concurrency so a flood stops at 10 Slack, 20 worker and 10 watch-check runs, the digest and watch runs never overlap, and a poll run overlaps the next only by its tail', () => {
    expect(RESERVED_CONCURRENCY).toEqual({
      slack: 10,
      worker: 20,
      pollTasks: 2,
      digest: 1,
      watch: 1,
      watchCheck: 10,
    });
  });

  it.each(FUNCTIONS)('%s logs JSON into its own log group, kept for 30 days', (name) => {
    expect(functionProps(name).LoggingConfig).toEqual({
      LogFormat: 'JSON',
      LogGroup: { Ref: ids.logs[name] },
    });
    expect(resourceOf(template, ids.logs[name]).Properties).toEqual({ RetentionInDays: 30 });
  });

  it('get the table and Slack secret, the service settings, the metrics names, and either the worker name (Slack) or the service secret (the rest)', () => {
    const common = {
      NODE_OPTIONS: '--enable-source-maps',
      EIS_BASE_URL: 'https://platform.lensmor.com',
      LOG_LEVEL: 'info',
      POWERTOOLS_SERVICE_NAME: 'eventbot',
      POWERTOOLS_METRICS_NAMESPACE: 'eventbot',
      TABLE_NAME: { Ref: ids.table },
      APP_SECRET_ID: { Ref: ids.secret },
    };
    expect(environmentOf('slack')).toEqual({ ...common, WORKER_FUNCTION_NAME: { Ref: ids.fn.worker } });
    for (const name of ['worker', 'pollTasks', 'digest'] as const)
      expect(environmentOf(name)).toEqual({ ...common, EIS_SECRET_ID: { Ref: ids.serviceSecret } });
    // The hourly run sends each due channel's first slice; the consumer, each check's next slice.
    for (const name of ['watch', 'watchCheck'] as const)
      expect(environmentOf(name)).toEqual({
        ...common,
        EIS_SECRET_ID: { Ref: ids.serviceSecret },
        WATCH_QUEUE_URL: { Ref: ids.watchQueue },
      });
  });

  it.each(['slack', 'worker'] as const)('%s has X-Ray active tracing', (name) => {
    expect(functionProps(name).TracingConfig).toEqual({ Mode: 'Active' });
  });

  it.each(['pollTasks', 'digest', 'watch', 'watchCheck'] as const)(
    '%s is not traced (nobody waits on it)',
    (name) => {
      expect(functionProps(name).TracingConfig).toBeUndefined();
    },
  );

  it.each(FUNCTIONS)('%s has no secret, and no local-only override, in its environment', (name) => {
    const environment = environmentOf(name);
    for (const key of [
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
      'EIS_API_KEY',
      'AWS_ENDPOINT_URL_DYNAMODB',
      'SLACK_API_URL',
      'WORKER_MODE',
    ]) {
      expect(environment).not.toHaveProperty(key);
    }
    for (const value of Object.values(environment).filter((v): v is string => typeof v === 'string')) {
      expect(value).not.toMatch(/xox[abposr]-|xapp-|sk_[A-Za-z0-9]|[A-Za-z0-9+/]{32,}/);
    }
  });
});

describe('the Slack endpoint', () => {
  it('is a Function URL on the Slack function, open to Slack (which signs every request)', () => {
    template.resourceCountIs('AWS::Lambda::Url', 1);
    template.hasResourceProperties('AWS::Lambda::Url', {
      AuthType: 'NONE',
      TargetFunctionArn: { 'Fn::GetAtt': [ids.fn.slack, 'Arn'] },
    });
  });

  it('is a stack output, with the path the manifest uses', () => {
    const url = logicalIdOfType('AWS::Lambda::Url');
    template.hasOutput(OUTPUTS.slackRequestUrl, {
      Value: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [url, 'FunctionUrl'] }, 'slack/events']] },
    });
  });

  it('outputs the two secret ARNs to fill, the table, the dead-letter queue, the alarm topic and the dashboard', () => {
    template.hasOutput(OUTPUTS.secretArn, { Value: { Ref: ids.secret } });
    template.hasOutput(OUTPUTS.serviceSecretArn, { Value: { Ref: ids.serviceSecret } });
    template.hasOutput(OUTPUTS.tableName, { Value: { Ref: ids.table } });
    template.hasOutput(OUTPUTS.deadLetterQueueUrl, { Value: { Ref: ids.queue } });
    template.hasOutput(OUTPUTS.watchDeadLetterQueueUrl, { Value: { Ref: ids.watchDeadLetters } });
    template.hasOutput(OUTPUTS.alarmTopicArn, { Value: { Ref: ids.topic } });
    template.hasOutput(OUTPUTS.dashboardName, {
      Value: { Ref: logicalIdOfType('AWS::CloudWatch::Dashboard') },
    });
  });
});

describe('the worker', () => {
  it('is tried at most once per job and sends failures to the dead-letter queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: ids.fn.worker },
      MaximumRetryAttempts: 0,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [ids.queue, 'Arn'] } } },
    });
  });

  it('has an encrypted dead-letter queue keeping messages 14 days, TLS only', () => {
    template.hasResourceProperties('AWS::SQS::Queue', {
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 60 * 60,
    });
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: {
        Statement: [
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ],
      },
    });
  });
});

describe('the watch queue', () => {
  it('is FIFO, SQS-encrypted, and sends a check to its FIFO dead-letter queue after 3 receives', () => {
    expect(WATCH_MAX_RECEIVES).toBe(3);
    expect(recordAt(resourceOf(template, ids.watchQueue), 'Properties')).toMatchObject({
      FifoQueue: true,
      SqsManagedSseEnabled: true,
      RedrivePolicy: {
        deadLetterTargetArn: { 'Fn::GetAtt': [ids.watchDeadLetters, 'Arn'] },
        maxReceiveCount: 3,
      },
    });
    expect(recordAt(resourceOf(template, ids.watchDeadLetters), 'Properties')).toMatchObject({
      FifoQueue: true,
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 60 * 60,
    });
  });

  it("hides a received check for 6 times the consumer's timeout, so a running batch is never handed out twice", () => {
    const { VisibilityTimeout } = recordAt(resourceOf(template, ids.watchQueue), 'Properties');
    expect(VisibilityTimeout).toBe(6 * FUNCTION_SIZING.watchCheck.timeout.toSeconds());
  });

  it('feeds the watch-check function one slice at a time (none waits behind another), reporting partial failures, at most 10 at once', () => {
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 1);
    expect(WATCH_CHECK_BATCH_SIZE).toBe(1);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: ids.fn.watchCheck },
      EventSourceArn: { 'Fn::GetAtt': [ids.watchQueue, 'Arn'] },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 10 },
    });
  });

  it('accepts TLS only, on both queues', () => {
    for (const queue of [ids.watchQueue, ids.watchDeadLetters])
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: queue }],
        PolicyDocument: {
          Statement: [
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ],
        },
      });
  });
});

describe('the schedules', () => {
  it.each([
    ['pollTasks', POLL_TASKS_SCHEDULE, 'rate(1 minute)'],
    // Every 5 minutes on the 5-minute marks: a digest posts within 5 minutes of its local time.
    ['digest', DIGEST_SCHEDULE, 'cron(0/5 * * * ? *)'],
    // Every hour: a changed watch within the hour, every channel at least daily.
    ['watch', WATCH_SCHEDULE, 'cron(0 * * * ? *)'],
  ] as const)('run %s on %s', (name, expression, literal) => {
    expect(expression).toBe(literal);
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: literal,
      State: 'ENABLED',
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [ids.fn[name], 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 },
        }),
      ],
    });
  });

  it('are the only rules, and their runs are dropped, not retried, when late', () => {
    template.resourceCountIs('AWS::Events::Rule', 3);
    for (const name of ['pollTasks', 'digest', 'watch'] as const) {
      template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        FunctionName: { Ref: ids.fn[name] },
        MaximumRetryAttempts: 0,
        MaximumEventAgeInSeconds: 60,
      });
    }
  });
});

describe('the alarms', () => {
  const alarms = () => Object.entries(resourcesOf(template, 'AWS::CloudWatch::Alarm'));

  it.each(FUNCTIONS)('fire on any error or throttle of %s', (name) => {
    for (const metric of ['Errors', 'Throttles']) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/Lambda',
        MetricName: metric,
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: ids.fn[name] } }],
        Statistic: 'Sum',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
    }
  });

  it('fire when a job is in the dead-letter queue', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [ids.queue, 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it("fire when the Slack function's p99 duration is over 2 s in 2 of 3 five-minute periods (Slack gives 3 s)", () => {
    expect(ACK_DURATION_ALARM_MS).toBe(2000);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/Lambda',
      MetricName: 'Duration',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: ids.fn.slack } }],
      ExtendedStatistic: 'p99',
      Period: 300,
      Threshold: 2000,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
      TreatMissingData: 'notBreaching',
    });
  });

  it('fire when a watch check is in the watch dead-letter queue', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [ids.watchDeadLetters, 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('are the fifteen above: errors and throttles of six functions, two dead-letter queues, ack duration', () => {
    expect(alarms()).toHaveLength(6 * 2 + 2 + 1);
  });

  it('all notify the one alarm topic, when they fire and when they recover', () => {
    template.resourceCountIs('AWS::SNS::Topic', 1);
    for (const [id, alarm] of alarms()) {
      expect(at(alarm, 'Properties', 'AlarmActions'), id).toEqual([{ Ref: ids.topic }]);
      expect(at(alarm, 'Properties', 'OKActions'), id).toEqual([{ Ref: ids.topic }]);
    }
  });

  it('have a topic with no subscription and no Chatbot channel unless configured', () => {
    template.resourceCountIs('AWS::SNS::Subscription', 0);
    template.resourceCountIs('AWS::Chatbot::SlackChannelConfiguration', 0);
  });
});

describe('the dashboard', () => {
  const WidgetsSchema = z.object({
    widgets: z.array(
      z.object({
        properties: z.looseObject({
          title: z.string().optional(),
          metrics: z.array(z.array(z.unknown())).optional(),
        }),
      }),
    ),
  });

  const TokenSchema = z.union([
    z.object({ Ref: z.string() }).transform(({ Ref }) => `\${${Ref}}`),
    z
      .object({ 'Fn::GetAtt': z.tuple([z.string(), z.string()]) })
      .transform(({ 'Fn::GetAtt': [id, attribute] }) => `\${${id}.${attribute}}`),
  ]);

  /** The dashboard body with each `Ref` written as `${logicalId}` (and `${logicalId.Attr}`), parsed. */
  function widgets() {
    const [dashboard] = Object.values(resourcesOf(template, 'AWS::CloudWatch::Dashboard'));
    const [separator, parts] = z
      .tuple([z.string(), z.array(z.union([z.string(), TokenSchema]))])
      .parse(at(dashboard, 'Properties', 'DashboardBody', 'Fn::Join'));
    return WidgetsSchema.parse(JSON.parse(parts.join(separator))).widgets.map((widget) => widget.properties);
  }

  function metricsOf(titleStart: string): unknown[][] {
    const widget = widgets().find((properties) => properties.title?.startsWith(titleStart));
    expect(widget, titleStart).toBeDefined();
    return widget?.metrics ?? [];
  }

  const lambda = (metric: string, name: BotFunctionName, stat: string) => [
    'AWS/Lambda',
    metric,
    'FunctionName',
    `\${${ids.fn[name]}}`,
    expect.objectContaining({ stat }) as unknown,
  ];
  const app = (metric: string, stat: string) => [
    'eventbot',
    metric,
    'service',
    'eventbot',
    expect.objectContaining({ stat }) as unknown,
  ];
  const search = (metric: string, dimension: string) => [
    {
      expression: `SEARCH('{eventbot,service,${dimension}} MetricName="${metric}" service="eventbot"', 'Sum', 300)`,
    },
  ];

  it('is one, named after the stack', () => {
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    template.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: 'Eventbot' });
  });

  it('graphs the ack: Slack function duration p50/p99 and the AckDuration metric', () => {
    expect(metricsOf('Slack ack')).toEqual([
      lambda('Duration', 'slack', 'p50'),
      lambda('Duration', 'slack', 'p99'),
      app(APP_METRIC_NAMES.ackDuration, 'p50'),
      app(APP_METRIC_NAMES.ackDuration, 'p99'),
    ]);
  });

  it("graphs each function's errors and the worker's duration", () => {
    expect(metricsOf('Errors per function')).toEqual(FUNCTIONS.map((name) => lambda('Errors', name, 'Sum')));
    expect(metricsOf('Worker duration')).toEqual([
      lambda('Duration', 'worker', 'p50'),
      lambda('Duration', 'worker', 'p99'),
      lambda('Duration', 'worker', 'Maximum'),
    ]);
  });

  it('graphs the custom metrics in the eventbot namespace: charges and credits by action, confirmations by outcome, poll lag, digests', () => {
    expect(APP_METRICS).toEqual({ namespace: 'eventbot', service: 'eventbot' });
    expect(metricsOf('Charges run')).toEqual([search('ChargesRun', 'action')]);
    expect(metricsOf('Credits charged')).toEqual([search('CreditsCharged', 'action')]);
    expect(metricsOf('Confirmations')).toEqual([search('Confirmations', 'outcome')]);
    expect(metricsOf('Poll lag')).toEqual([
      app('PollLag', 'p50'),
      app('PollLag', 'p95'),
      app('PollLag', 'Maximum'),
    ]);
    expect(metricsOf('Digests')).toEqual([app('DigestsPosted', 'Sum'), app('DigestsSkipped', 'Sum')]);
  });

  it('shows the state of every alarm', () => {
    const alarmsWidget = widgets().find((properties) => properties.title === 'Alarms');
    const alarmArns = Object.keys(resourcesOf(template, 'AWS::CloudWatch::Alarm')).map(
      (id) => `\${${id}.Arn}`,
    );
    expect(alarmsWidget?.alarms).toEqual(alarmArns);
  });
});

describe('IAM', () => {
  const logs = ['logs:CreateLogStream on own logs', 'logs:PutLogEvents on own logs'];
  const slackSecret = 'secretsmanager:GetSecretValue on slack secret';
  const serviceSecret = 'secretsmanager:GetSecretValue on service secret';
  const xray = ['xray:PutTelemetryRecords on *', 'xray:PutTraceSegments on *'];
  const getPutUpdate = [
    'dynamodb:GetItem on table',
    'dynamodb:PutItem on table',
    'dynamodb:UpdateItem on table',
  ];
  const due = ['dynamodb:Query on table/index/due', 'dynamodb:Query on table/index/teamDue'];
  const expected: Record<BotFunctionName, string[]> = {
    slack: [...logs, slackSecret, ...xray, ...getPutUpdate, 'lambda:InvokeFunction on worker'],
    worker: [
      ...logs,
      slackSecret,
      serviceSecret,
      ...xray,
      ...getPutUpdate,
      'dynamodb:DeleteItem on table',
      'dynamodb:Query on table',
      ...due,
      'sqs:SendMessage on dead-letter queue',
    ],
    // The reconciler and the unlock poller: the workspaces with scheduled work on the table, their due
    // items on the indexes, then gets, updates, transactions.
    pollTasks: [...logs, slackSecret, serviceSecret, ...getPutUpdate, 'dynamodb:Query on table', ...due],
    // Due subscriptions on the indexes; the ledger and finished tasks by team on the table.
    digest: [...logs, slackSecret, serviceSecret, ...getPutUpdate, 'dynamodb:Query on table', ...due],
    // The registry and due watches, as the other timed runs; it only sends to the watch queue.
    watch: [
      ...logs,
      slackSecret,
      serviceSecret,
      ...getPutUpdate,
      'dynamodb:Query on table',
      ...due,
      'sqs:SendMessage on watch queue',
    ],
    // One slice of a channel's check (accounts by channel on the table, no index); consuming its
    // queue, and sending the check's next slice to it.
    watchCheck: [
      ...logs,
      slackSecret,
      serviceSecret,
      ...getPutUpdate,
      'dynamodb:Query on table',
      ...[
        'ChangeMessageVisibility',
        'DeleteMessage',
        'GetQueueAttributes',
        'GetQueueUrl',
        'ReceiveMessage',
        'SendMessage',
      ].map((action) => `sqs:${action} on watch queue`),
    ],
  };

  it.each(FUNCTIONS)('gives %s only the actions it uses, on the one table, index, secret', (name) => {
    expect(grantsOf(template, ids.role[name], names)).toEqual([...expected[name]].sort());
  });

  it('keeps the service key from the Slack function: only the worker and the timed and queue functions may read it', () => {
    const readers = FUNCTIONS.filter((name) =>
      grantsOf(template, ids.role[name], names).includes(serviceSecret),
    );
    expect(readers).toEqual(['worker', 'pollTasks', 'digest', 'watch', 'watchCheck']);
    const onServiceSecret = allStatements(template).filter(({ statement }) =>
      asList(statement.Resource).some((resource) => describeResource(resource, names) === 'service secret'),
    );
    const slackPolicies = Object.keys(
      template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: ids.role.slack }] } }),
    );
    expect(onServiceSecret.filter(({ owner }) => slackPolicies.includes(owner))).toEqual([]);
    expect(JSON.stringify(environmentOf('slack'))).not.toContain(ids.serviceSecret);
  });

  it.each(['pollTasks', 'digest', 'watch', 'watchCheck'] as const)(
    'gives %s no DeleteItem (only the worker deletes)',
    (name) => {
      const actions = roleStatements(template, ids.role[name]).flatMap((statement) =>
        asList(statement.Action),
      );
      expect(actions.filter((action) => /dynamodb:(Delete|\*)/.test(action))).toEqual([]);
    },
  );

  it('gives each function its own role, assumed by Lambda only, with no managed policy', () => {
    const roles = resourcesOf(template, 'AWS::IAM::Role');
    expect(Object.keys(roles).sort()).toEqual(Object.values(ids.role).sort());
    for (const role of Object.values(roles)) {
      expect(at(role, 'Properties', 'ManagedPolicyArns')).toBeUndefined();
      expect(at(role, 'Properties', 'AssumeRolePolicyDocument', 'Statement')).toEqual([
        { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } },
      ]);
    }
  });

  it('allows no wildcard action anywhere (the Denies, TLS-only on the queues, are the named exception)', () => {
    const queuePolicies = [
      'WorkerDeadLetterQueuePolicy',
      'WatchFanOutQueuePolicy',
      'WatchFanOutDeadLetterQueuePolicy',
    ];
    for (const { owner, statement } of allStatements(template)) {
      const wild = asList(statement.Action).filter((action) => action.includes('*'));
      if (statement.Effect === 'Deny' && queuePolicies.some((policy) => owner.startsWith(policy))) continue;
      expect(wild, `${owner}: ${JSON.stringify(statement)}`).toEqual([]);
    }
  });

  it('allows nothing on resource "*" except the two X-Ray writes (which cannot be scoped)', () => {
    for (const { owner, statement } of allStatements(template)) {
      if (statement.Effect !== 'Allow') continue;
      const actions = asList(statement.Action);
      if (actions.every((action) => ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'].includes(action))) {
        expect(statement.Resource).toBe('*');
        continue;
      }
      const resources = asList(statement.Resource).map((resource) => describeResource(resource, names));
      expect(
        resources.some((resource) => resource.includes('*')),
        `${owner}: ${resources.join(',')}`,
      ).toBe(false);
    }
  });

  it('lets only the Slack function invoke the worker', () => {
    const invokers = allStatements(template).filter(
      ({ statement }) =>
        statement.Effect === 'Allow' &&
        asList(statement.Action).some((action) => action.startsWith('lambda:Invoke')) &&
        asList(statement.Resource).some((resource) => describeResource(resource, names) === 'worker'),
    );
    const slackPolicies = template.findResources('AWS::IAM::Policy', {
      Properties: { Roles: [{ Ref: ids.role.slack }] },
    });
    expect(invokers.map(({ owner }) => owner)).toEqual(Object.keys(slackPolicies));
    const workerPermissions = Object.values(resourcesOf(template, 'AWS::Lambda::Permission')).filter(
      (permission) => JSON.stringify(at(permission, 'Properties', 'FunctionName')).includes(ids.fn.worker),
    );
    expect(workerPermissions).toEqual([]);
  });

  it('opens only the Slack function to the public (through its URL) and the timed ones to their rules', () => {
    const permissions = Object.values(resourcesOf(template, 'AWS::Lambda::Permission')).map((permission) =>
      recordAt(permission, 'Properties'),
    );
    expect(permissions).toHaveLength(5);
    const publicOnes = permissions.filter((permission) => permission.Principal === '*');
    expect(publicOnes).toEqual([
      expect.objectContaining({ Action: 'lambda:InvokeFunctionUrl', FunctionUrlAuthType: 'NONE' }),
      expect.objectContaining({ Action: 'lambda:InvokeFunction', InvokedViaFunctionUrl: true }),
    ]);
    for (const permission of publicOnes) {
      expect(permission.FunctionName).toEqual({ 'Fn::GetAtt': [ids.fn.slack, 'Arn'] });
    }
    for (const permission of permissions.filter((p) => p.Principal !== '*')) {
      expect(permission).toMatchObject({
        Principal: 'events.amazonaws.com',
        SourceArn: expect.anything() as unknown,
      });
    }
  });
});

describe('the bundles', () => {
  function bundleDir(name: BotFunctionName): string {
    const key = (functionProps(name).Code as { S3Key: string }).S3Key;
    return join(outdir, `asset.${key.replace(/\.zip$/, '')}`);
  }

  it('are built by the local esbuild; their sizes are printed', () => {
    for (const name of FUNCTIONS) {
      const dir = bundleDir(name);
      const code = sizeKb(join(dir, 'index.mjs'));
      console.log(
        `bundle ${name}: index.mjs ${code} KB, index.mjs.map ${sizeKb(join(dir, 'index.mjs.map'))} KB`,
      );
      expect(code).toBeLessThan(5 * 1024);
    }
  });

  it.each(['worker', 'pollTasks', 'digest'] as const)(
    '%s stays under the 1,200 KiB target (no Bolt, no undici; the worker with the tracer)',
    (name) => {
      expect(statSync(join(bundleDir(name), 'index.mjs')).size / 1024).toBeLessThan(1_200);
    },
  );

  /** A bundle's code: `index.mjs`, and the chunks of a code-split one (the Slack function's). */
  function codeOf(name: BotFunctionName): string {
    const dir = bundleDir(name);
    const chunks = existsSync(join(dir, 'chunks')) ? readdirSync(join(dir, 'chunks')) : [];
    return ['index.mjs', ...chunks.filter((file) => file.endsWith('.mjs')).map((file) => `chunks/${file}`)]
      .map((file) => readFileSync(join(dir, file), 'utf8'))
      .join('\n');
  }

  it('slack is split: what the first request reaches through import() is in chunks beside index.mjs', () => {
    const entry = readFileSync(join(bundleDir('slack'), 'index.mjs'), 'utf8');
    expect(entry).toMatch(/import\("\.\/chunks\/slack-distributed-[\w-]+\.mjs"\)/);
    expect(existsSync(join(bundleDir('worker'), 'chunks'))).toBe(false);
  });

  it("slack carries the stubs, not iconv-lite's code pages or the full mime-db (Bolt's Express path)", () => {
    const code = codeOf;
    const slack = code('slack');
    expect(slack).toContain(ICONV_STUB_MESSAGE);
    expect(slack).toContain(UNDICI_STUB_MESSAGE);
    // A code page iconv-lite ships and a family of types only the full mime-db lists.
    expect(slack).not.toMatch(/gb18030|maccyrillic/i);
    expect(slack).not.toContain('application/vnd.openxmlformats');
    // The other functions do not bundle Bolt, so they are not aliased: no stub to find there.
    for (const name of ['worker', 'pollTasks', 'digest'] as const) {
      expect(code(name)).not.toContain(ICONV_STUB_MESSAGE);
      expect(code(name)).not.toContain(UNDICI_STUB_MESSAGE);
    }
  });

  it.each(FUNCTIONS)("%s carries no undici of its own (the service client uses Node's fetch)", (name) => {
    // An error code only undici's own sources define.
    expect(codeOf(name)).not.toContain('UND_ERR_INFO');
  });

  it('load as ES modules under Node and export a handler (no `require` left unresolved)', async () => {
    const env = {
      PATH: process.env.PATH,
      AWS_REGION: 'us-east-1',
      TABLE_NAME: 'table',
      EIS_BASE_URL: 'https://eis.invalid',
      APP_SECRET_ID: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:eventbot-AbCdEf',
      EIS_SECRET_ID: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:eventbot-service-AbCdEf',
      WORKER_FUNCTION_NAME: 'worker',
    };
    const script =
      'const m = await import(process.argv[1]); if (typeof m.handler !== "function") process.exit(3);';
    await Promise.all(
      FUNCTIONS.map((name) =>
        run(process.execPath, ['--input-type=module', '-e', script, join(bundleDir(name), 'index.mjs')], {
          env,
        }),
      ),
    );
  });

  it('slack acks a signed `/events help` from its bundle, opening no socket first (ids configured)', async () => {
    // The stubs must not be on the request path: load the built bundle, answer one signed command.
    const script = `
      import net from 'node:net';
      import { createHmac } from 'node:crypto';
      net.Socket.prototype.connect = function () { throw new Error('a socket was opened'); };
      const { handler } = await import(process.argv[1]);
      const body = new URLSearchParams({ command: '/events', text: 'help', team_id: 'T0TEAM', channel_id: 'C0CHAN',
        user_id: 'U0USER', trigger_id: 't.1', response_url: 'https://hooks.slack.invalid/x' }).toString();
      const ts = String(Math.floor(Date.now() / 1000));
      const signature = 'v0=' + createHmac('sha256', 'signing-secret').update('v0:' + ts + ':' + body).digest('hex');
      const response = await handler({ version: '2.0', rawPath: '/slack/events', body, isBase64Encoded: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': ts,
          'x-slack-signature': signature },
        requestContext: { http: { method: 'POST', path: '/slack/events' }, requestId: 'r1' } }, {});
      // Off Lambda the X-Ray SDK is never loaded: no cls namespace, no context-missing default set.
      const xraySdkLoaded = Boolean(process.namespaces?.AWSXRay) || 'AWS_XRAY_CONTEXT_MISSING' in process.env;
      console.log(JSON.stringify({ ...response, xraySdkLoaded }));`;
    const { stdout } = await run(
      process.execPath,
      ['--input-type=module', '-e', script, join(bundleDir('slack'), 'index.mjs')],
      {
        env: {
          PATH: process.env.PATH,
          AWS_REGION: 'us-east-1',
          TABLE_NAME: 'table',
          EIS_BASE_URL: 'https://eis.invalid',
          WORKER_FUNCTION_NAME: 'worker',
          LOG_LEVEL: 'error',
          SLACK_SIGNING_SECRET: 'signing-secret',
          SLACK_BOT_TOKEN: 'xoxb-test',
          SLACK_TEAM_ID: 'T0TEAM',
          SLACK_BOT_USER_ID: 'U0BOT',
        },
      },
    );
    const response = z
      .object({ statusCode: z.number(), body: z.string(), xraySdkLoaded: z.boolean() })
      .parse(JSON.parse(stdout.trim().split('\n').at(-1) ?? ''));
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('ephemeral');
    expect(response.xraySdkLoaded).toBe(false);
  });

  describe('on Lambda with active tracing (a local X-Ray daemon and AWS stand-ins)', () => {
    const SIGNING_SECRET = 'signing-secret-for-tracing';
    const BOT_TOKEN = 'xoxb-tracing-test-token';

    /** Runs `script` (given the stand-ins' address) against the bundle; what reached X-Ray and AWS. */
    async function runTraced(
      name: BotFunctionName,
      script: (standInUrl: string) => string,
      env: Record<string, string>,
    ) {
      const daemon = await startXRayDaemon();
      const aws = await startAwsStandIn();
      try {
        const { stdout } = await run(
          process.execPath,
          ['--input-type=module', '-e', script(aws.url), join(bundleDir(name), 'index.mjs')],
          {
            env: {
              PATH: process.env.PATH,
              AWS_REGION: 'us-east-1',
              AWS_ACCESS_KEY_ID: 'test',
              AWS_SECRET_ACCESS_KEY: 'test',
              AWS_EC2_METADATA_DISABLED: 'true',
              AWS_ENDPOINT_URL_DYNAMODB: aws.url,
              AWS_ENDPOINT_URL_LAMBDA: aws.url,
              TABLE_NAME: 'table',
              EIS_BASE_URL: 'https://eis.invalid',
              LOG_LEVEL: 'error',
              SLACK_SIGNING_SECRET: SIGNING_SECRET,
              SLACK_BOT_TOKEN: BOT_TOKEN,
              SLACK_TEAM_ID: 'T0TEAM',
              SLACK_BOT_USER_ID: 'U0BOT',
              ...tracedLambdaEnvironment(daemon, bundleDir(name)),
              ...env,
            },
          },
        );
        const handler = (documents: TraceDocument[]) => documents.find((d) => d.name === '## index.handler');
        await eventually(() => expect(handler(daemon.documents())).toBeDefined());
        return { stdout, documents: daemon.documents(), raw: daemon.raw(), awsCalls: aws.calls };
      } finally {
        await Promise.all([daemon.close(), aws.close()]);
      }
    }

    it('slack: the ack in an annotated subsegment, its DynamoDB write and worker invoke traced', async () => {
      const script = `
        import { createHmac } from 'node:crypto';
        const { handler } = await import(process.argv[1]);
        const body = new URLSearchParams({ command: '/events', text: 'fit 26855', team_id: 'T0TEAM',
          channel_id: 'C0CHAN', user_id: 'U0USER', trigger_id: 't.1',
          response_url: 'https://hooks.slack.invalid/x' }).toString();
        const ts = String(Math.floor(Date.now() / 1000));
        const signature = 'v0=' + createHmac('sha256', '${SIGNING_SECRET}').update('v0:' + ts + ':' + body).digest('hex');
        const response = await handler({ version: '2.0', rawPath: '/slack/events', body, isBase64Encoded: false,
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': ts,
            'x-slack-signature': signature },
          requestContext: { http: { method: 'POST', path: '/slack/events' }, requestId: 'req-traced-1' } }, {});
        console.log(JSON.stringify({ statusCode: response.statusCode }));`;

      const { stdout, documents, raw, awsCalls } = await runTraced('slack', () => script, {
        WORKER_FUNCTION_NAME: 'eventbot-worker',
      });

      expect(stdout).toContain('"statusCode":200');
      expect(awsCalls).toContain('Lambda.Invoke');
      const handler = documents.find((d) => d.name === '## index.handler');
      expect(handler?.annotations).toEqual({
        ColdStart: true,
        Service: 'eventbot',
        CorrelationId: 'req-traced-1',
        JobKind: 'command',
        Subcommand: 'fit',
      });
      const aws = documents.filter((d) => d.namespace === 'aws');
      expect(aws.map((d) => d.name)).toEqual(expect.arrayContaining(['DynamoDB', 'Lambda']));
      expect(aws.find((d) => d.name === 'Lambda')?.aws).toMatchObject({
        operation: 'Invoke',
        function_name: 'eventbot-worker',
      });
      expect(aws.find((d) => d.name === 'DynamoDB')?.aws).toMatchObject({ table_name: 'table' });
      // No secret, and not the command's arguments, anywhere in what was sent to X-Ray.
      for (const datagram of raw) {
        for (const secret of [SIGNING_SECRET, BOT_TOKEN, '26855']) expect(datagram).not.toContain(secret);
      }
    });

    it('worker: the job in an annotated subsegment, its DynamoDB claim and its answer traced, no response URL path', async () => {
      const script = (standInUrl: string) => {
        const job = {
          kind: 'command',
          id: 'job-traced-1',
          text: 'help',
          correlationId: 'req-traced-2',
          context: {
            teamId: 'T0TEAM',
            channelId: 'C0CHAN',
            userId: 'U0USER',
            // A response URL's path is a credential: it must not reach the trace.
            responseUrl: `${standInUrl}/commands/T0TEAM/1/secretResponsePart`,
            placeholder: true,
          },
        };
        return `
          const { handler } = await import(process.argv[1]);
          await handler(${JSON.stringify(job)}, {});
          console.log('done');`;
      };

      const { stdout, documents, raw, awsCalls } = await runTraced('worker', script, {
        EIS_API_KEY: 'sk_test_tracing',
      });

      expect(stdout).toContain('done');
      expect(awsCalls).toContain('? /commands/T0TEAM/1/secretResponsePart');
      expect(documents.find((d) => d.name === '## index.handler')?.annotations).toEqual({
        ColdStart: true,
        Service: 'eventbot',
        CorrelationId: 'req-traced-2',
        JobKind: 'command',
        Subcommand: 'help',
      });
      expect(documents.find((d) => d.name === 'DynamoDB')?.aws).toMatchObject({ table_name: 'table' });
      const answer = documents.find((d) => d.namespace === 'remote') as TraceDocument & {
        http?: { request?: { url?: string } };
      };
      expect(answer.http?.request?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      for (const datagram of raw) {
        for (const secret of ['secretResponsePart', 'sk_test_tracing', BOT_TOKEN, SIGNING_SECRET]) {
          expect(datagram).not.toContain(secret);
        }
      }
    });
  });
});
