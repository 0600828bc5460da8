import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { createEisClient } from '../src/eis/index.ts';
import { DEV_API_KEY, startSimulator } from '../simulator/server.ts';

/**
 * The service client's keep-alive pool against a new connection per request, side by side in one run
 * against the local simulator. The client sends through Node's built-in `fetch`, whose process-wide
 * undici dispatcher keeps connections alive; for the "new connection per request" side that
 * dispatcher is swapped, for the duration of that side only, for one with keep-alive off
 * (`pipelining: 0`), so both sides run the same client and the same HTTP stack and differ only in
 * connection reuse.
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
  const client = createEisClient({ baseUrl: sim.url, apiKey: DEV_API_KEY });
  const keepAlive = async () => {
    for (let i = 0; i < CALLS; i++) await client.events.fitScore(eventId);
  };
  const freshConnection = async () => {
    const shared = getGlobalDispatcher();
    const noKeepAlive = new Agent({ pipelining: 0 });
    setGlobalDispatcher(noKeepAlive);
    try {
      for (let i = 0; i < CALLS; i++) await client.events.fitScore(eventId);
    } finally {
      setGlobalDispatcher(shared);
      await noKeepAlive.close();
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
    await client.close();
    await sim.close();
  }
}
