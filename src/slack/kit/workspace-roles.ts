import type { WebClient } from '@slack/web-api';
import * as z from 'zod';
import {
  type ActingUser,
  type Membership,
  membershipOf,
  needsSlackAccount,
  type SettingsAccess,
  type SlackRoles,
  settingsAccessOf,
} from '../../domain/workspace-admins.ts';
import type { Logger } from '../../platform/log.ts';
import { within } from '../../platform/within.ts';
import type { ServedWorkspace } from '../../store/workspaces.ts';
import type { WorkspaceAdminDeps } from './listener-deps.ts';

/** What a job (which knows only the team and the user) asks Slack of who acts: for budgets and pre-approvals. */
export interface WorkspaceRoles {
  /** A member of the workspace, never a guest from another organisation (src/domain/workspace-admins.ts). */
  membership(teamId: string, userId: string): Promise<Membership>;
  /** An admin or app manager of the workspace, and a member of it. */
  isWorkspaceAdmin(teamId: string, userId: string): Promise<boolean>;
}

/**
 * How long a request waits for `users.info`: a refusal must be acked within Slack's 3 s, and a
 * rate-limited `users.info` is retried by the client after Slack's `Retry-After`. Past it the roles are
 * unknown, and the user is told Slack did not answer in time.
 */
export const ROLES_DEADLINE_MS = 1_500;

const Flag = z.boolean().optional();

/** What `users.info` says of where a user belongs and of their roles (`@slack/web-api`'s `UsersInfoResponse`). */
const UserInfoSchema = z.object({
  user: z.object({
    team_id: z.string().optional(),
    is_stranger: Flag,
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

async function askSlackRoles(client: WebClient, userId: string): Promise<SlackRoles> {
  const { user } = UserInfoSchema.parse(await client.users.info({ user: userId }));
  const org = user.enterprise_user;
  return {
    teamId: user.team_id,
    isStranger: user.is_stranger === true,
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

/** The user as Slack reports them, or undefined when Slack does not answer within `ROLES_DEADLINE_MS`. */
async function slackRolesOf(
  client: WebClient,
  userId: string,
  logger: Logger,
): Promise<SlackRoles | undefined> {
  const asked = askSlackRoles(client, userId).catch((error: unknown) => {
    logger.warn('Slack did not say who a user is', { error });
    return undefined;
  });
  const roles = await within(ROLES_DEADLINE_MS, asked);
  if (!roles) logger.warn('Slack did not say who a user is in time', { deadlineMs: ROLES_DEADLINE_MS });
  return roles;
}

/**
 * Whether `user` is a member of the workspace (src/domain/workspace-admins.ts decides): asks Slack
 * only when the request does not settle it.
 */
export async function membershipIn(
  client: WebClient,
  workspace: ServedWorkspace,
  user: ActingUser,
  logger: Logger,
): Promise<Membership> {
  if (!needsSlackAccount(user, workspace)) return membershipOf(user, undefined, workspace);
  return membershipOf(user, await slackRolesOf(client, user.userId, logger), workspace);
}

/**
 * What `user` may do with the workspace's settings (src/domain/workspace-admins.ts decides): asks
 * Slack for their roles with the client serving the workspace, and reads the app managers its admins
 * named. Refused as unknown when either cannot be read in time.
 */
export async function workspaceSettingsAccess(
  admin: Pick<WorkspaceAdminDeps, 'workspaces'>,
  client: WebClient,
  { workspace, user }: { workspace: ServedWorkspace; user: ActingUser },
  logger: Logger,
): Promise<SettingsAccess> {
  try {
    const [roles, policy] = await Promise.all([
      slackRolesOf(client, user.userId, logger),
      admin.workspaces.getPolicy(workspace.teamId),
    ]);
    return settingsAccessOf(user, roles, {
      ...workspace,
      appManagerUserIds: policy?.appManagerUserIds ?? [],
    });
  } catch (error) {
    logger.warn('could not tell whether a user may manage the workspace settings', { error });
    return { refused: 'unknown' };
  }
}

/**
 * Whether `userId` may manage the workspace's key and rules (an admin or an app manager, and a member),
 * for the Home's admin notices and whatever else is shown to them only.
 */
export async function isWorkspaceAdmin(
  admin: Pick<WorkspaceAdminDeps, 'workspaces'>,
  client: WebClient,
  { workspace, userId }: { workspace: ServedWorkspace; userId: string },
  logger: Logger,
): Promise<boolean> {
  return 'role' in (await workspaceSettingsAccess(admin, client, { workspace, user: { userId } }, logger));
}

/** The workspace as a job that knows only the team takes it: as its key was connected (through its org's install on Grid); without a key, as served by its own install. */
async function workspaceOfTeam(admin: Pick<WorkspaceAdminDeps, 'workspaces'>, teamId: string) {
  return (await admin.workspaces.getServiceKeyInfo(teamId).catch(() => null)) ?? { teamId };
}

/** `isWorkspaceAdmin` for a job that knows only the team. */
export async function isAdminOfTeam(
  admin: Pick<WorkspaceAdminDeps, 'workspaces'>,
  client: WebClient,
  { teamId, userId }: { teamId: string; userId: string },
  logger: Logger,
): Promise<boolean> {
  return isWorkspaceAdmin(admin, client, { workspace: await workspaceOfTeam(admin, teamId), userId }, logger);
}

/** `membershipIn` for a job that knows only the team and the user (a slash command names no user team). */
export async function membershipInTeam(
  admin: Pick<WorkspaceAdminDeps, 'workspaces'>,
  client: WebClient,
  { teamId, userId }: { teamId: string; userId: string },
  logger: Logger,
): Promise<Membership> {
  return membershipIn(client, await workspaceOfTeam(admin, teamId), { userId }, logger);
}

/** `WorkspaceRoles` over the client serving the workspace. */
export function workspaceRolesOf(
  admin: Pick<WorkspaceAdminDeps, 'workspaces'>,
  client: WebClient,
  logger: Logger,
): WorkspaceRoles {
  return {
    membership: (teamId, userId) => membershipInTeam(admin, client, { teamId, userId }, logger),
    isWorkspaceAdmin: (teamId, userId) => isAdminOfTeam(admin, client, { teamId, userId }, logger),
  };
}
