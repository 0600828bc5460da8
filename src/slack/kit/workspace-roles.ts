import type { WebClient } from '@slack/web-api';
import * as z from 'zod';
import {
  type ActingUser,
  type AdminRole,
  adminRoleOf,
  type Membership,
  membershipOf,
  needsSlackAccount,
  type SettingsAccess,
  type SlackRoles,
  settingsAccessOf,
  type WorkspaceIdentity,
} from '../../domain/workspace-admins.ts';
import { type Standing, standingOf } from '../../domain/audience.ts';
import type { SpendPolicy } from '../../domain/approval.ts';
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
  /** Who the user is here, for what they may use (src/domain/audience.ts): one `users.info`. */
  standing(teamId: string, userId: string, policy: Pick<SpendPolicy, 'approvers'>): Promise<Standing>;
}

/**
 * How long a request waits for `users.info`: a refusal must be acked within Slack's 3 s, and a
 * rate-limited `users.info` is retried by the client after Slack's `Retry-After`. Past it the roles are
 * unknown, and the user is told Slack did not answer in time.
 */
export const ROLES_DEADLINE_MS = 1_500;

const Flag = z.boolean().optional();

/** A user as `users.info` and `users.list` show them: where they belong, and their roles (`@slack/web-api`'s `User`). */
const SlackUserSchema = z.object({
  id: z.string().optional(),
  team_id: z.string().optional(),
  deleted: Flag,
  is_bot: Flag,
  is_stranger: Flag,
  is_restricted: Flag,
  is_ultra_restricted: Flag,
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
});
type SlackUser = z.infer<typeof SlackUserSchema>;

function rolesOf(user: SlackUser): SlackRoles {
  const org = user.enterprise_user;
  return {
    teamId: user.team_id,
    isStranger: user.is_stranger === true,
    isAdmin: user.is_admin === true,
    isOwner: user.is_owner === true,
    isPrimaryOwner: user.is_primary_owner === true,
    isGuest: user.is_restricted === true || user.is_ultra_restricted === true,
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

async function askSlackRoles(client: WebClient, userId: string): Promise<SlackRoles> {
  const { user } = z.object({ user: SlackUserSchema }).parse(await client.users.info({ user: userId }));
  return rolesOf(user);
}

/** The workspace's admins and owners a refusal names (owners first), and whether there may be more. */
export interface WorkspaceAdminsFound {
  admins: { userId: string; role: AdminRole }[];
  /** More were found than are named, or Slack's list was not read to its end. */
  more: boolean;
}

/** How many admins a refusal names at most. */
export const ADMINS_NAMED = 3;
/** `users.list` pages read at most (200 users each): a refusal waits on them, within `ROLES_DEADLINE_MS`. */
const ADMIN_PAGES = 5;

const UsersPageSchema = z.object({
  members: z.array(SlackUserSchema).default([]),
  response_metadata: z.object({ next_cursor: z.string().optional() }).optional(),
});

async function listAdmins(client: WebClient, workspace: WorkspaceIdentity): Promise<WorkspaceAdminsFound> {
  const found: WorkspaceAdminsFound['admins'] = [];
  let cursor: string | undefined;
  for (let page = 0; page < ADMIN_PAGES && found.length <= ADMINS_NAMED; page += 1) {
    const answer = UsersPageSchema.parse(
      await client.users.list({ limit: 200, ...(cursor ? { cursor } : {}) }),
    );
    for (const user of answer.members) {
      const role =
        user.id && !user.deleted && !user.is_bot ? adminRoleOf(rolesOf(user), workspace) : undefined;
      if (user.id && role) found.push({ userId: user.id, role });
    }
    cursor = answer.response_metadata?.next_cursor || undefined;
    if (!cursor) break;
  }
  const owners = found.filter((admin) => admin.role === 'owner');
  const admins = [...owners, ...found.filter((admin) => admin.role !== 'owner')];
  return {
    admins: admins.slice(0, ADMINS_NAMED),
    more: admins.length > ADMINS_NAMED || cursor !== undefined,
  };
}

/**
 * The workspace's admins and owners as Slack lists them (`users.list`), for a refusal to name who can
 * do what was refused; undefined when Slack does not say within `ROLES_DEADLINE_MS`.
 */
export async function workspaceAdminsOf(
  client: WebClient,
  workspace: WorkspaceIdentity,
  logger: Logger,
): Promise<WorkspaceAdminsFound | undefined> {
  const asked = listAdmins(client, workspace).catch((error: unknown) => {
    logger.warn('Slack did not list the workspace’s admins', { error });
    return undefined;
  });
  const found = await within(ROLES_DEADLINE_MS, asked);
  if (!found)
    logger.warn('Slack did not list the workspace’s admins in time', { deadlineMs: ROLES_DEADLINE_MS });
  return found;
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

/** The user's roles as Slack says (one `users.info`) and the workspace with the app managers its admins named. */
async function whoActs(
  admin: Pick<WorkspaceAdminDeps, 'workspaces'>,
  client: WebClient,
  { workspace, user }: { workspace: ServedWorkspace; user: ActingUser },
  logger: Logger,
) {
  const [roles, policy] = await Promise.all([
    slackRolesOf(client, user.userId, logger),
    admin.workspaces.getPolicy(workspace.teamId),
  ]);
  return { roles, managed: { ...workspace, appManagerUserIds: policy?.appManagerUserIds ?? [] } };
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
    const { roles, managed } = await whoActs(admin, client, { workspace, user }, logger);
    return settingsAccessOf(user, roles, managed);
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

/**
 * Who `user` is in the workspace, for what they may use (src/domain/audience.ts decides): one
 * `users.info` and the app managers its admins named; `unknown` when Slack does not say in time.
 */
export async function standingIn(
  admin: Pick<WorkspaceAdminDeps, 'workspaces'>,
  client: WebClient,
  {
    workspace,
    user,
    policy,
  }: { workspace: ServedWorkspace; user: ActingUser; policy: Pick<SpendPolicy, 'approvers'> },
  logger: Logger,
): Promise<Standing> {
  try {
    const { roles, managed } = await whoActs(admin, client, { workspace, user }, logger);
    return standingOf(user, roles, managed, policy);
  } catch (error) {
    logger.warn('could not tell who a user is in the workspace', { error });
    return { kind: 'unknown' };
  }
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
    standing: async (teamId, userId, policy) =>
      standingIn(
        admin,
        client,
        { workspace: await workspaceOfTeam(admin, teamId), user: { userId }, policy },
        logger,
      ),
  };
}
