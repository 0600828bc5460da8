/**
 * Who may manage a workspace's settings (its service key and spending rules): the one rule, for the
 * settings modal and whatever else is shown to admins only. Admin is a Slack role, never an install:
 * whoever installed or reinstalled the app gains nothing by it (where Slack lets members add an
 * approved app, any member can be the installer).
 *
 * - Admins: the workspace's admins and owners, as Slack says; and, for a workspace served by an
 *   Enterprise Grid org-wide install, that org's admins and owners who are members of the workspace.
 * - App managers: users an admin named in the settings. They may change everything in the settings
 *   but who the app managers are, so a manager cannot keep themselves in or name others.
 */

/** A user's roles as Slack reports them (`users.info`). */
export interface SlackRoles {
  isAdmin: boolean;
  isOwner: boolean;
  isPrimaryOwner: boolean;
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

/** The workspace whose settings are asked for. */
export interface ManagedWorkspace {
  teamId: string;
  /** The Enterprise Grid org whose org-wide install serves it, when one does. */
  orgWideInstall?: { enterpriseId: string };
  /** The app managers its admins named. */
  appManagerUserIds: readonly string[];
}

export type SettingsRole = 'admin' | 'appManager';

function isOrgAdminOf(roles: SlackRoles, workspace: ManagedWorkspace): boolean {
  const { org } = roles;
  const servingOrg = workspace.orgWideInstall?.enterpriseId;
  if (!org || !servingOrg || org.enterpriseId !== servingOrg) return false;
  return (org.isAdmin || org.isOwner || org.isPrimaryOwner) && org.teamIds.includes(workspace.teamId);
}

/** What `userId` may do with the workspace's settings; undefined: nothing (roles unknown included). */
export function settingsRoleOf(
  userId: string,
  roles: SlackRoles | undefined,
  workspace: ManagedWorkspace,
): SettingsRole | undefined {
  if (roles && (roles.isAdmin || roles.isOwner || roles.isPrimaryOwner || isOrgAdminOf(roles, workspace)))
    return 'admin';
  return workspace.appManagerUserIds.includes(userId) ? 'appManager' : undefined;
}

/** Only admins choose who the app managers are. */
export const mayChangeAppManagers = (role: SettingsRole): boolean => role === 'admin';
