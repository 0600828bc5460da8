import type { WebClient } from '@slack/web-api';
import * as z from 'zod';
import type { Logger } from '../log.ts';
import { installationOf, type ServedWorkspace } from '../store/workspaces.ts';
import type { WorkspaceAdminDeps } from './listeners/deps.ts';

const UserInfoSchema = z.object({
  user: z.object({
    is_admin: z.boolean().optional(),
    is_owner: z.boolean().optional(),
    is_primary_owner: z.boolean().optional(),
  }),
});

/**
 * Who may manage a workspace's key and rules: the one place that decides it, for the settings modal,
 * the Home's admin notices and whatever else is shown to admins only. Nobody when Slack cannot say.
 */
export async function isWorkspaceAdmin(
  admin: Pick<WorkspaceAdminDeps, 'installations'>,
  client: WebClient,
  { workspace, userId }: { workspace: ServedWorkspace; userId: string },
  logger: Logger,
): Promise<boolean> {
  try {
    const installed = await admin.installations.read(installationOf(workspace));
    if (installed?.installation.user.id === userId) return true;
    const { user } = UserInfoSchema.parse(await client.users.info({ user: userId }));
    return user.is_admin === true || user.is_owner === true || user.is_primary_owner === true;
  } catch (error) {
    logger.warn('could not tell whether a user is a workspace admin', { error });
    return false;
  }
}
