import { createEisClient } from '../eis/index.ts';
import { DEV_API_KEY, startSimulator } from '../simulator/server.ts';

/**
 * `npm run bench`: the service client's keep-alive pool against a new connection per request, side
 * by side in one run against the local simulator. Prints times and their ratio; asserts nothing.
 */
const CALLS = 300;
const ROUNDS = 3;

const sim = await startSimulator();
const eventId = sim.events[0]?.eventId ?? '26855';
const pooled = createEisClient({ baseUrl: sim.url, apiKey: DEV_API_KEY });

async function timed(run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

const keepAlive = async () => {
  for (let i = 0; i < CALLS; i++) await pooled.events.fitScore(eventId);
};
const freshConnection = async () => {
  for (let i = 0; i < CALLS; i++) {
    const client = createEisClient({ baseUrl: sim.url, apiKey: DEV_API_KEY });
    await client.events.fitScore(eventId);
    await client.close();
  }
};

await keepAlive(); // warm-up: JIT and the simulator's first responses
const results: { pooledMs: number; freshMs: number }[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Alternate the order so neither side always runs on a warmer machine.
  const first = round % 2 === 0;
  const a = await timed(first ? keepAlive : freshConnection);
  const b = await timed(first ? freshConnection : keepAlive);
  results.push(first ? { pooledMs: a, freshMs: b } : { pooledMs: b, freshMs: a });
}
const median = (values: number[]) => values.sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? 0;
const pooledMs = median(results.map((r) => r.pooledMs));
const freshMs = median(results.map((r) => r.freshMs));
console.log(`${CALLS} sequential fit-score calls, median of ${ROUNDS} rounds:`);
console.log(
  `  keep-alive pool:            ${pooledMs.toFixed(0)} ms (${((pooledMs / CALLS) * 1000).toFixed(0)} µs/call)`,
);
console.log(
  `  new connection per request: ${freshMs.toFixed(0)} ms (${((freshMs / CALLS) * 1000).toFixed(0)} µs/call)`,
);
console.log(`  ratio (new connection / keep-alive): ${(freshMs / pooledMs).toFixed(2)}x`);
await pooled.close();
await sim.close();
