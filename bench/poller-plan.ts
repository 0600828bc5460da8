import { createRng } from '../simulator/prng.ts';

/*
 * What the poller's parts share (bench/poller.ts, poller-hour.ts): their settings, the tasks they
 * plan and the threads the replies go to. Apart, so that neither part imports the other.
 */

export const POLLER = {
  latencyMs: 200,
  backlog: 1000,
  /** Bounded (the run's rate is what is measured): each posted result holds its poll slot a second longer. */
  burst: 50,
  /** Bounded so that the hour's real running time stays near two minutes on a loaded 2-core machine. */
  hourTasks: 200,
  /** The service's latency in the simulated hour: the bench's usual 200 ms, and a slow 1,200 ms. */
  hourLatenciesMs: [200, 1200],
  channels: 50,
};
export const MINUTE = 60_000;

export interface PlannedTask {
  index: number;
  createdAt: number;
  finishesAt: number;
}

export const channelOf = (index: number) => `C0POLL${index % POLLER.channels}`;
export const threadOf = (index: number) => `1700000000.${String(index).padStart(6, '0')}`;
export const threadKey = (index: number) => `${channelOf(index)}/${threadOf(index)}`;

export const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** How long a task runs at the service: mostly minutes, some up to 50 (seeded, so every run plans the same). */
export function hourPlan(t0: number): PlannedTask[] {
  const rng = createRng(20261123);
  const between = (lo: number, hi: number) => lo * (hi / lo) ** rng.next();
  return range(POLLER.hourTasks).map((index) => {
    const finishesAt = t0 + 30_000 + Math.round(rng.next() * (58 * MINUTE));
    const kind = rng.next();
    const runs =
      kind < 0.85
        ? between(30_000, 10 * MINUTE)
        : kind < 0.95
          ? between(10 * MINUTE, 30 * MINUTE)
          : between(30 * MINUTE, 50 * MINUTE);
    return { index, createdAt: finishesAt - Math.round(runs), finishesAt };
  });
}
