import type { LedgerEntry } from './records.ts';

/**
 * The entries the ledger keeps of a team (or of one channel), newest first; `capped` only when the team
 * keeps more than the bound read (of any channel: the bound counts every entry read).
 */
export interface KeptEntries {
  entries: LedgerEntry[];
  capped: boolean;
}

/** The workspace's ledger, as the digest and the plan read it. */
export interface LedgerRepository {
  /** Entries at or after `since`, oldest first. */
  listSince: (teamId: string, since: Date) => Promise<LedgerEntry[]>;
  /**
   * Every entry the ledger still keeps (its retention), newest first, of one channel when given; a
   * bounded read (the plan's budget counts spend on its shows whenever it was charged).
   */
  listKept: (teamId: string, channelId?: string) => Promise<KeptEntries>;
}
