import { startDynamoDbLocal } from '../local/dynamodb-local.ts';
import { type FakeSlack, startFakeSlack } from '../local/fake-slack/fake-slack.ts';
import { createDeliveryLog } from '../src/store/deliveries.ts';
import { createDocumentClient, ensureTable } from '../src/store/table.ts';
import {
  type DelayProxy,
  startDelayProxy,
  startLambdaStandIn,
  startSecretsManagerStandIn,
} from './stand-ins.ts';

export const TABLE_NAME = 'eventbot-bench';
export const TEAM_ID = 'T0LOCAL';
/** Issue 24's second condition: the Slack secret read from Secrets Manager at +100 ms per request. */
export const SECRETS_MANAGER_DELAY_MS = 100;

/** Everything the Slack handler talks to before its ack, each behind its own delaying proxy. */
export interface StandInWorld {
  /** DynamoDB Local through its proxy. */
  dynamodbUrl: string;
  /** The Lambda Invoke stand-in through its proxy. */
  lambdaUrl: string;
  /** The fake Slack Web API through its proxy (`SLACK_API_URL`). */
  slackApiUrl: string;
  /** The Secrets Manager stand-in, always `SECRETS_MANAGER_DELAY_MS` away (`setDelay` leaves it). */
  secretsManagerUrl: string;
  setDelay(ms: number): void;
  resetCounts(): void;
  /** Requests each stand-in received since `resetCounts`. */
  counts(): { dynamodb: number; lambda: number; slackAuthTest: number; secretsManager: number };
  close(): Promise<void>;
}

export async function startStandInWorld(slackSecret: Record<string, string> = {}): Promise<StandInWorld> {
  const dynamo = await startDynamoDbLocal();
  const direct = createDocumentClient({ endpoint: dynamo.endpoint });
  await ensureTable(direct, TABLE_NAME);
  await warmUp(direct);
  const lambda = await startLambdaStandIn();
  const slack = await startFakeSlack();
  const secretsManager = await startSecretsManagerStandIn(slackSecret);
  const secretsProxy = await startDelayProxy(new URL(secretsManager.url));
  secretsProxy.setDelay(SECRETS_MANAGER_DELAY_MS);
  const proxies = {
    dynamodb: await startDelayProxy(new URL(dynamo.endpoint)),
    lambda: await startDelayProxy(new URL(lambda.url)),
    slack: await startDelayProxy(new URL(slack.url)),
  };
  let authTestsBefore = 0;
  return {
    dynamodbUrl: proxies.dynamodb.url,
    lambdaUrl: proxies.lambda.url,
    slackApiUrl: `${proxies.slack.url}/api/`,
    secretsManagerUrl: secretsProxy.url,
    setDelay: (ms) => Object.values(proxies).forEach((proxy: DelayProxy) => proxy.setDelay(ms)),
    resetCounts: () => {
      [...Object.values(proxies), secretsProxy].forEach((proxy: DelayProxy) => proxy.resetCount());
      authTestsBefore = authTests(slack);
    },
    counts: () => ({
      dynamodb: proxies.dynamodb.requests(),
      lambda: proxies.lambda.requests(),
      slackAuthTest: authTests(slack) - authTestsBefore,
      secretsManager: secretsProxy.requests(),
    }),
    close: async () => {
      await Promise.all([...Object.values(proxies), secretsProxy].map((proxy: DelayProxy) => proxy.close()));
      await Promise.all([lambda.close(), slack.close(), secretsManager.close()]);
      direct.destroy();
      await dynamo.stop();
    },
  };
}

const authTests = (slack: FakeSlack) => slack.calls.filter((call) => call.method === 'auth.test').length;

/** DynamoDB Local is a JVM: its first conditional puts are slow until the JIT has seen them. */
async function warmUp(client: ReturnType<typeof createDocumentClient>): Promise<void> {
  const deliveries = createDeliveryLog({ client, tableName: TABLE_NAME });
  for (let i = 0; i < 50; i++) await deliveries.first(`bench-warm-up:${Date.now()}:${i}`);
}
