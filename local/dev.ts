import { startSocketModeDev } from './dev-socket.ts';
import { startDevStack } from './dev-stack.ts';
import { JavaMissingError } from './dynamodb-local.ts';
import { pagePortOf } from './page-port.ts';

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
    return () => socket.stop();
  }
  const stack = await startDevStack({ pagePort: pagePortOf(process.env), slackDeadlines: true });
  out([
    'eventbot running locally',
    `  DynamoDB Local   ${stack.dynamoEndpoint} (table ${stack.tableName}, in memory)`,
    `  Simulator        ${stack.simulatorUrl} (key ${stack.apiKey})`,
    `  Bot endpoint     ${stack.requestUrl} (handlers/slack.ts, signed requests only)`,
    `  Local Slack      ${stack.slackUrl}  <- open this${stack.portNote ? ` (${stack.portNote})` : ''}`,
    'Try /events fit 26855, the Home entry, ⚡ Search events, or paste https://app.lensmor.com/events/26855.',
    `Unfurl domains: ${stack.unfurlDomains.join(', ')} (UNFURL_DOMAINS). LOG_LEVEL=info shows the bot logs.`,
    'Ctrl-C stops everything.',
  ]);
  return () => stack.stop();
}

let stop: (() => Promise<void>) | undefined;
let stopping = false;
const shutdown = (code: number) => {
  // A second Ctrl-C, or one while still starting, ends it at once; DynamoDB Local's exit hook
  // still kills Java.
  if (stopping) process.exit(1);
  if (!stop) process.exit(code);
  stopping = true;
  process.stdout.write('\nStopping…\n');
  // A stop that hangs must not keep the terminal (or a test) waiting.
  setTimeout(() => process.exit(code), 1_500).unref();
  void stop().finally(() => process.exit(code));
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutdown(0));
// npm runs the script under `sh -c`, and a SIGTERM sent to npm alone kills that shell without
// passing it on; orphaned, this process notices its parent is gone.
const parent = process.ppid;
setInterval(() => {
  if (!stopping && process.ppid !== parent) shutdown(0);
}, 250).unref();
// A crash must not leave DynamoDB Local (a Java process) running.
const crash = (error: unknown) => {
  process.stderr.write(
    `npm run dev crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  shutdown(1);
};
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);

try {
  stop = await start();
} catch (error) {
  process.stderr.write(
    `${error instanceof JavaMissingError ? error.message : `npm run dev failed: ${error instanceof Error ? error.message : String(error)}`}\n`,
  );
  process.exit(1);
}
