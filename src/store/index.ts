import { createConfirmationRepository } from './confirmations.ts';
import { createDailySpendRepository } from './daily-spend.ts';
import { createDigestSubscriptionRepository } from './digest-subscriptions.ts';
import { createFitScoreCache } from './fit-score-cache.ts';
import { createLedgerRepository } from './ledger.ts';
import type { StoreDeps } from './support.ts';
import { createUnlockTaskRepository } from './unlock-tasks.ts';

export type {
  CancelResult,
  ClaimResult,
  ConfirmationOutcome,
  ConfirmationRepository,
  NewConfirmation,
} from './confirmations.ts';
export type { DailySpendRepository, ReserveResult } from './daily-spend.ts';
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
    dailySpend: createDailySpendRepository(deps),
  };
}

export type Store = ReturnType<typeof createStore>;
