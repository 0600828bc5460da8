import type { LedgerEntry } from './ports/index.ts';

/**
 * What a workspace spent over a period, from its ledger: the total, and totals by who asked, by show and
 * by action, largest first. Credits are counted as the ledger says; a charge the service refused spent
 * nothing and is left out, and credits not yet confirmed (in flight, or the outcome unknown) are
 * counted and kept apart so they can be marked.
 */

/** A ledger entry's standing: `unconfirmed` is a charge whose outcome the service never told. */
export type SpendState = 'charged' | 'pending' | 'unconfirmed' | 'refused';

export function spendStateOf(entry: Pick<LedgerEntry, 'status' | 'outcomeUnknown'>): SpendState {
  if (entry.status === 'refused') return 'refused';
  if (entry.status === 'pending') return 'pending';
  if (entry.status === 'unknown' || entry.outcomeUnknown) return 'unconfirmed';
  return 'charged';
}

export type SpentEntry = Pick<
  LedgerEntry,
  'requestedBy' | 'confirmedBy' | 'action' | 'credits' | 'eventId' | 'status' | 'outcomeUnknown'
>;

/** Credits and charges of one group (or of the whole period). */
export interface SpendTotal {
  credits: number;
  charges: number;
  /** Credits of those charges still in flight. */
  pending: number;
  /** Credits of those charges the service never confirmed. */
  unconfirmed: number;
}

export interface SpendGroup extends SpendTotal {
  /** The user id, the event id or the stored action kind. */
  key: string;
}

/** Who confirmed some of a person's charges, and how many. */
export interface Confirmer {
  userId: string;
  charges: number;
}

/** What one person asked for: the group is keyed by who asked. */
export interface PersonSpend extends SpendGroup {
  /**
   * Everyone who confirmed those charges, the asker included, each with their count: most charges
   * first, then in the order first seen.
   */
  confirmedBy: Confirmer[];
}

export interface SpendSummary {
  total: SpendTotal;
  byPerson: PersonSpend[];
  /** Charges naming a show; `notForAShow` holds the rest (searches, contact unlocks). */
  byShow: SpendGroup[];
  notForAShow: SpendTotal;
  byAction: SpendGroup[];
}

const emptyTotal = (): SpendTotal => ({ credits: 0, charges: 0, pending: 0, unconfirmed: 0 });

function add(total: SpendTotal, entry: SpentEntry): void {
  const state = spendStateOf(entry);
  total.credits += entry.credits;
  total.charges += 1;
  if (state === 'pending') total.pending += entry.credits;
  if (state === 'unconfirmed') total.unconfirmed += entry.credits;
}

/** Groups by `keyOf`, largest spend first; ties by more charges, then by key (a stable order). */
function groupBy(entries: readonly SpentEntry[], keyOf: (entry: SpentEntry) => string): SpendGroup[] {
  const groups = new Map<string, SpendGroup>();
  for (const entry of entries) {
    const key = keyOf(entry);
    const group = groups.get(key) ?? { key, ...emptyTotal() };
    add(group, entry);
    groups.set(key, group);
  }
  return [...groups.values()].sort(
    (a, b) => b.credits - a.credits || b.charges - a.charges || a.key.localeCompare(b.key),
  );
}

function confirmersOf(entries: readonly SpentEntry[], requestedBy: string): Confirmer[] {
  const counts = new Map<string, number>();
  for (const entry of entries)
    if (entry.requestedBy === requestedBy)
      counts.set(entry.confirmedBy, (counts.get(entry.confirmedBy) ?? 0) + 1);
  // A stable sort: equal counts keep the order first seen.
  return [...counts].map(([userId, charges]) => ({ userId, charges })).sort((a, b) => b.charges - a.charges);
}

export function summarizeSpend(ledger: readonly SpentEntry[]): SpendSummary {
  const entries = ledger.filter((entry) => spendStateOf(entry) !== 'refused');
  const total = emptyTotal();
  const notForAShow = emptyTotal();
  for (const entry of entries) {
    add(total, entry);
    if (!entry.eventId) add(notForAShow, entry);
  }
  return {
    total,
    byPerson: groupBy(entries, (entry) => entry.requestedBy).map((group) => ({
      ...group,
      confirmedBy: confirmersOf(entries, group.key),
    })),
    byShow: groupBy(
      entries.filter((entry) => entry.eventId),
      (entry) => entry.eventId ?? '',
    ),
    notForAShow,
    byAction: groupBy(entries, (entry) => entry.action),
  };
}
