import { startSocketModeDev } from './dev-socket.ts';
import { startDevStack } from './dev-stack.ts';
import { JavaMissingError } from './dynamodb-local.ts';

// `npm run dev`: the whole bot on this machine with a local Slack page; with SLACK_BOT_TOKEN and
// SLACK_APP_TOKEN set, the same listeners against real Slack over Socket Mode. Ctrl-C stops it all.

// Lambda runs Node 22; the SDK's notice about older Node versions is noise in a local run.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const out = (lines: string[]) => process.stdout.write(`${lines.join('\n')}\n`);

async function start(): Promise<() => Promise<void>> {
  if (process.env.SLACK_BOT_TOKEN && process.env.SLACK_APP_TOKEN) {
    const socket = await startSocketModeDev(process.env);
    out([
      'eventbot over Socket Mode',
      ...socket.summary.map((line) => `  ${line}`),
      'Ctrl-C stops everything.',
    ]);
    return socket.stop;
  }
  const stack = await startDevStack();
  out([
    'eventbot running locally',
    `  DynamoDB Local   ${stack.dynamoEndpoint} (table ${stack.tableName}, in memory)`,
    `  Simulator        ${stack.simulatorUrl} (key ${stack.apiKey})`,
    `  Bot endpoint     ${stack.requestUrl} (handlers/slack.ts, signed requests only)`,
    `  Local Slack      ${stack.slackUrl}  <- open this`,
    'Try /events fit 26855. LOG_LEVEL=info shows the bot logs. Ctrl-C stops everything.',
  ]);
  return stack.stop;
}

try {
  const stop = await start();
  let stopping = false;
  const shutdown = (code: number) => {
    if (stopping) process.exit(1);
    stopping = true;
    process.stdout.write('\nStopping…\n');
    // A stop that hangs (or a second Ctrl-C) still ends the process.
    setTimeout(() => process.exit(1), 10_000).unref();
    void stop().then(() => process.exit(code));
  };
  process.on('SIGINT', () => shutdown(0));
  process.on('SIGTERM', () => shutdown(0));
  // A crash must not leave DynamoDB Local (a Java process) running.
  const crash = (error: unknown) => {
    process.stderr.write(
      `npm run dev crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    shutdown(1);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
} catch (error) {
  process.stderr.write(
    `${error instanceof JavaMissingError ? error.message : `npm run dev failed: ${String(error)}`}\n`,
  );
  process.exit(1);
}
