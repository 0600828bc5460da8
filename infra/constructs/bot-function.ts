import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  Architecture,
  Function as LambdaFunction,
  type FunctionProps,
  LoggingFormat,
  Runtime,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { type BotFunctionName, type DeployConfig, FUNCTION_SIZING, RESERVED_CONCURRENCY } from '../config.ts';
import type { BotTable, TableAccess } from './bot-table.ts';
import type { Distribution, WorkspaceKeyUse } from './distribution.ts';
import { REQUIRE_SHIM, splitBundleCode } from '../bundling/split-bundle.ts';

const HANDLERS_DIR = fileURLToPath(new URL('../../handlers/', import.meta.url));

/**
 * Where the code's Powertools Metrics (EMF) go: namespace `eventbot`, dimension `service=eventbot`.
 * Set on every function as `POWERTOOLS_METRICS_NAMESPACE` / `POWERTOOLS_SERVICE_NAME`, and graphed
 * on the dashboard (`dashboard.ts`), so both read the same names.
 */
export const APP_METRICS = { namespace: 'eventbot', service: 'eventbot' } as const;

export interface BotFunctionProps {
  /** Which function: picks its sizing and reserved concurrency from `config.ts`. */
  readonly name: BotFunctionName;
  /** The entry file in `handlers/`, e.g. `slack.ts`. */
  readonly handlerFile: string;
  readonly description: string;
  readonly config: DeployConfig;
  /** X-Ray active tracing (the code's Powertools Tracer adds its subsegments). */
  readonly tracing?: boolean;
  /**
   * esbuild aliases, package name to file (`--alias:name=path`), e.g. `BOLT_ON_LAMBDA_ALIASES` to swap
   * packages the function bundles but never runs for stubs (see `../bundling/aliases.ts`).
   */
  readonly aliases?: Readonly<Record<string, string>>;
  /**
   * Bundled with esbuild's code splitting (`../bundling/split-bundle.ts`, same settings otherwise):
   * what the handler reaches only through `import()` is left in chunks, not compiled at a cold start.
   */
  readonly codeSplitting?: boolean;
  /**
   * Sets `SLACK_TEAM_ID` and `SLACK_BOT_USER_ID` from `slackTeamId` / `slackBotUserId` where those
   * are configured, so the code knows the workspace and the bot without an `auth.test` call.
   */
  readonly slackIdentity?: boolean;
}

/**
 * A Lambda function for one file in `handlers/`, with the house defaults set once: Node.js 22 on
 * arm64, an ESM bundle built by the local esbuild (minified, with source maps Node applies to stack
 * traces), JSON logs into a log group with a retention, and a role that starts with nothing but
 * writing to that log group. Access is added with `bind` and `allowInvoke`, each setting the
 * environment variable and the grant together so they cannot drift apart.
 */
