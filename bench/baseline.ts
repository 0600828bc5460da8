import { App, AwsLambdaReceiver } from '@slack/bolt';

/**
 * The bench's baseline: Bolt's documented AWS Lambda setup, acking one slash command and doing
 * nothing else. The bot ids are given so Bolt makes no `auth.test` call: the baseline never touches
 * the network, which makes it the fastest a Bolt app on Lambda can ack.
 */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const receiver = new AwsLambdaReceiver({ signingSecret: required('SLACK_SIGNING_SECRET') });
const app = new App({
  token: required('SLACK_BOT_TOKEN'),
  botId: 'B0BASELINE',
  botUserId: required('SLACK_BOT_USER_ID'),
  receiver,
});

app.command('/events', async ({ ack }) => {
  await ack({ response_type: 'ephemeral', text: 'Working on it' });
});

export const handler = receiver.toHandler();
