import { FUNCTION_SIZING } from '../infra/config.ts';
import { DIGEST_SCHEDULE, POLL_TASKS_SCHEDULE } from '../infra/constructs/schedules.ts';

/**
 * The business clock of a simulated schedule: it runs in real time while a scheduled run works (so a
 * slow run shows as lag) and jumps forward between runs to the next time the schedule fires. The
 * runtime, the store, the service simulator and the Slack stand-in all read it.
 */
export interface ManualClock {
  now: () => number;
  date: () => Date;
  /** Sets the clock (while setting up: it may go back). */
  set: (ms: number) => void;
  /** Moves to `ms`, or stays where it is when that has passed already (a run overran its slot). */
  advanceTo: (ms: number) => void;
}

export function manualClock(startMs: number): ManualClock {
  let base = startMs;
  let since = performance.now();
  // Whole milliseconds, as Date.now gives: the simulator hands its clock back as the service's int64
  // timestamps (an outreach draft's create_time), which the client's schemas hold to integers.
  const now = () => Math.floor(base + (performance.now() - since));
  const set = (ms: number) => {
    base = ms;
    since = performance.now();
  };
  return { now, date: () => new Date(now()), set, advanceTo: (ms) => set(Math.max(ms, now())) };
}

/** What the stack deploys (infra/): how often the scheduled handlers run, and for how long at most. */
export const STACK = {
  pollEveryMs: 60_000,
  digestEveryMs: 5 * 60_000,
  pollTimeoutMs: FUNCTION_SIZING.pollTasks.timeout.toMilliseconds(),
  digestTimeoutMs: FUNCTION_SIZING.digest.timeout.toMilliseconds(),
};

/** The schedules above as the stack writes them; a change there is reported rather than mirrored silently. */
export function scheduleDrift(): string[] {
  const [poll, digest]: string[] = [POLL_TASKS_SCHEDULE, DIGEST_SCHEDULE];
  const drift: string[] = [];
  if (poll !== 'rate(1 minute)') drift.push(`poll-tasks schedule is ${poll}`);
  if (digest !== 'cron(0/5 * * * ? *)') drift.push(`digest schedule is ${digest}`);
  return drift;
}

/** A Lambda context's clock for one scheduled run: the function's timeout, counted from now in real time. */
export function lambdaTimeLeft(timeoutMs: number): () => number {
  const started = performance.now();
  return () => timeoutMs - (performance.now() - started);
}