export class BotFunction extends Construct {
  readonly fn: LambdaFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: BotFunctionProps) {
    super(scope, id);
    assertLocalEsbuild();
    const { config } = props;
    const aliases = Object.entries(props.aliases ?? {}).map(([name, path]) => `${name}=${path}`);
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: RetentionDays.ONE_MONTH,
      // Logs are diagnostics, not records: they go with the stack.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Our own role rather than the default one, whose managed policy allows logs on `*`.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `eventbot ${props.name} function`,
    });
    this.logGroup.grantWrite(this.role);

    const entry = `${HANDLERS_DIR}${props.handlerFile}`;
    const settings = {
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      role: this.role,
      ...FUNCTION_SIZING[props.name],
      ...(config.reserveConcurrency
        ? { reservedConcurrentExecutions: RESERVED_CONCURRENCY[props.name] }
        : {}),
      logGroup: this.logGroup,
      ...(props.tracing ? { tracing: Tracing.ACTIVE } : {}),
      // The app's logger writes one JSON object per line and filters by LOG_LEVEL itself.
      loggingFormat: LoggingFormat.JSON,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        EIS_BASE_URL: config.eisBaseUrl,
        LOG_LEVEL: config.logLevel,
        POWERTOOLS_SERVICE_NAME: APP_METRICS.service,
        POWERTOOLS_METRICS_NAMESPACE: APP_METRICS.namespace,
        ...(config.spendApprovers.length > 0 ? { SPEND_APPROVERS: config.spendApprovers.join(',') } : {}),
        ...(config.dailyCreditCap > 0 ? { DAILY_CREDIT_CAP: String(config.dailyCreditCap) } : {}),
        ...(config.approvalThreshold > 0 ? { APPROVAL_THRESHOLD: String(config.approvalThreshold) } : {}),
        ...(props.slackIdentity ? slackIdentityEnvironment(config) : {}),
      },
    } satisfies Omit<FunctionProps, 'code' | 'handler'>;
    this.fn = props.codeSplitting
      ? new LambdaFunction(this, 'Function', {
          ...settings,
          handler: 'index.handler',
          code: splitBundleCode(entry, props.aliases),
        })
      : new NodejsFunction(this, 'Function', {
          ...settings,
          entry,
          handler: 'handler',
          bundling: {
            format: OutputFormat.ESM,
            target: 'node22',
            mainFields: ['module', 'main'],
            banner: REQUIRE_SHIM,
            minify: true,
            sourceMap: true,
            sourceMapMode: SourceMapMode.DEFAULT,
            // Mappings are enough for stack traces; the sources would double the asset.
            sourcesContent: false,
            // Ship the SDK versions the tests ran against, not whichever the runtime carries today.
            bundleAwsSDK: true,
            forceDockerBundling: false,
            ...(aliases.length > 0 ? { esbuildArgs: { '--alias': aliases } } : {}),
          },
        });
    Validations.of(this.fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Node.js 22 on purpose: the bundles target node22 and the tests run on it; the runtime moves with them, not alone',
    });
    if (props.tracing) {
      Validations.of(this.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'xray:PutTraceSegments and xray:PutTelemetryRecords (active tracing) have no resource-level permissions',
      });
    }
  }

  /**
   * Gives this function the table and the Slack secret: `TABLE_NAME` and `APP_SECRET_ID` plus exactly
   * the table actions in `access` (on the table ARN, Query on the indexes' ARNs) and GetSecretValue
   * on that secret. Only the secret's ARN is read (and a CDK `Secret` is no `ISecret` under
   * `exactOptionalPropertyTypes`: its `secretFullArn` getter returns `string | undefined`).
   */
  bind(data: { table: BotTable; secret: Pick<ISecret, 'secretArn'> }, access: TableAccess): this {
    const { table, secret } = data;
    this.fn.addEnvironment('TABLE_NAME', table.table.tableName);
    this.fn.addEnvironment('APP_SECRET_ID', secret.secretArn);
    const tableActions = [...access.items, ...(access.queryTable ? ['dynamodb:Query'] : [])];
    this.role.addToPrincipalPolicy(
      new PolicyStatement({ actions: tableActions, resources: [table.table.tableArn] }),
    );
    if (access.queryDueIndex) {
      this.role.addToPrincipalPolicy(
        new PolicyStatement({ actions: ['dynamodb:Query'], resources: table.indexArns }),
      );
    }
    this.allowSecretRead(secret);
    return this;
  }

  /**
   * Gives this function the service API key: `EIS_SECRET_ID` and GetSecretValue on the service
   * secret. Only the functions that call the service get it, never the Slack function.
   */
  allowServiceKey(secret: Pick<ISecret, 'secretArn'>): this {
    this.fn.addEnvironment('EIS_SECRET_ID', secret.secretArn);
    this.allowSecretRead(secret);
    return this;
  }

  // Not `secret.grantRead`, which adds DescribeSecret: GetSecretValue is all the runtime calls.
  private allowSecretRead(secret: Pick<ISecret, 'secretArn'>): void {
    this.role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] }),
    );
  }

  /**
   * Distribution only: `SLACK_CLIENT_ID` (the app runs for many workspaces), `KMS_KEY_ID` (the key's
   * ARN), the one service-key KMS action `use` needs under the `teamId` encryption-context condition,
   * and encrypt and decrypt of Slack tokens under theirs (every function reads a workspace's bot
   * token, and whichever finds it due refreshes it).
   */
  allowDistribution(distribution: Distribution, use: WorkspaceKeyUse): this {
    this.fn.addEnvironment('SLACK_CLIENT_ID', distribution.slackClientId);
    this.fn.addEnvironment('KMS_KEY_ID', distribution.key.keyArn);
    this.role.addToPrincipalPolicy(distribution.statementFor(use));
    this.role.addToPrincipalPolicy(distribution.slackTokensStatement());
    return this;
  }

  /** Lets this function hand jobs to `worker` (`WORKER_FUNCTION_NAME` + InvokeFunction on its ARN). */
  allowInvoke(worker: BotFunction): this {
    this.fn.addEnvironment('WORKER_FUNCTION_NAME', worker.fn.functionName);
    this.role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [worker.fn.functionArn] }),
    );
    return this;
  }
}

/**
 * The workspace and bot user ids, each when configured (with both, the Slack function builds Bolt
 * from them and makes no `auth.test` round trip before its first ack after a cold start), and the
 * unfurl domains when they differ from the default.
 */
function slackIdentityEnvironment(config: DeployConfig): Record<string, string> {
  return {
    ...(config.slackTeamId ? { SLACK_TEAM_ID: config.slackTeamId } : {}),
    ...(config.slackBotUserId ? { SLACK_BOT_USER_ID: config.slackBotUserId } : {}),
    ...(config.unfurlDomains ? { UNFURL_DOMAINS: config.unfurlDomains } : {}),
  };
}

/**
 * NodejsFunction quietly falls back to bundling in Docker when it cannot find esbuild; say so instead
 * (Docker is not needed, and in CI it is usually not there).
 */
function assertLocalEsbuild(): void {
  try {
    createRequire(import.meta.url).resolve('esbuild');
  } catch (cause) {
    throw new Error('esbuild is not installed locally: run `npm ci` (the stack never bundles in Docker).', {
      cause,
    });
  }
}
