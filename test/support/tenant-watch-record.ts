import type { TenantStack } from './tenant-harness.ts';
import type { WatchPool } from './tenant-watch-pool.ts';

/** What a tenant-model sequence's watch did (to judge it by), and what a watch step plays on. */

type Item = Record<string, unknown>;

/** What a sequence's watch did, to judge it by. */
export interface WatchRecord {
  /** The shows each account's companies were on when the channel added it: `channel|key` → event ids. */
  knownAtAdd: Map<string, Set<string>>;
  /** Rows of the alerts posted so far: `channel|key|event` → times announced. */
  announced: Map<string, number>;
  /** The most credits a month any budget step asked for, per `team|channel`. */
  budgets: Map<string, number>;
  /** Items DynamoDB's TTL deleted during the sequence (confirmations past their week): history still. */
  swept: Item[];
  /** Channels whose every check dies of its timeout from now on. */
  timeouts: Set<string>;
  /** The labels added to each channel, in order: what a remove or a re-add names. */
  added: Map<string, string[]>;
  /** Appearances the sequence made (undone at its end, so sequences do not see each other's). */
  appeared: { exhibitor: string; event: string }[];
  violations: string[];
  /** Slack calls read for alerts so far (an index into the fake's call log). */
  callsSeen: number;
}

export const newWatchRecord = (callsFrom: number): WatchRecord => ({
  knownAtAdd: new Map(),
  announced: new Map(),
  budgets: new Map(),
  swept: [],
  timeouts: new Set(),
  added: new Map(),
  appeared: [],
  violations: [],
  callsSeen: callsFrom,
});

/** What a watch step plays on: the stack, the sequence, and the scheduled jobs as time passes. */
export interface WatchContext {
  stack: TenantStack;
  seq: ReturnType<TenantStack['begin']>;
  pool: WatchPool;
  watch: WatchRecord;
  /** The scheduled jobs as they run while time passes (the reconciler, polls, digests, the watch run). */
  runScheduled: () => Promise<void>;
}
