import { WORKER_TIMEOUT_SECONDS } from '../../platform/config/timeouts.ts';
import type {
  Confirmation,
  ConfirmationAction,
  ConfirmationStatus,
  Json,
  PreApproval,
  Price,
} from './records.ts';

/**
 * When the reconciler looks at a confirmation that has not reached a final card (the store makes it
 * due then). A claim whose worker never started the charge; a charge whose worker must have died (it
 * cannot run longer than its timeout); a decision whose card the deciding process should already have
 * shown.
 */
export const RECONCILE_AFTER_SECONDS = {
  claimed: 120,
  charging: WORKER_TIMEOUT_SECONDS + 30,
  decided: 30,
};

export interface NewConfirmation {
  id?: string;
  teamId: string;
  channelId: string;
  requestedBy: string;
  action: ConfirmationAction;
  price: Price;
  messageTs?: string;
  expiresInSeconds?: number;
  preApproval?: PreApproval;
}

/** The record that now belongs to the caller, or the record as it is when the caller lost. */
export type ClaimResult =
  | { kind: 'claimed'; confirmation: Confirmation }
  | { kind: 'lost'; confirmation: Confirmation }
  | { kind: 'not-found' };

export type CancelResult =
  | { kind: 'cancelled'; confirmation: Confirmation }
  | { kind: 'already-handled'; status: ConfirmationStatus; confirmation: Confirmation }
  | { kind: 'not-found' };

/** The confirmations, as the domain asks for, decides and reconciles them. */
export interface ConfirmationRepository {
  /** Stores a pending confirmation, claimable until `now + expiresInSeconds`. */
  create: (input: NewConfirmation) => Promise<Confirmation>;
  get: (id: string) => Promise<Confirmation | null>;
  /** Stores the ts of the confirmation's card (once the card is posted). */
  attachMessage: (id: string, messageTs: string) => Promise<Confirmation>;
  /** Pending and unexpired → running: among any number of concurrent callers exactly one gets `claimed`. */
  claim: (id: string, by: { by: string }) => Promise<ClaimResult>;
  /** Pending and past its deadline → expired: the record only for the caller whose write won. */
  expire: (id: string) => Promise<Confirmation | null>;
  /** Running → failed while no worker has started the charge: false when one has. */
  abandon: (id: string, outcome: Json) => Promise<boolean>;
  /** Pending → cancelled (even past its deadline); anything else is left alone. */
  cancel: (id: string, by: { by: string }) => Promise<CancelResult>;
  /** The card shows the final `status`: the reconciler need not look at it again. */
  cardShown: (id: string, status: ConfirmationStatus) => Promise<void>;
  /**
   * A charge whose outcome is still unknown: asked about at `askedAt`, due for the reconciler again at
   * `dueAt` (only while it is failed with that outcome).
   */
  askAgain: (id: string, at: { askedAt: Date; dueAt: Date }) => Promise<void>;
  /** Confirmations the reconciler should look at, earliest first (eventually consistent). */
  due: (query: { now: Date; limit: number }) => Promise<Confirmation[]>;
}
