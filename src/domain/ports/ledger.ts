import type { LedgerEntry } from './records.ts';

/** The workspace's ledger, as the digest reads it. */
export interface LedgerRepository {
  /** Entries at or after `since`, oldest first. */
  listSince: (teamId: string, since: Date) => Promise<LedgerEntry[]>;
}
