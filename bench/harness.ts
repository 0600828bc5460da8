import { pathToFileURL } from 'node:url';

/**
 * Runs in a fresh `node` process per cold start: imports one built bundle (its init phase), calls its
 * handler once with the event in `BENCH_EVENT`, and reports the monotonic clock when the import is done
 * and at the ack, which the parent compares with its own reading just before the spawn (both read
 * CLOCK_MONOTONIC).
 */
type Handler = (event: unknown, context: unknown) => Promise<{ statusCode: number; body?: string }>;

const context = {
  functionName: 'eventbot-bench',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:eventbot-bench',
  memoryLimitInMB: '512',
  awsRequestId: 'bench-request',
  getRemainingTimeInMillis: () => 3_000,
};

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const bundle = process.argv[2] ?? '';
const { handler } = (await import(pathToFileURL(bundle).href)) as { handler: Handler };
const loadedAt = process.hrtime.bigint();
const loadedCpu = cpuMs();
const result = await handler(JSON.parse(process.env.BENCH_EVENT ?? '{}'), context);
const ackAt = process.hrtime.bigint();
const report = {
  loadedAt: loadedAt.toString(),
  ackAt: ackAt.toString(),
  // CPU time (user + system) of this whole process: disturbed far less than wall time by a busy machine.
  loadedCpuMs: loadedCpu,
  ackCpuMs: cpuMs(),
  statusCode: result.statusCode,
  body: result.body ?? '',
};
// Exit at once: SDK sockets kept alive would hold the process open.
process.stdout.write(`\nBENCH_ACK ${JSON.stringify(report)}\n`, () => process.exit(0));
