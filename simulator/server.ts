import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type Appearance,
  appearAtNextEvent,
  applyChange,
  type ChangeResult,
  type ExhibitorChange,
  ScheduledChanges,
} from './appearances.ts';
import { handleControl } from './control.ts';
import { handleExternal } from './external.ts';
import { type Fault, FaultQueue } from './faults.ts';
import { type RecordedRequest, readBody, sendError } from './http.ts';
import { addDays, createSeed, KNOWN_COMPANY_NAME, type Seed, type SeededEvent, todayUtc } from './seed.ts';
import { type LedgerEntry, SimulatorState } from './state.ts';

export type { Appearance, ChangeResult, ExhibitorChange } from './appearances.ts';
export type { Fault } from './faults.ts';
export type { RecordedRequest } from './http.ts';
export type { Seed, SeededEvent, SeededExhibitor, SeededPersonnel } from './seed.ts';
export { BIG_EVENT_ID, EMPTY_EVENT_ID, KNOWN_COMPANY_NAME, KNOWN_PERSON_NAME } from './seed.ts';
export type { LedgerEntry } from './state.ts';

/** Well-known local key, pre-registered: subscribed, 20000 credits. */
export const DEV_API_KEY = 'sk_dev_local';
/** Pre-registered key of an account without an active paid subscription (20000 credits). */
export const UNSUBSCRIBED_API_KEY = 'sk_dev_unsubscribed';
const DEFAULT_BALANCE = 20_000;

export interface SimulatorOptions {
  /** 0/undefined = a free port on 127.0.0.1 */
  port?: number;
  /** added to every /external response (default 0) */
  latencyMs?: number;
  /** 'YYYY-MM-DD' anchor for seeded event dates (default: the current UTC date) */
  today?: string;
  /** clock in ms for task progress (default Date.now) */
  now?: () => number;
  /** how the latency is waited (default a timer; the bench's virtual clock holds the request on it) */
  sleep?: (ms: number) => Promise<void>;
  /** how long an unlock task takes to complete on its own (default 3000) */
  taskDurationMs?: number;
  /** data changes that happen by themselves `afterMs` after start (on the `now` clock) */
  scheduledChanges?: readonly { afterMs: number; change: ExhibitorChange }[];
}

export interface Simulator {
  url: string;
  close(): Promise<void>;
  addKey(key: string, account?: { balance?: number; subscribed?: boolean }): void;
  balance(key: string): number;
  ledger(key: string): LedgerEntry[];
  setLatency(ms: number): void;
  injectFault(fault: Fault): void;
  clearFaults(): void;
  completeTasks(outcome?: 'completed' | 'failed'): void;
  /** How long the unlock tasks submitted from now on take (those already running keep theirs). */
  setTaskDuration(ms: number): void;
  maxInFlight(key: string): number;
  requests(): RecordedRequest[];
  /** Changes the service's data now: an exhibitor appears at or drops out of an event, or it is postponed. */
  changeData(change: ExhibitorChange): ChangeResult;
  /** The same change, made by itself `afterMs` from now on the simulator's clock (seen by the next request). */
  scheduleChange(change: ExhibitorChange, afterMs: number): void;
  /**
   * A known exhibitor (default the seed's KNOWN_COMPANY_NAME) becomes an exhibitor of the soonest
   * upcoming event it is not at yet; undefined when it is already at every one.
   */
  newExhibitorAppears(exhibitor?: string): Appearance | undefined;
  events: SeededEvent[];
  /** the whole seed: events, exhibitors, personnel, agent files */
  seed: Seed;
  today: string;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const today = options.today ?? todayUtc();
  const now = options.now ?? Date.now;
  const seed = createSeed(today);
  const resetAt = Date.parse(`${addDays(today, 30)}T00:00:00Z`);
  const state = new SimulatorState(seed, now, options.taskDurationMs ?? 3000, resetAt);
  state.addAccount(DEV_API_KEY, DEFAULT_BALANCE, true);
  state.addAccount(UNSUBSCRIBED_API_KEY, DEFAULT_BALANCE, false);
  const scheduled = new ScheduledChanges();
  for (const { afterMs, change } of options.scheduledChanges ?? [])
    scheduled.add(state, change, now() + afterMs);
  const faults = new FaultQueue();
  const recorded: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let latency = options.latencyMs ?? 0;

  const { sleep } = options;
  const delay = (ms: number): Promise<void> =>
    ms <= 0
      ? Promise.resolve()
      : sleep
        ? sleep(ms)
        : new Promise((resolve) => {
            const timer = setTimeout(() => {
              timers.delete(timer);
              resolve();
            }, ms);
            timers.add(timer);
          });
  const runtime = { state, faults, today, recorded, delay, latencyMs: () => latency };

  const server = createServer((req, res) => {
    const traceId = randomUUID();
    res.setHeader('x-trace-id', traceId);
    const url = new URL(req.url ?? '/', 'http://simulator.local');
    readBody(req)
      .then((body) => {
        scheduled.applyDue(state, now());
        if (url.pathname.startsWith('/__sim/'))
          return handleControl({ state, scheduled, today }, req, res, url, body, traceId);
        if (url.pathname.startsWith('/external/'))
          return handleExternal(runtime, req, res, url, body, traceId);
        return sendError(res, traceId, 404, `No route for ${req.method} ${url.pathname}`, 'ROUTE_NOT_FOUND');
      })
      .catch((error: unknown) => {
        sendError(res, traceId, 500, error instanceof Error ? error.message : 'Simulator failure');
      });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    events: seed.events,
    seed,
    today,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    addKey(key, account = {}) {
      if (!key.startsWith('sk_')) throw new Error('simulator keys start with sk_');
      state.addAccount(key, account.balance ?? DEFAULT_BALANCE, account.subscribed ?? true);
    },
    balance: (key) => state.account(key).balance,
    ledger: (key) => [...state.account(key).ledger],
    setLatency(ms) {
      latency = ms;
    },
    injectFault: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
    completeTasks: (outcome = 'completed') => state.completeTasks(outcome),
    setTaskDuration: (ms) => {
      state.newTaskDurationMs = ms;
    },
    maxInFlight: (key) => state.peakInFlight.get(key) ?? 0,
    requests: () => [...recorded],
    changeData: (change) => applyChange(state, change),
    scheduleChange: (change, afterMs) => scheduled.add(state, change, now() + afterMs),
    newExhibitorAppears: (exhibitor = KNOWN_COMPANY_NAME) => appearAtNextEvent(state, exhibitor, today),
  };
}
