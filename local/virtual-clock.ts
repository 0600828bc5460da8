import { subscribe } from 'node:diagnostics_channel';

/**
 * A clock that moves only when told: each `sleep` on it waits until the clock reaches its time.
 * `advanceTo` wakes the sleepers in time order, and before each step waits until everything woken has
 * acted: no HTTP request of this process (DynamoDB, the simulator, Slack) in flight, and nothing slept,
 * woke or sent for a short stretch of real time. So what the code does between two waits happens at
 * one moment of the clock, as it would in the milliseconds it takes.
 */
export function virtualClock(startMs: number, options: { quietMs?: number } = {}) {
  let now = startMs;
  const timers: { at: number; wake: () => void }[] = [];
  const http = httpInFlight();
  let changes = 0;
  /** Requests held open on the clock (a server's latency): in flight, but waiting like any sleeper. */
  let held = 0;
  const sleep = (ms: number) =>
    new Promise<void>((wake) => {
      timers.push({ at: now + Math.max(0, ms), wake });
      changes += 1;
    });
  /** A server's wait inside a request of this process (the simulator's latency), on the clock. */
  const holdRequest = async (ms: number) => {
    held += 1;
    try {
      await sleep(ms);
    } finally {
      held -= 1;
    }
  };
  const busy = () => http.inFlight() - held > 0;
  const realPause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** Waits until no request is in flight and nothing happened for `quietMs` of real time. */
  const settle = async (quietMs = options.quietMs ?? 40) => {
    let seen = changes + http.events();
    let quietSince = performance.now();
    while (performance.now() - quietSince < quietMs || busy()) {
      await realPause(5);
      const current = changes + http.events();
      if (current !== seen || busy()) [seen, quietSince] = [current, performance.now()];
    }
  };

  /** Moves the clock to `to`, waking each sleeper due on the way at its time; calls `onStep` after each. */
  const advanceTo = async (to: number, onStep: () => void = () => {}) => {
    for (;;) {
      await settle();
      onStep();
      const next = Math.min(...timers.map((timer) => timer.at));
      if (!(next <= to)) break;
      now = Math.max(now, next);
      const due = timers.filter((timer) => timer.at <= now);
      for (const timer of due) timers.splice(timers.indexOf(timer), 1);
      changes += 1;
      for (const timer of due) timer.wake();
    }
    now = Math.max(now, to);
    await settle();
    onStep();
  };

  return {
    now: () => now,
    date: () => new Date(now),
    /** Sets the clock while nothing sleeps on it (setting up: it may go back). */
    set: (ms: number) => {
      now = ms;
    },
    sleep,
    holdRequest,
    settle,
    advanceTo,
    close: http.close,
  };
}

export type VirtualClock = ReturnType<typeof virtualClock>;

/** This process's HTTP requests in flight (node:http and fetch), from Node's diagnostics channels. */
function httpInFlight() {
  let started = 0;
  let ended = 0;
  const channels: [string, () => void][] = [
    ['http.client.request.start', () => (started += 1)],
    ['http.client.response.finish', () => (ended += 1)],
    ['http.client.request.error', () => (ended += 1)],
    ['undici:request:create', () => (started += 1)],
    ['undici:request:trailers', () => (ended += 1)],
    ['undici:request:error', () => (ended += 1)],
  ];
  const listeners = channels.map(([name, count]) => {
    const listener = () => count();
    subscribe(name, listener);
    return [name, listener] as const;
  });
  return {
    inFlight: () => started - ended,
    events: () => started + ended,
    close: async () => {
      const { unsubscribe } = await import('node:diagnostics_channel');
      for (const [name, listener] of listeners) unsubscribe(name, listener);
    },
  };
}
