import type { Confirmation, Json, PreApproval, Unlock } from './records.ts';
import type { NewUnlockTask } from './unlock-tasks.ts';

export interface BeginCharge {
  /** Identifies this run: a run whose transaction applied but whose answer was lost knows its own write. */
  attemptId: string;
  /** The service account whose daily cap is charged, and the UTC day. */
  accountId: string;
  day: string;
  /** Credits per account and UTC day; no cap when absent (spend is still counted). */
  cap?: number;
  /** Who asked for the charge and who confirmed it (for a pre-approved one, who set the budget). */
  requestedBy: string;
  confirmedBy: string;
  ledger: { action: string; eventId?: string; personnelIds?: string[]; preApproval?: PreApproval };
}

export type BeginResult =
  | { kind: 'started'; confirmation: Confirmation }
  /** Another run started it, or it is no longer running: nothing may be charged. */
  | { kind: 'duplicate' }
  | { kind: 'capped'; remaining: number };

/** What came of the service call, recorded on the confirmation, the ledger and the cap at once. */
export interface Settlement {
  status: 'succeeded' | 'failed';
  outcome: Json;
  ledger: {
    status: 'charged' | 'refused' | 'unknown';
    credits: number;
    traceId?: string;
    /** An unknown outcome the reconciler asks the service about again until then (ISO time). */
    askUntil?: string;
  };
  /** An unlock task to follow, stored with the settlement so paid results are never lost. */
  task?: NewUnlockTask;
  /**
   * The unlock this charge paid for: recorded for the charge's service account (unless another
   * confirmation is already recorded), so the reconciler of another confirmation of the same unlock,
   * from any workspace on that account, knows that one spent nothing.
   */
  unlocked?: Unlock;
}

/** A confirmed charge, written ahead of the service call and settled after it. */
export interface ChargeRepository {
  /**
   * Before the service is called: marks the charge started (once, for one run), writes a `pending`
   * ledger entry at the quoted price and reserves it under the cap.
   */
  begin: (confirmation: Confirmation, input: BeginCharge) => Promise<BeginResult>;
  /**
   * The confirmation's final status, the ledger entry's real amount, the cap corrected and the unlock
   * task, at once, only while the charge is still running. Returns the settled confirmation, whoever
   * settled it (null if it vanished).
   */
  settle: (confirmationId: string, settlement: Settlement) => Promise<Confirmation | null>;
  /**
   * A charge settled with an unknown outcome, decided later from what the service says: the
   * confirmation's status and outcome, the ledger entry's status and amount, the cap corrected and
   * the unlock's payer, at once, only while the outcome is still unknown. Also closes the asking (a
   * `ledger.status` of `unknown` then means "still unknown"). Returns the confirmation as it now is.
   */
  resolve: (confirmationId: string, settlement: Settlement) => Promise<Confirmation | null>;
  /** The confirmation whose settled charge paid for `unlock` on the service account in the last days, or null. */
  unlockedBy: (accountId: string, unlock: Unlock) => Promise<string | null>;
}
