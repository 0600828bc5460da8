import { createLogger, type Logger } from '../src/platform/log.ts';
import { createDocumentClient, ensureTable } from '../src/store/table.ts';

/** A new table in the bench's DynamoDB Local, so no section sees another's items. */
export async function freshTable(endpoint: string, tableName: string) {
  const client = createDocumentClient({ endpoint });
  await ensureTable(client, tableName);
  return client;
}

/** The bot's own logger, at warn: its warnings and errors are kept (and counted), not printed. */
export function quietLogger(): { logger: Logger; problems: string[] } {
  const problems: string[] = [];
  return { logger: createLogger({ level: 'warn', write: (line) => problems.push(line) }), problems };
}

/** Dummy AWS settings for this process's SDK clients that take their endpoint from the environment. */
export function localAwsEnvironment(endpoints: Record<string, string>): void {
  process.env.AWS_REGION = 'us-east-1';
  process.env.AWS_ACCESS_KEY_ID = 'bench';
  process.env.AWS_SECRET_ACCESS_KEY = 'bench';
  process.env.AWS_EC2_METADATA_DISABLED = 'true';
  for (const [service, url] of Object.entries(endpoints)) process.env[`AWS_ENDPOINT_URL_${service}`] = url;
}

/** The environment a scheduled job runs with in the bench: its own table, the simulator, the Slack stand-in. */
export function scheduledEnv(world: {
  tableName: string;
  dynamoEndpoint: string;
  simUrl: string;
  slackApiUrl: string;
  apiKey?: string;
}) {
  return {
    TABLE_NAME: world.tableName,
    AWS_ENDPOINT_URL_DYNAMODB: world.dynamoEndpoint,
    EIS_BASE_URL: world.simUrl,
    EIS_API_KEY: world.apiKey ?? 'sk_dev_local',
    SLACK_SIGNING_SECRET: 'bench-signing-secret',
    SLACK_BOT_TOKEN: 'xoxb-bench-not-a-token',
    SLACK_API_URL: world.slackApiUrl,
  };
}
