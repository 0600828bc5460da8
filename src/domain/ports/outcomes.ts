import type { OutcomeChange, OutcomeEntry } from './records.ts';

/** A workspace's logged outcomes in the store (every call scoped by team: one never reads another's). */
export interface OutcomeRepository {
  /** Stores a new entry; false when its id is taken already (nothing written). */
  add(entry: OutcomeEntry): Promise<boolean>;
  get(teamId: string, id: string): Promise<OutcomeEntry | null>;
  /** Every entry of the workspace, deleted ones included. */
  forTeam(teamId: string): Promise<OutcomeEntry[]>;
  /** Keeps the `ts` of the entry's card in the channel. */
  setCard(teamId: string, id: string, cardTs: string): Promise<void>;
  /**
   * Writes an edited entry (`editedOutcome`) only if the stored one is not deleted and has the history
   * it was edited from (`changes` long): false when another change came first (nothing written).
   */
  replace(entry: OutcomeEntry, changes: number): Promise<boolean>;
  /**
   * Marks the entry deleted by `change` and adds it to its history, once: null when there is no such
   * entry or it was deleted already (nothing written).
   */
  markDeleted(teamId: string, id: string, change: OutcomeChange): Promise<OutcomeEntry | null>;
}
