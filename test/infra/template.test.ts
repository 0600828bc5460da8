import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type BotFunctionName, FUNCTION_SIZING, RESERVED_CONCURRENCY } from '../../infra/config.ts';
import { SECRET_PLACEHOLDER } from '../../infra/constructs/app-secret.ts';
import { DIGEST_SCHEDULE, POLL_TASKS_SCHEDULE } from '../../infra/constructs/schedules.ts';
import { type EventbotStack, OUTPUTS } from '../../infra/eventbot-stack.ts';
import { TABLE_KEYS, tableDefinition } from '../../src/store/table.ts';
import { allStatements, asList, describeResource, grantsOf } from './support/iam.ts';
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
  queue: string;
  fn: Record<BotFunctionName, string>;
  role: Record<BotFunctionName, string>;
  logs: Record<BotFunctionName, string>;
};
let names: Record<string, string>;

const FUNCTIONS: readonly BotFunctionName[] = ['slack', 'worker', 'pollTasks', 'digest'];

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
    secret: logicalIdOfType('AWS::SecretsManager::Secret'),
    queue: logicalIdOfType('AWS::SQS::Queue'),
    fn: per((name) => bot(name).fn),
    role: per((name) => bot(name).role),
    logs: per((name) => bot(name).logGroup),
  };
  names = {
    [ids.table]: 'table',
    [ids.secret]: 'secret',
    [ids.queue]: 'dead-letter queue',
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
});

describe('the secret', () => {
  it('is created holding the three field names with empty values, nothing generated', () => {
    const [secret] = Object.values(resourcesOf(template, 'AWS::SecretsManager::Secret'));
    const secretString = z.string().parse(at(secret, 'Properties', 'SecretString'));
    expect(JSON.parse(secretString)).toEqual(SECRET_PLACEHOLDER);
    expect(Object.values(SECRET_PLACEHOLDER).every((value) => value === '')).toBe(true);
    expect(at(secret, 'Properties', 'GenerateSecretString')).toBeUndefined();
  });
});

describe('the functions', () => {
  it('are exactly the four handlers: no helper functions (log retention, custom resources)', () => {
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

  it('reserves concurrency so a flood stops at 10 Slack and 20 worker runs, and timed runs never overlap', () => {
    expect(RESERVED_CONCURRENCY).toEqual({ slack: 10, worker: 20, pollTasks: 1, digest: 1 });
  });

  it.each(FUNCTIONS)('%s logs JSON into its own log group, kept for 30 days', (name) => {
    expect(functionProps(name).LoggingConfig).toEqual({
      LogFormat: 'JSON',
      LogGroup: { Ref: ids.logs[name] },
    });
    expect(resourceOf(template, ids.logs[name]).Properties).toEqual({ RetentionInDays: 30 });
  });

  it('get the table and secret by name/ARN, the service settings, and (Slack only) the worker name', () => {
    const common = {
      NODE_OPTIONS: '--enable-source-maps',
      EIS_BASE_URL: 'https://platform.lensmor.com',
      LOG_LEVEL: 'info',
      TABLE_NAME: { Ref: ids.table },
      APP_SECRET_ID: { Ref: ids.secret },
    };
    expect(environmentOf('slack')).toEqual({ ...common, WORKER_FUNCTION_NAME: { Ref: ids.fn.worker } });
    for (const name of ['worker', 'pollTasks', 'digest'] as const)
      expect(environmentOf(name)).toEqual(common);
  });

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

  it('outputs the secret ARN to fill, the table name and the dead-letter queue', () => {
    template.hasOutput(OUTPUTS.secretArn, { Value: { Ref: ids.secret } });
    template.hasOutput(OUTPUTS.tableName, { Value: { Ref: ids.table } });
    template.hasOutput(OUTPUTS.deadLetterQueueUrl, { Value: { Ref: ids.queue } });
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

describe('the schedules', () => {
  it.each([
    ['pollTasks', POLL_TASKS_SCHEDULE, 'rate(1 minute)'],
    ['digest', DIGEST_SCHEDULE, 'cron(0 * * * ? *)'],
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
    template.resourceCountIs('AWS::Events::Rule', 2);
    for (const name of ['pollTasks', 'digest'] as const) {
      template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        FunctionName: { Ref: ids.fn[name] },
        MaximumRetryAttempts: 0,
        MaximumEventAgeInSeconds: 60,
      });
    }
  });
});

describe('the alarms', () => {
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
    template.resourceCountIs('AWS::CloudWatch::Alarm', 4 * 2 + 1);
  });
});

describe('IAM', () => {
  const logs = ['logs:CreateLogStream on own logs', 'logs:PutLogEvents on own logs'];
  const secret = ['secretsmanager:GetSecretValue on secret'];
  const readWrite = [
    'dynamodb:DeleteItem on table',
    'dynamodb:GetItem on table',
    'dynamodb:PutItem on table',
    'dynamodb:Query on table',
    'dynamodb:Query on table/index/due',
    'dynamodb:UpdateItem on table',
  ];
  const expected: Record<BotFunctionName, string[]> = {
    slack: [
      ...logs,
      ...secret,
      'dynamodb:GetItem on table',
      'dynamodb:PutItem on table',
      'dynamodb:UpdateItem on table',
      'lambda:InvokeFunction on worker',
    ],
    worker: [...logs, ...secret, ...readWrite, 'sqs:SendMessage on dead-letter queue'],
    pollTasks: [...logs, ...secret, ...readWrite],
    digest: [...logs, ...secret, ...readWrite],
  };

  it.each(FUNCTIONS)('gives %s only the actions it uses, on the one table, index, secret', (name) => {
    expect(grantsOf(template, ids.role[name], names)).toEqual([...expected[name]].sort());
  });

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

  it('allows no wildcard action anywhere (the one Deny, TLS-only on the queue, is the named exception)', () => {
    for (const { owner, statement } of allStatements(template)) {
      const wild = asList(statement.Action).filter((action) => action.includes('*'));
      if (statement.Effect === 'Deny' && owner.startsWith('WorkerDeadLetterQueuePolicy')) continue;
      expect(wild, `${owner}: ${JSON.stringify(statement)}`).toEqual([]);
    }
  });

  it('allows nothing on resource "*" (every action here can be scoped, so there are no exceptions)', () => {
    for (const { owner, statement } of allStatements(template)) {
      if (statement.Effect !== 'Allow') continue;
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
    expect(permissions).toHaveLength(4);
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

  it('load as ES modules under Node and export a handler (no `require` left unresolved)', async () => {
    const env = {
      PATH: process.env.PATH,
      AWS_REGION: 'us-east-1',
      TABLE_NAME: 'table',
      EIS_BASE_URL: 'https://eis.invalid',
      APP_SECRET_ID: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:eventbot-AbCdEf',
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
});
