import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { type Bundle, type BundleName, ROOT, buildAll, buildHarness, stackSettingsDrift } from './build.ts';
import { BUNDLE_OF, type ColdStartSample, measureColdStarts } from './cold-start.ts';
import { measureKeepAlive } from './keep-alive.ts';
import { TARGETS, coldStartFigures, machine, renderTable, summarizeColdStarts } from './report.ts';
import { startStandInWorld } from './stand-in-world.ts';

/**
 * `npm run bench` (not part of `npm test`): bundle sizes, cold starts and the service client's
 * keep-alive pool, every figure measured side by side in this one run. Prints one table (Markdown,
 * ready for the README) and writes `bench/results.json`. Asserts nothing; takes a few minutes.
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
  const drift = stackSettingsDrift();
  for (const line of drift) log(`WARNING: the stack's esbuild settings changed: ${line}`);
  const outDir = mkdtempSync(join(tmpdir(), 'eventbot-bench-'));
  try {
    log("Building the handlers, the baseline and the floor with the stack's esbuild settings…");
    const bundles = await buildAll(outDir);
    const cold = summarizeColdStarts(await coldStarts(bundles, outDir), DELAYS);
    log('Service client: keep-alive pool vs a new connection per request…');
    const keepAlive = await measureKeepAlive();
    const table = renderTable({ bundles, cold, delays: DELAYS, keepAlive });
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
