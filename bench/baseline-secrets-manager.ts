import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { App, AwsLambdaReceiver } from '@slack/bolt';

/**
 * The stack baseline with its Slack secrets in Secrets Manager, as a minimal Bolt app reads them: one
 * `GetSecretValue` with the SDK's client at init (ESM top-level await), the secret a JSON of
 * `{slackSigningSecret, slackBotToken}` (the Slack function's own shape). The bench compares the
 * Slack function's Secrets Manager starts with this, like with like.
 */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const client = new SecretsManagerClient({});
const { SecretString } = await client.send(
  new GetSecretValueCommand({ SecretId: required('APP_SECRET_ID') }),
);
const secret = JSON.parse(SecretString ?? '{}') as { slackSigningSecret: string; slackBotToken: string };

const receiver = new AwsLambdaReceiver({ signingSecret: secret.slackSigningSecret });
const app = new App({
  token: secret.slackBotToken,
  botId: 'B0BASELINE',
  botUserId: required('SLACK_BOT_USER_ID'),
  receiver,
});

app.command('/events', async ({ ack }) => {
  await ack({ response_type: 'ephemeral', text: 'Working on it' });
});

export const handler = receiver.toHandler();
