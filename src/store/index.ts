import type {
  ChargeRepository,
  ConfirmationRepository,
  DigestSubscriptionRepository,
  FitScoreCache,
  LedgerRepository,
  UnlockTaskRepository,
} from '../domain/ports/index.ts';
import { createConfirmationRepository } from './confirmations.ts';
import { createDeliveryLog } from './deliveries.ts';
import { createChargeRepository } from './charges.ts';
import { createDigestSubscriptionRepository } from './digest-subscriptions.ts';
import { createFitScoreCache } from './fit-score-cache.ts';
import { createLedgerRepository } from './ledger.ts';
import type { StoreDeps } from './support.ts';
import { createUnlockTaskRepository } from './unlock-tasks.ts';

export type {
  BeginCharge,
  BeginResult,
  CancelResult,
  ChargeRepository,
  ClaimResult,
  ConfirmationRepository,
  DigestSubscriptionRepository,
  FitScoreCache,
  LedgerRepository,
  NewConfirmation,
  NewUnlockTask,
  Settlement,
  UnlockTaskRepository,
} from '../domain/ports/index.ts';
export { RECONCILE_AFTER_SECONDS } from '../domain/ports/index.ts';
export type { DeliveryLog } from './deliveries.ts';
export type { DigestSubscriptionInput } from './digest-subscriptions.ts';
export type { NewLedgerEntry } from './ledger.ts';
export type * from './schemas.ts';
export { type StoreDeps, StoredItemInvalidError } from './support.ts';

/**
 * Every repository over the one table, sharing a client and a clock. Each satisfies the domain's
 * port for it, so a change on either side that breaks the contract does not compile.
 */
export function createStore(deps: StoreDeps) {
  return {
    confirmations: createConfirmationRepository(deps) satisfies ConfirmationRepository,
    ledger: createLedgerRepository(deps) satisfies LedgerRepository,
    unlockTasks: createUnlockTaskRepository(deps) satisfies UnlockTaskRepository,
    digestSubscriptions: createDigestSubscriptionRepository(deps) satisfies DigestSubscriptionRepository,
    fitScores: createFitScoreCache(deps) satisfies FitScoreCache,
    charges: createChargeRepository(deps) satisfies ChargeRepository,
    deliveries: createDeliveryLog(deps),
  };
}

export type Store = ReturnType<typeof createStore>;
