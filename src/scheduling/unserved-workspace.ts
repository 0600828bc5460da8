import { reconcileConfirmations, type ReconcileReport, emptyReport } from '../domain/reconcile.ts';
import type { Logger } from '../platform/log.ts';
import { cardUpdater, confirmationCardShower } from '../slack/features/charges/index.ts';
import { scheduledWebClient } from '../slack/scheduled.ts';
import { InstallationNotFoundError, type Store } from '../store/index.ts';
import type { Confirmation } from '../domain/ports/index.ts';

/** Why no runtime can be loaded for a workspace: its key was removed, or the app was. */
export type Unserved = 'key-removed' | 'uninstalled';

export interface UnservedWorkspaceDeps {
  store: Pick<Store, 'confirmations' | 'charges'>;
  /** The bot token of the workspace's own install; throws `InstallationNotFoundError` when there is none. */
  ownBotToken: (teamId: string) => Promise<string>;
  slackApiUrl: string | undefined;
  logger: Logger;
  now: () => Date;
}

/**
 * The confirmations of a workspace the scheduled jobs cannot load a runtime for, so none stays
 * undecided: with no key to ask the service with, a charge past its deadline is settled as "outcome
 * unknown" at its reserved price (the reservation stays under the cap). While the app is installed
 * the cards are updated with its bot token; once it is removed there is no token, so each settled
 * confirmation only leaves the reconciler's index, and is logged.
 */
export async function reconcileUnservedWorkspace(
  teamId: string,
  why: Unserved,
  deps: UnservedWorkspaceDeps,
): Promise<ReconcileReport> {
  const { store, now } = deps;
  const due = await store.confirmations.dueForTeam(teamId);
  if (due.length === 0) return emptyReport();
  const logger = deps.logger.child({ job: 'reconcile', teamId });
  const token = why === 'uninstalled' ? null : await botTokenOrNone(teamId, deps);
  const showCard = token
    ? confirmationCardShower(
        cardUpdater(scheduledWebClient(token, deps.slackApiUrl)),
        store.confirmations,
        logger,
      )
    : (confirmation: Confirmation) => {
        logger.warn('settled a confirmation of a workspace that removed the app: no card to update', {
          confirmationId: confirmation.id,
          status: confirmation.status,
          creditsReserved: confirmation.reserved ?? 0,
        });
        return Promise.resolve();
      };
  return reconcileConfirmations({
    confirmations: { ...store.confirmations, due: () => Promise.resolve(due) },
    charges: store.charges,
    service: null,
    showCard,
    logger,
    now,
  });
}

/** The workspace's own bot token, or none when it has no install of its own (the app was removed). */
async function botTokenOrNone(teamId: string, deps: UnservedWorkspaceDeps): Promise<string | null> {
  try {
    return await deps.ownBotToken(teamId);
  } catch (error) {
    if (error instanceof InstallationNotFoundError) return null;
    throw error;
  }
}
