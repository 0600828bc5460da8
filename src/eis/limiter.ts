import { createHash } from 'node:crypto';
import { type CallShares, createCallShares, type ShareLimits } from '../platform/fair-shares.ts';

/** The service runs at most 10 requests per user at once; more come back as concurrency envelopes. */
export const MAX_IN_FLIGHT_PER_KEY = 10;

/**
 * Account watch's look-ups of one key at once, in this process (every channel's check together): the
 * rest of the key's 10 is left for people using the bot.
 */
export const WATCH_IN_FLIGHT_PER_KEY = 6;

/**
 * The poller's service calls on one key at once, in this process (every task's reads together, unlocks
 * and follow-ups alike): the rest of the key's 10 is left for people using the bot. One member's tasks
 * get at most `perMember` of them, one task at most `perTask`, so one member's stack of tasks never
 * takes the whole share and one task's many reads never take it from the others.
 */
export const POLL_IN_FLIGHT: ShareLimits = { total: 5, perMember: 4, perTask: 2 };

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

const pollShares = new Map<string, CallShares>();

/** The key's share of calls for polls in this process (`POLL_IN_FLIGHT`), within the key's own 10. */
export function pollSharesForKey(apiKey: string): CallShares {
  const id = hashOf(apiKey);
  const existing = pollShares.get(id);
  if (existing) return existing;
  const created = createCallShares(POLL_IN_FLIGHT, () => {
    if (pollShares.get(id) === created) pollShares.delete(id);
  });
  pollShares.set(id, created);
  return created;
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
