import type { DigestSubscriptionRepository } from './digests.ts';
import type {
  Confirmation,
  ConfirmationStatus,
  DigestSubscription,
  UnlockTask,
  WatchSettings,
} from './records.ts';
import type { UnlockTaskRepository } from './unlock-tasks.ts';
import type { WatchListRepository } from './watch.ts';

/** What forgetting a workspace deletes, stops and closes; each step idempotent. */
export interface ForgettableWorkspaceStore {
  workspaces: {
    /** True when there was a key. */
    removeServiceKey: (teamId: string) => Promise<boolean>;
    removePolicy: (teamId: string) => Promise<unknown>;
  };
  digestSubscriptions: Pick<DigestSubscriptionRepository, 'disable'> & {
    activeForTeam: (teamId: string) => Promise<Pick<DigestSubscription, 'channelId'>[]>;
  };
  unlockTasks: Pick<UnlockTaskRepository, 'stop'> & {
    /** Open tasks of a team, follow-ups included when asked. */
    unfinishedForTeam: (
      teamId: string,
      options: { followUps: boolean },
    ) => Promise<Pick<UnlockTask, 'taskId'>[]>;
  };
  confirmations: {
    /** The team's confirmations whose final card is still to come (pending, running or decided). */
    dueForTeam: (teamId: string) => Promise<Pick<Confirmation, 'id' | 'status'>[]>;
    /** Closes a pending confirmation: true for the one caller that did. */
    withdraw: (id: string) => Promise<boolean>;
    /** Takes a decided confirmation out of the reconciler's index. */
    cardShown: (id: string, status: ConfirmationStatus) => Promise<void>;
  };
  /** The registry of workspaces with scheduled work. */
  scheduledWork: { remove: (teamId: string) => Promise<unknown> };
  /** Channels' watches: a forgotten workspace's are turned off (accounts kept, never checked again). */
  watchLists: Pick<WatchListRepository, 'setStatus'> & {
    onForTeam: (teamId: string) => Promise<Pick<WatchSettings, 'channelId'>[]>;
  };
}

/** Which installs serve a workspace: its own, or the org-wide one of the enterprise its key was connected under. */
export interface InstallRegistry {
  installations: {
    read: (lookup: {
      teamId: string;
      enterpriseId?: string;
      isEnterpriseInstall: boolean;
    }) => Promise<unknown>;
  };
  workspaces: {
    getServiceKeyInfo: (
      teamId: string,
    ) => Promise<{ orgWideInstall?: { enterpriseId: string } | undefined } | null | undefined>;
  };
}
