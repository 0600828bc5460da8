import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { startDynamoDbLocal } from '../src/local/dynamodb-local.ts';
import { ackRows, measureAckLatency } from './ack-latency.ts';
import { type Bundle, type BundleName, ROOT, buildAll, buildHarness, stackSettingsDrift } from './build.ts';
import { BUNDLE_OF, type ColdStartSample, measureColdStarts } from './cold-start.ts';
import { digestRows, measureDigestFanOut } from './digest-fan-out.ts';
import { measureKeepAlive } from './keep-alive.ts';
import { measurePoller, pollerRows } from './poller.ts';
import { scheduleDrift } from './schedule.ts';
import { TARGETS, coldStartFigures, machine, renderTable, summarizeColdStarts } from './report.ts';
import { startStandInWorld } from './stand-in-world.ts';

/**
 * `npm run bench` (not part of `npm test`): bundle sizes, cold starts, the service client's keep-alive
 * pool, ack latency against a naive handler, the unlock poller and the digest fan-out, every figure
 * measured side by side in this one run. Prints one table (Markdown, ready for the README) and writes
 * `bench/results.json`. Asserts nothing; takes about ten minutes.
 * `BENCH_RUNS` sets the cold starts per variant and delay (default 11: on a shared 2-core machine
 * fewer leave the medians at the mercy of the neighbours).
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 11) || 11;
const DELAYS = [0, 100];
const log = (line: string) => process.stderr.write(`${line}\n`);

async function coldStarts(bundles: Record<BundleName, Bundle>, outDir: string): Promise<ColdStartSample[]> {
  const harness = await buildHarness(outDir);
  log('Starting DynamoDB Local and the stand-ins…');
  const world = await startStandInWorld();
  try {
    log(
      `Cold starts: 4 variants × ${DELAYS.length} delays × ${RUNS} runs, each a fresh node process, interleaved…`,
    );
    const bundleFile = (variant: keyof typeof BUNDLE_OF) => bundles[BUNDLE_OF[variant]].file;
    return await measureColdStarts({ harness, bundleFile, world, runs: RUNS, delays: DELAYS }, log);
  } finally {
    await world.close();
  }
}

/** Acks, the poller and the digest fan-out, against one DynamoDB Local (each section in its own table). */
async function sections() {
  log('Starting DynamoDB Local for the ack, poller and digest sections…');
  const dynamo = await startDynamoDbLocal();
  try {
    log(
      'Ack latency: the real Slack handler and a naive one, side by side, at 0, 1 and 3 s of service latency…',
    );
    const acks = await measureAckLatency(dynamo.endpoint, log);
    log('Poller: backlog, burst and a simulated hour at 200 ms of service latency…');
    const poller = await measurePoller(dynamo.endpoint, log);
    log('Digest fan-out: 500 channels due at once…');
    const digest = await measureDigestFanOut(dynamo.endpoint, log);
    return { acks, poller, digest, rows: [...ackRows(acks), ...pollerRows(poller), ...digestRows(digest)] };
  } finally {
    await dynamo.stop();
  }
}

function bundleFigures(bundles: Record<BundleName, Bundle>) {
  const base = bundles.baseline.bytes;
  const floor = bundles.floor.bytes;
  return Object.fromEntries(
    Object.values(bundles).map((b) => [
      b.name,
      {
        bytes: b.bytes,
        kib: Number((b.bytes / 1024).toFixed(1)),
        toBaseline: b.bytes / base,
        toFloor: b.bytes / floor,
      },
    ]),
  );
}

async function main(): Promise<void> {
  // Lambda runs Node 22; the SDK's notice about older Node versions is noise here (as in the tests).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const startedAt = new Date();
  const before = machine();
  const drift = [...stackSettingsDrift(), ...scheduleDrift()];
  for (const line of drift) log(`WARNING: the bench no longer mirrors the stack: ${line}`);
  const outDir = mkdtempSync(join(tmpdir(), 'eventbot-bench-'));
  try {
    log("Building the handlers, the baseline and the floor with the stack's esbuild settings…");
    const bundles = await buildAll(outDir);
    const cold = summarizeColdStarts(await coldStarts(bundles, outDir), DELAYS);
    log('Service client: keep-alive pool vs a new connection per request…');
    const keepAlive = await measureKeepAlive();
    const measured = await sections();
    const table = renderTable({ bundles, cold, delays: DELAYS, keepAlive, sectionRows: measured.rows });
    const seconds = Math.round((Date.now() - startedAt.getTime()) / 1000);
    const results = {
      generatedAt: startedAt.toISOString(),
      durationSeconds: seconds,
      machine: { ...before, loadAverage1mAfter: machine().loadAverage1m },
      settings: { coldStartRuns: RUNS, delaysMs: DELAYS, nodeOptions: '--enable-source-maps' },
      targets: TARGETS,
      stackSettingsDrift: drift,
      bundles: bundleFigures(bundles),
      coldStart: coldStartFigures(cold),
      keepAlive: { ...keepAlive, pooledToFresh: keepAlive.pooledMs / keepAlive.freshMs },
      ackLatency: measured.acks,
      poller: measured.poller,
      digestFanOut: measured.digest,
      table,
    };
    const file = join(ROOT, 'bench', 'results.json');
    // Formatted as `npm run format` would leave it, so a run changes only the figures.
    const options = { ...(await resolveConfig(file)), parser: 'json' };
    writeFileSync(file, await format(JSON.stringify(results), options));
    console.log(table);
    console.log(
      `\n${before.cores} cores (${before.cpu}), load ${before.loadAverage1m}, node ${before.node}; ${seconds} s; written to bench/results.json`,
    );
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

await main();
