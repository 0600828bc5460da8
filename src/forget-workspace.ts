import type { Logger } from './log.ts';
import type { Store } from './store/index.ts';

/** Why a forgotten workspace's digests and tasks ended (kept on each, for the record). */
const FORGOTTEN_REASON = 'app uninstalled';

export interface ForgottenWorkspace {
  keyRemoved: boolean;
  digestsStopped: number;
  tasksStopped: number;
}

/**
 * What forgetting a workspace that removed the app means, in one place: its service key and policy
 * deleted, its digests disabled, its open unlock tasks and follow-ups stopped (never polled again).
 * The caller deletes the installation (it alone knows which one); the ledger stays for audit until its
 * TTL (400 days). Each step is idempotent, so forgetting twice (an uninstall event and a scheduled
 * run meeting the same workspace) does no harm.
 */
export async function forgetWorkspace(
  store: Pick<Store, 'workspaces' | 'digestSubscriptions' | 'unlockTasks'>,
  teamId: string,
  logger: Logger,
): Promise<ForgottenWorkspace> {
  const [keyRemoved, , digests, tasks] = await Promise.all([
    store.workspaces.removeServiceKey(teamId),
    store.workspaces.removePolicy(teamId),
    store.digestSubscriptions.activeForTeam(teamId),
    store.unlockTasks.unfinishedForTeam(teamId, { followUps: true }),
  ]);
  const [disabled, stopped] = await Promise.all([
    Promise.all(
      digests.map((digest) => store.digestSubscriptions.disable(teamId, digest.channelId, FORGOTTEN_REASON)),
    ),
    Promise.all(tasks.map((task) => store.unlockTasks.stop(task.taskId, FORGOTTEN_REASON))),
  ]);
  const forgotten = {
    keyRemoved,
    digestsStopped: disabled.filter(Boolean).length,
    tasksStopped: stopped.filter(Boolean).length,
  };
  logger.info('forgot a workspace that removed the app', { teamId, ...forgotten });
  return forgotten;
}
