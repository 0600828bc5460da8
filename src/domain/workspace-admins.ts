/**
 * Who belongs to a workspace and who may manage its settings (its service key and spending rules):
 * the one rule, for the settings modal, the confirmations, the budgets and whatever else is shown to
 * admins only. Admin is a Slack role, never an install: whoever installed or reinstalled the app gains
 * nothing by it (where Slack lets members add an approved app, any member can be the installer).
 *
 * - Members: only they are ever admins, app managers or approvers. In a Slack Connect channel a user of
 *   another organisation acts too; their admin flags are about their own workspace, so they count for
 *   nothing here (they may still use the free commands).
 * - Admins: the workspace's admins and owners, as Slack says; and, for a workspace served by an
 *   Enterprise Grid org-wide install, that org's admins and owners who are members of the workspace.
 * - App managers: users an admin named in the settings. They may change everything in the settings
 *   but who the app managers are, so a manager cannot keep themselves in or name others.
 */

/** A user as Slack reports them (`users.info`): where they belong, and their roles. */
export interface SlackRoles {
  /** Their own workspace (`team_id`); for a guest from another organisation, that one. */
  teamId?: string | undefined;
  /** Slack's `is_stranger`: of another workspace, in no channel the bot shares with them. */
  isStranger?: boolean;
  isAdmin: boolean;
  isOwner: boolean;
  isPrimaryOwner: boolean;
  /** A guest of the workspace (Slack's `is_restricted` or `is_ultra_restricted`): never an admin or approver. */
  isGuest?: boolean;
  /** Their roles in their Enterprise Grid org, when they belong to one. */
  org?: {
    enterpriseId: string;
    isAdmin: boolean;
    isOwner: boolean;
    isPrimaryOwner: boolean;
    /** The org's workspaces they are a member of. */
    teamIds: readonly string[];
  };
}

/** A workspace, and the install that serves it. */
export interface WorkspaceIdentity {
  teamId: string;
  /** The Enterprise Grid org whose org-wide install serves it, when one does. */
  orgWideInstall?: { enterpriseId: string } | undefined;
}

/** The workspace whose settings are asked for. */
export interface ManagedWorkspace extends WorkspaceIdentity {
  /** The app managers its admins named. */
  appManagerUserIds: readonly string[];
}

/** Who acts: the user, and the team a request's payload names as theirs (`user.team_id`), when it does. */
export interface ActingUser {
  userId: string;
  payloadTeamId?: string | undefined;
}

/** `unknown`: the request does not say, and Slack did not answer in time. */
export type Membership = 'member' | 'outsider' | 'unknown';

/**
 * Whether the acting user is a member of the workspace. A payload naming the workspace as the user's
 * team settles it. Otherwise Slack's account of the user (`roles`) does: their team is the workspace,
 * or they are in it as a member of its Grid org, or an org-wide install of their org serves it. A
 * stranger never is, nor a Slack Connect guest (their team and org are their own).
 */
export function membershipOf(
  user: Pick<ActingUser, 'payloadTeamId'>,
  roles: SlackRoles | undefined,
  workspace: WorkspaceIdentity,
): Membership {
  if (user.payloadTeamId === workspace.teamId) return 'member';
  if (!roles) return 'unknown';
  if (roles.isStranger) return 'outsider';
  const servingOrg = workspace.orgWideInstall?.enterpriseId;
  const ofServingOrg = servingOrg !== undefined && roles.org?.enterpriseId === servingOrg;
  const inWorkspace = roles.teamId === workspace.teamId || roles.org?.teamIds.includes(workspace.teamId);
  return ofServingOrg || inWorkspace ? 'member' : 'outsider';
}

/** Whether deciding membership needs Slack's account of the user: the request alone does not settle it. */
export const needsSlackAccount = (user: Pick<ActingUser, 'payloadTeamId'>, workspace: WorkspaceIdentity) =>
  user.payloadTeamId !== workspace.teamId;

export type SettingsRole = 'admin' | 'appManager';

/** What a user may do with the settings, or why nothing: not a member, not an admin, or Slack did not say. */
export type SettingsAccess = { role: SettingsRole } | { refused: 'outsider' | 'not-admin' | 'unknown' };

function isOrgAdminOf(roles: SlackRoles, workspace: WorkspaceIdentity): boolean {
  const { org } = roles;
  const servingOrg = workspace.orgWideInstall?.enterpriseId;
  if (!org || !servingOrg || org.enterpriseId !== servingOrg) return false;
  return (org.isAdmin || org.isOwner || org.isPrimaryOwner) && org.teamIds.includes(workspace.teamId);
}

/**
 * A workspace admin or owner of this workspace, or an org admin of its Grid org. Slack's `is_admin` and
 * `is_owner` are about the user's own workspace (`team_id`): on Grid, a member of several workspaces
 * has one set of flags, so they count only when that workspace is this one (an admin of A is no admin
 * of B); and a guest is never one.
 */
const isAdminIn = (roles: SlackRoles, workspace: WorkspaceIdentity) =>
  !roles.isGuest &&
  ((roles.teamId === workspace.teamId && (roles.isAdmin || roles.isOwner || roles.isPrimaryOwner)) ||
    isOrgAdminOf(roles, workspace));

/** Why someone is an admin, as a refusal names them: a Slack owner or admin of the workspace. */
export type AdminRole = 'owner' | 'admin';

/**
 * The role that makes a user (as Slack lists them) an admin of the workspace, or undefined: only a
 * member of it ever is, so a Slack Connect guest's admin flags (their own organisation's) count for nothing.
 */
export function adminRoleOf(roles: SlackRoles, workspace: WorkspaceIdentity): AdminRole | undefined {
  if (membershipOf({}, roles, workspace) !== 'member' || !isAdminIn(roles, workspace)) return undefined;
  return roles.isOwner || roles.isPrimaryOwner || roles.org?.isOwner || roles.org?.isPrimaryOwner
    ? 'owner'
    : 'admin';
}

/** What `user` may do with the workspace's settings (`roles`: undefined when Slack did not answer). */
export function settingsAccessOf(
  user: ActingUser,
  roles: SlackRoles | undefined,
  workspace: ManagedWorkspace,
): SettingsAccess {
  const membership = membershipOf(user, roles, workspace);
  if (membership !== 'member') return { refused: membership };
  if (roles && isAdminIn(roles, workspace)) return { role: 'admin' };
  if (workspace.appManagerUserIds.includes(user.userId)) return { role: 'appManager' };
  return { refused: roles ? 'not-admin' : 'unknown' };
}

/** Only admins choose who the app managers are. */
export const mayChangeAppManagers = (role: SettingsRole): boolean => role === 'admin';
