import { createHash } from 'node:crypto';

/** The service runs at most 10 requests per user at once; more come back as concurrency envelopes. */
export const MAX_IN_FLIGHT_PER_KEY = 10;

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

// One semaphore per key and process, shared by every client made with that key. Entries are keyed by a
// hash so the key itself is never held here, and dropped when idle so the map does not grow.
const semaphores = new Map<string, Semaphore>();

export function semaphoreForKey(apiKey: string, limit = MAX_IN_FLIGHT_PER_KEY): Semaphore {
  const id = createHash('sha256').update(apiKey).digest('hex');
  const existing = semaphores.get(id);
  if (existing) return existing;
  const created = createSemaphore(limit, () => {
    if (semaphores.get(id) === created && created.waiting === 0) semaphores.delete(id);
  });
  semaphores.set(id, created);
  return created;
}
