import type { WebClient } from '@slack/web-api';
import * as z from 'zod';
import { type SettingsRole, type SlackRoles, settingsRoleOf } from '../../../domain/workspace-admins.ts';
import type { Logger } from '../../../platform/log.ts';
import type { ServedWorkspace } from '../../../store/workspaces.ts';
import type { WorkspaceAdminDeps } from '../../listeners/deps.ts';

const Flag = z.boolean().optional();

/** What `users.info` says of a user's roles (`@slack/web-api`'s `UsersInfoResponse`). */
const UserInfoSchema = z.object({
  user: z.object({
    is_admin: Flag,
    is_owner: Flag,
    is_primary_owner: Flag,
    enterprise_user: z
      .object({
        enterprise_id: z.string().optional(),
        is_admin: Flag,
        is_owner: Flag,
        is_primary_owner: Flag,
        teams: z.array(z.string()).optional(),
      })
      .optional(),
  }),
});

async function slackRolesOf(client: WebClient, userId: string): Promise<SlackRoles> {
  const { user } = UserInfoSchema.parse(await client.users.info({ user: userId }));
  const org = user.enterprise_user;
  return {
    isAdmin: user.is_admin === true,
    isOwner: user.is_owner === true,
    isPrimaryOwner: user.is_primary_owner === true,
    ...(org?.enterprise_id
      ? {
          org: {
            enterpriseId: org.enterprise_id,
            isAdmin: org.is_admin === true,
            isOwner: org.is_owner === true,
            isPrimaryOwner: org.is_primary_owner === true,
            teamIds: org.teams ?? [],
          },
        }
      : {}),
  };
}

/**
 * What `userId` may do with the workspace's settings (src/domain/workspace-admins.ts decides): asks
 * Slack for their roles with the client serving the workspace, and reads the app managers its admins
 * named. Nothing when either cannot be read.
 */
export async function workspaceSettingsRole(
  admin: Pick<WorkspaceAdminDeps, 'workspaces'>,
  client: WebClient,
  { workspace, userId }: { workspace: ServedWorkspace; userId: string },
  logger: Logger,
): Promise<SettingsRole | undefined> {
  try {
    const [roles, policy] = await Promise.all([
      slackRolesOf(client, userId),
      admin.workspaces.getPolicy(workspace.teamId),
    ]);
    return settingsRoleOf(userId, roles, {
      ...workspace,
      appManagerUserIds: policy?.appManagerUserIds ?? [],
    });
  } catch (error) {
    logger.warn('could not tell whether a user may manage the workspace settings', { error });
    return undefined;
  }
}

/**
 * Whether `userId` may manage the workspace's key and rules (an admin or an app manager), for the
 * Home's admin notices and whatever else is shown to them only.
 */
export async function isWorkspaceAdmin(
  admin: Pick<WorkspaceAdminDeps, 'workspaces'>,
  client: WebClient,
  request: { workspace: ServedWorkspace; userId: string },
  logger: Logger,
): Promise<boolean> {
  return (await workspaceSettingsRole(admin, client, request, logger)) !== undefined;
}

/**
 * `isWorkspaceAdmin` for a job that knows only the team: the workspace is taken as its key was
 * connected (through its org's install on Grid); without a key, as served by its own install.
 */
export async function isAdminOfTeam(
  admin: Pick<WorkspaceAdminDeps, 'workspaces'>,
  client: WebClient,
  { teamId, userId }: { teamId: string; userId: string },
  logger: Logger,
): Promise<boolean> {
  const workspace = (await admin.workspaces.getServiceKeyInfo(teamId).catch(() => null)) ?? { teamId };
  return isWorkspaceAdmin(admin, client, { workspace, userId }, logger);
}
