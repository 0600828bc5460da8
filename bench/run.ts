import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { startDynamoDbLocal } from '../local/dynamodb-local.ts';
import { ackRows, measureAckLatency } from './ack-latency.ts';
import { answerRows, measureAnswers } from './answers.ts';
import { type Bundle, type BundleName, ROOT, buildAll, buildHarness, stackSettingsDrift } from './build.ts';
import { BUNDLE_OF, type ColdStartSample, SLACK_SECRET, VARIANTS, measureColdStarts } from './cold-start.ts';
import { digestRows, measureDigestFanOut } from './digest-fan-out.ts';
import { measureKeepAlive } from './keep-alive.ts';
import { measureReturns, returnRows } from './returns.ts';
import { measurePoller, pollerRows } from './poller.ts';
import { scheduleDrift } from './schedule.ts';
import { measureWatch, watchRows } from './watch-fan-out.ts';
import {
  type Row,
  TARGETS,
  bundleRows,
  coldStartFigures,
  coldStartRows,
  keepAliveRow,
  machine,
  renderTable,
  summarizeColdStarts,
  tableOf,
} from './report.ts';
import { startStandInWorld } from './stand-in-world.ts';

/**
 * `npm run bench` (not part of `npm test`): bundle sizes, cold starts, the service client's keep-alive
 * pool, ack latency against a naive handler, the answer times of issue 35 item 3, a show's return beside the plan (issue 43), the unlock poller and the digest fan-out, every figure
 * measured side by side in this one run. Prints one table (Markdown, ready for docs/performance.md) and
 * writes `bench/results.json`. Asserts nothing; takes about ten minutes.
 * `BENCH_RUNS` sets the cold starts per variant and delay (default 11: on a shared 2-core machine
 * fewer leave the medians at the mercy of the neighbours).
 * `BENCH_ONLY` runs some parts alone while developing, comma-separated from `bundles`, `cold-start`,
 * `keep-alive`, `ack`, `answers`, `return`, `poller`, `digest`, `watch` (e.g. `BENCH_ONLY=ack BENCH_ACK_REQUESTS=100 npm run bench`):
 * it prints only their rows and writes nothing, so results.json and docs/performance.md's table keep a
 * whole run.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 11) || 11;
const DELAYS = [0, 100];
const log = (line: string) => process.stderr.write(`${line}\n`);

const PARTS = [
  'bundles',
  'cold-start',
  'keep-alive',
  'ack',
  'answers',
  'return',
  'poller',
  'digest',
  'watch',
] as const;
type Part = (typeof PARTS)[number];
/** The parts measured against one DynamoDB Local (`sections`). */
const SECTION_PARTS: readonly Part[] = ['ack', 'answers', 'return', 'poller', 'digest', 'watch'];

/** The parts `BENCH_ONLY` names; undefined when unset (the whole bench). */
function onlyParts(value: string | undefined): Set<Part> | undefined {
  const names = (value ?? '').split(',').map((name) => name.trim());
  const parts = PARTS.filter((part) => names.includes(part));
  const unknown = names.filter((name) => name !== '' && !parts.some((part) => part === name));
  if (unknown.length > 0)
    throw new Error(`BENCH_ONLY: unknown part ${unknown.join(', ')} (the parts: ${PARTS.join(', ')})`);
  return parts.length > 0 ? new Set(parts) : undefined;
}

async function coldStarts(bundles: Record<BundleName, Bundle>, outDir: string): Promise<ColdStartSample[]> {
  const harness = await buildHarness(outDir);
  log('Starting DynamoDB Local and the stand-ins…');
  const world = await startStandInWorld(SLACK_SECRET);
  try {
    log(
      `Cold starts: ${VARIANTS.length} variants × ${DELAYS.length} delays × ${RUNS} runs, each a fresh node process, interleaved…`,
    );
    const bundleFile = (variant: keyof typeof BUNDLE_OF) => bundles[BUNDLE_OF[variant]].file;
    return await measureColdStarts({ harness, bundleFile, world, runs: RUNS, delays: DELAYS }, log);
  } finally {
    await world.close();
  }
}

