import type {
  ChargeRepository,
  ConfirmationRepository,
  DigestSubscriptionRepository,
  FitScoreCache,
  LedgerRepository,
  OutcomeRepository,
  PlanRepository,
  UnlockTaskRepository,
  WatchListRepository,
} from '../domain/ports/index.ts';
import { createConfirmationRepository } from './confirmations.ts';
import { createDeliveryLog } from './deliveries.ts';
import { createChargeRepository } from './charges.ts';
import { createChargeOutcomes } from './charge-outcomes.ts';
import { createDigestSubscriptionRepository } from './digest-subscriptions.ts';
import { createFitScoreCache } from './fit-score-cache.ts';
import { createInstallationRepository } from './installations.ts';
import { createLedgerRepository } from './ledger.ts';
import { createOAuthStateRepository } from './oauth-state.ts';
import { createOutcomeRepository } from './outcomes.ts';
import { createPlanRepository } from './plans.ts';
import { createScheduledWorkRepository } from './scheduled-work.ts';
import { createShowIdCache } from './show-ids.ts';
import type { StoreDeps } from './support.ts';
import { createUnlockTaskRepository } from './unlock-tasks.ts';
import { createWatchListRepository } from './watch-lists.ts';
import { createWorkspaceRepository } from './workspaces.ts';
import type { KeyCipher } from '../platform/config/key-cipher.ts';

export type { DeliveryLog } from './deliveries.ts';
export type { PauseReason, ScheduledWorkPause, ScheduledWorkspace } from './scheduled-work.ts';
export type { DigestSubscriptionInput } from './digest-subscriptions.ts';
export {
  type Installation,
  type InstallationLookup,
  InstallationNotFoundError,
  type InstallationRepository,
} from './installations.ts';
export type { InstallOptions, OAuthStateRepository } from './oauth-state.ts';
export type { NewLedgerEntry } from './ledger.ts';
export type { DailySpend, DigestDayClaim, WatchCheckClaim } from './schemas.ts';
export { type StoreDeps, StoredItemInvalidError } from './support.ts';
export type {
  WorkspacePolicy,
  WorkspacePolicyInput,
  WorkspaceRepository,
  WorkspaceServiceKey,
  WorkspaceServiceKeyInfo,
} from './workspaces.ts';

/**
 * Every repository over the one table, sharing a client and a clock. Each satisfies the domain's
 * port for it, so a change on either side that breaks the contract does not compile.
 */
export function createStore(deps: StoreDeps & { keyCipher?: KeyCipher }) {
  return {
    confirmations: createConfirmationRepository(deps) satisfies ConfirmationRepository,
    ledger: createLedgerRepository(deps) satisfies LedgerRepository,
    unlockTasks: createUnlockTaskRepository(deps) satisfies UnlockTaskRepository,
    digestSubscriptions: createDigestSubscriptionRepository(deps) satisfies DigestSubscriptionRepository,
    /** Per service account: `fitScores(accountId)`. */
    fitScores: createFitScoreCache(deps) satisfies (accountId: string) => FitScoreCache,
    /** Per service account: `showIds(accountId)`, each show's public id as its key was told. */
    showIds: createShowIdCache(deps),
    charges: { ...createChargeRepository(deps), ...createChargeOutcomes(deps) } satisfies ChargeRepository,
    deliveries: createDeliveryLog(deps),
    /** Each workspace's service key (encrypted with `keyCipher`; without it, key reads fail) and policy. */
    workspaces: createWorkspaceRepository(deps, deps.keyCipher),
    /** Slack installs (tokens encrypted with `keyCipher`) and the install flow's one-use states (src/slack/oauth-stores.ts adapts both). */
    installations: createInstallationRepository(deps, deps.keyCipher),
    oauthStates: createOAuthStateRepository(deps),
    /** Which workspaces have scheduled work, and whose cannot run now (why, and until when). */
    scheduledWork: createScheduledWorkRepository(deps),
    /** Each channel's account watch: settings, accounts with what the channel was told, check claims, budget spend. */
    watchLists: createWatchListRepository(deps) satisfies WatchListRepository,
    /** Each channel's plan: its shows, budgets by quarter, canvas, and the budget warnings given. */
    plans: createPlanRepository(deps) satisfies PlanRepository,
    /** What each show brought, as the channels logged it (`/events outcome`), deletions kept. */
    outcomes: createOutcomeRepository(deps) satisfies OutcomeRepository,
  };
}

export type Store = ReturnType<typeof createStore>;
