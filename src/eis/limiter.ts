import { createHash } from 'node:crypto';

/** The service runs at most 10 requests per user at once; more come back as concurrency envelopes. */
export const MAX_IN_FLIGHT_PER_KEY = 10;

/**
 * Account watch's look-ups of one key at once, in this process (every channel's check together): the
 * rest of the key's 10 is left for people using the bot.
 */
export const WATCH_IN_FLIGHT_PER_KEY = 6;

export interface Semaphore {
  acquire(): Promise<() => void>;
  readonly inFlight: number;
  readonly waiting: number;
}

export function createSemaphore(limit: number, onIdle: () => void = () => {}): Semaphore {
  let inFlight = 0;
  const waiters: Array<() => void> = [];

  const release = () => {
    const next = waiters.shift();
    if (next) {
      next(); // the slot passes straight to the next waiter
      return;
    }
    inFlight -= 1;
    if (inFlight === 0) onIdle();
  };

  const once = () => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  };

  return {
    acquire() {
      if (inFlight < limit) {
        inFlight += 1;
        return Promise.resolve(once());
      }
      return new Promise((resolve) => waiters.push(() => resolve(once())));
    },
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return waiters.length;
    },
  };
}

// One semaphore per key and process, shared by every client made with that key (and one for the key's
// watch look-ups). Entries are keyed by a hash so the key itself is never held here, and dropped when
// idle so the map does not grow.
const semaphores = new Map<string, Semaphore>();

const hashOf = (apiKey: string) => createHash('sha256').update(apiKey).digest('hex');

export function semaphoreForKey(apiKey: string, limit = MAX_IN_FLIGHT_PER_KEY): Semaphore {
  return registered(hashOf(apiKey), limit);
}

/** The key's watch look-ups in this process: `WATCH_IN_FLIGHT_PER_KEY` at once, within the key's own 10. */
export function watchSemaphoreForKey(apiKey: string): Semaphore {
  return registered(`watch:${hashOf(apiKey)}`, WATCH_IN_FLIGHT_PER_KEY);
}

function registered(id: string, limit: number): Semaphore {
  const existing = semaphores.get(id);
  if (existing) return existing;
  const created = createSemaphore(limit, () => {
    if (semaphores.get(id) === created && created.waiting === 0) semaphores.delete(id);
  });
  semaphores.set(id, created);
  return created;
}
