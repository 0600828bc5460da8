import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../../platform/log.ts';
import type { Store } from '../../../store/index.ts';
import type { ServedWorkspace } from '../../../store/workspaces.ts';
import { pausedWorkBlocks } from './paused-work-views.ts';
import type { WorkspaceAdminDeps } from '../../kit/listener-deps.ts';
import { isWorkspaceAdmin } from '../../kit/workspace-roles.ts';

export interface PausedWorkSources {
  scheduledWork: Pick<Store['scheduledWork'], 'get'>;
  workspaces: WorkspaceAdminDeps['workspaces'];
}

/**
 * The Home blocks telling a workspace admin that the workspace's scheduled work is paused, and why;
 * none for anybody else, or when it is not paused, or when that cannot be read just now.
 */
export async function pausedWorkNotice(
  sources: PausedWorkSources,
  client: WebClient,
  viewer: { workspace: ServedWorkspace; userId: string },
  logger: Logger,
): Promise<KnownBlock[]> {
  try {
    const paused = (await sources.scheduledWork.get(viewer.workspace.teamId))?.paused;
    if (!paused || !(await isWorkspaceAdmin(sources, client, viewer, logger))) return [];
    return pausedWorkBlocks(paused);
  } catch (error) {
    logger.warn('could not read whether the workspace’s scheduled work is paused', { error });
    return [];
  }
}
