import { createEisClient } from '../src/eis/index.ts';
import { DEV_API_KEY, startSimulator } from '../src/simulator/server.ts';

/**
 * The service client's keep-alive pool against a new connection per request, side by side in one run
 * against the local simulator (moved here from `src/local/bench.ts`, unchanged in method).
 */
export interface KeepAliveResult {
  calls: number;
  rounds: number;
  pooledMs: number;
  freshMs: number;
}

const CALLS = 300;
const ROUNDS = 3;

async function timed(run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

export const median = (values: number[]): number =>
  [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? 0;

export async function measureKeepAlive(): Promise<KeepAliveResult> {
  const sim = await startSimulator();
  const eventId = sim.events[0]?.eventId ?? '26855';
  const pooled = createEisClient({ baseUrl: sim.url, apiKey: DEV_API_KEY });
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
  try {
    await keepAlive(); // warm-up: JIT and the simulator's first responses
    const results: { pooledMs: number; freshMs: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate the order so neither side always runs on a warmer machine.
      const first = round % 2 === 0;
      const a = await timed(first ? keepAlive : freshConnection);
      const b = await timed(first ? freshConnection : keepAlive);
      results.push(first ? { pooledMs: a, freshMs: b } : { pooledMs: b, freshMs: a });
    }
    const pooledMs = median(results.map((r) => r.pooledMs));
    const freshMs = median(results.map((r) => r.freshMs));
    return { calls: CALLS, rounds: ROUNDS, pooledMs, freshMs };
  } finally {
    await pooled.close();
    await sim.close();
  }
}
