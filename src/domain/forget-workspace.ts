import type { Logger } from '../platform/log.ts';
import type { ForgettableWorkspaceStore, InstallRegistry } from './ports/workspaces.ts';

/** Why a forgotten workspace's digests and tasks ended (kept on each, for the record). */
const FORGOTTEN_REASON = 'app uninstalled';

export interface ForgottenWorkspace {
  keyRemoved: boolean;
  digestsStopped: number;
  tasksStopped: number;
  /** Channels' watches turned off (their accounts are kept; nothing checks them). */
  watchesStopped: number;
  /** Pending confirmations closed (nobody can confirm them any more). */
  confirmationsWithdrawn: number;
  /** Charges under way when the app was removed: settled as "outcome unknown" once their deadline passes. */
  chargesUnsettled: number;
}

/**
 * What forgetting a workspace that removed the app means, in one place: its service key and policy
 * deleted, its digests disabled, its channels' watches turned off, its open unlock tasks and follow-ups stopped (never polled again), its
 * pending confirmations withdrawn and its decided ones' cards left as they are (no token to update them
 * with), so the scheduled jobs have nothing left to visit there (the workspace leaves the registry of
 * workspaces with scheduled work once no charge of it is under way). A charge under way is logged and
 * left to the scheduled reconcile, which settles it as "outcome unknown" once its deadline passes (no
 * key to ask the service with) and takes it out of the index (`reconcileUnservedWorkspace`).
 * The caller deletes the installation (it alone knows which one); the ledger stays for audit until its
 * TTL (400 days). Each step is idempotent, so forgetting twice (an uninstall event and a scheduled
 * run meeting the same workspace) does no harm.
 */
export async function forgetWorkspace(
  store: ForgettableWorkspaceStore,
  teamId: string,
  logger: Logger,
): Promise<ForgottenWorkspace> {
  const [keyRemoved, , digests, tasks, confirmations, watches] = await Promise.all([
    store.workspaces.removeServiceKey(teamId),
    store.workspaces.removePolicy(teamId),
    store.digestSubscriptions.activeForTeam(teamId),
    store.unlockTasks.unfinishedForTeam(teamId, { followUps: true }),
    store.confirmations.dueForTeam(teamId),
    store.watchLists.onForTeam(teamId),
  ]);
  const running = confirmations.filter((confirmation) => confirmation.status === 'running');
  // A charge under way keeps the workspace listed, so the scheduled reconcile comes back to settle it.
  if (running.length === 0) await store.scheduledWork.remove(teamId);
  const [disabled, stopped, withdrawn, watchesOff] = await Promise.all([
    Promise.all(
      digests.map((digest) => store.digestSubscriptions.disable(teamId, digest.channelId, FORGOTTEN_REASON)),
    ),
    Promise.all(tasks.map((task) => store.unlockTasks.stop(task.taskId, FORGOTTEN_REASON))),
    Promise.all(
      confirmations.map(async ({ id, status }) => {
        if (status === 'pending') return store.confirmations.withdraw(id);
        // A decided one's card cannot be updated any more (no token): it leaves the reconciler's index.
        if (status !== 'running') await store.confirmations.cardShown(id, status);
        return false;
      }),
    ),
    Promise.all(watches.map((watch) => store.watchLists.setStatus(teamId, watch.channelId, 'off'))),
  ]);
  const forgotten = {
    keyRemoved,
    digestsStopped: disabled.filter(Boolean).length,
    tasksStopped: stopped.filter(Boolean).length,
    watchesStopped: watchesOff.filter(Boolean).length,
    confirmationsWithdrawn: withdrawn.filter(Boolean).length,
    chargesUnsettled: running.length,
  };
  logger.info('forgot a workspace that removed the app', { teamId, ...forgotten });
  if (running.length > 0)
    logger.warn(
      'a removed workspace had charges under way: they are settled as outcome unknown after their deadline',
      {
        teamId,
        confirmationIds: running.map((confirmation) => confirmation.id),
      },
    );
  return forgotten;
}

/**
 * Whether the app is still installed for the workspace: its own install, or the org-wide install of
 * the enterprise its key was connected under. Only a workspace served by neither is forgotten.
 */
export async function isServedByAnInstall(store: InstallRegistry, teamId: string): Promise<boolean> {
  const [own, key] = await Promise.all([
    store.installations.read({ teamId, isEnterpriseInstall: false }),
    store.workspaces.getServiceKeyInfo(teamId),
  ]);
  if (own) return true;
  const enterpriseId = key?.orgWideInstall?.enterpriseId;
  if (!enterpriseId) return false;
  return (await store.installations.read({ teamId, enterpriseId, isEnterpriseInstall: true })) !== undefined;
}