/**
 * Acks, the answers, the poller, the digest fan-out and account watch (those `runs`), against one DynamoDB Local (each section
 * in its own table).
 */
async function sections(runs: (part: Part) => boolean = () => true) {
  log('Starting DynamoDB Local for the ack, poller and digest sections…');
  const dynamo = await startDynamoDbLocal();
  try {
    const step = async <T>(part: Part, line: string, measure: () => Promise<T>) => {
      if (!runs(part)) return undefined;
      log(line);
      return measure();
    };
    const acks = await step(
      'ack',
      'Ack latency: the real Slack handler (single workspace and distributed) and a naive one, side by side, at 0, 1 and 3 s of service latency…',
      () => measureAckLatency(dynamo.endpoint, log),
    );
    const answers = await step(
      'answers',
      'Answers: what a user waits for after a command (in the ack, or the worker at 200 ms per service call)…',
      () => measureAnswers(dynamo.endpoint, log),
    );
    const returns = await step(
      'return',
      "A show's return: `/events return <year>` over 5,000 entries and 200 shows, beside `/events plan`…",
      () => measureReturns(dynamo.endpoint, log),
    );
    const poller = await step(
      'poller',
      'Poller: backlog, burst and a simulated hour at 200 ms of service latency…',
      () => measurePoller(dynamo.endpoint, log),
    );
    const digest = await step('digest', 'Digest fan-out: 500 channels due at once…', () =>
      measureDigestFanOut(dynamo.endpoint, log),
    );
    const watch = await step(
      'watch',
      'Account watch: 10,000 accounts over 50 channels, the simulator at 200 ms…',
      () => measureWatch(dynamo.endpoint, log),
    );
    const rows = [
      ...(acks ? ackRows(acks) : []),
      ...(answers ? answerRows(answers) : []),
      ...(returns ? returnRows(returns) : []),
      ...(poller ? pollerRows(poller) : []),
      ...(digest ? digestRows(digest) : []),
      ...(watch ? watchRows(watch) : []),
    ];
    return { acks, answers, returns, poller, digest, watch, rows };
  } finally {
    await dynamo.stop();
  }
}

/** `BENCH_ONLY`: the named parts, their rows printed; nothing written. */
async function partial(only: Set<Part>): Promise<void> {
  const rows: Row[] = [];
  if (only.has('bundles') || only.has('cold-start')) {
    const outDir = mkdtempSync(join(tmpdir(), 'eventbot-bench-'));
    try {
      log("Building the handlers, the baseline and the floor with the stack's esbuild settings…");
      const bundles = await buildAll(outDir);
      if (only.has('bundles')) rows.push(...bundleRows(bundles));
      if (only.has('cold-start'))
        rows.push(...coldStartRows(summarizeColdStarts(await coldStarts(bundles, outDir), DELAYS), DELAYS));
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  }
  if (only.has('keep-alive')) {
    log('Service client: keep-alive pool vs a new connection per request…');
    rows.push(keepAliveRow(await measureKeepAlive()));
  }
  if (SECTION_PARTS.some((part) => only.has(part)))
    rows.push(...(await sections((part) => only.has(part))).rows);
  console.log(tableOf(rows));
  console.log(`\nBENCH_ONLY=${[...only].join(',')}: a partial run; bench/results.json not written`);
}

function bundleFigures(bundles: Record<BundleName, Bundle>) {
  const base = bundles.baseline.bytes;
  const stackBase = bundles['baseline-stack'].bytes;
  const floor = bundles.floor.bytes;
  return Object.fromEntries(
    Object.values(bundles).map((b) => [
      b.name,
      {
        bytes: b.bytes,
        kib: Number((b.bytes / 1024).toFixed(1)),
        toBaseline: b.bytes / base,
        toStackBaseline: b.bytes / stackBase,
        toFloor: b.bytes / floor,
      },
    ]),
  );
}

async function main(): Promise<void> {
  // Lambda runs Node 22; the SDK's notice about older Node versions is noise here (as in the tests).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const only = onlyParts(process.env.BENCH_ONLY);
  if (only) return partial(only);
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
      answers: measured.answers,
      returns: measured.returns,
      poller: measured.poller,
      digestFanOut: measured.digest,
      watch: measured.watch,
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
