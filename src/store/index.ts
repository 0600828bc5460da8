import { createConfirmationRepository } from './confirmations.ts';
import { createDeliveryLog } from './deliveries.ts';
import { createChargeRepository } from './charges.ts';
import { createDigestSubscriptionRepository } from './digest-subscriptions.ts';
import { createFitScoreCache } from './fit-score-cache.ts';
import { createLedgerRepository } from './ledger.ts';
import type { StoreDeps } from './support.ts';
import { createUnlockTaskRepository } from './unlock-tasks.ts';

export type { BeginCharge, BeginResult, ChargeRepository, Settlement } from './charges.ts';
export type { CancelResult, ClaimResult, ConfirmationRepository, NewConfirmation } from './confirmations.ts';
export { RECONCILE_AFTER_SECONDS } from './confirmations.ts';
export type { DeliveryLog } from './deliveries.ts';
export type { DigestSubscriptionInput, DigestSubscriptionRepository } from './digest-subscriptions.ts';
export type { FitScoreCache } from './fit-score-cache.ts';
export type { LedgerRepository, NewLedgerEntry } from './ledger.ts';
export type * from './schemas.ts';
export { type StoreDeps, StoredItemInvalidError } from './support.ts';
export type { NewUnlockTask, UnlockTaskRepository } from './unlock-tasks.ts';

/** Every repository over the one table, sharing a client and a clock. */
export function createStore(deps: StoreDeps) {
  return {
    confirmations: createConfirmationRepository(deps),
    ledger: createLedgerRepository(deps),
    unlockTasks: createUnlockTaskRepository(deps),
    digestSubscriptions: createDigestSubscriptionRepository(deps),
    fitScores: createFitScoreCache(deps),
    charges: createChargeRepository(deps),
    deliveries: createDeliveryLog(deps),
  };
}

export type Store = ReturnType<typeof createStore>;
