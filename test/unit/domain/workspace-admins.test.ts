import { describe, expect, it } from 'vitest';
import {
  type ManagedWorkspace,
  mayChangeAppManagers,
  type SlackRoles,
  settingsRoleOf,
} from '../../../src/domain/workspace-admins.ts';

const MEMBER: SlackRoles = { isAdmin: false, isOwner: false, isPrimaryOwner: false };
const ORG_ADMIN: SlackRoles = {
  ...MEMBER,
  org: { enterpriseId: 'E0ACME', isAdmin: true, isOwner: false, isPrimaryOwner: false, teamIds: ['T0ONE'] },
};
const OWN_INSTALL: ManagedWorkspace = { teamId: 'T0ONE', appManagerUserIds: [] };
const ORG_INSTALL: ManagedWorkspace = { ...OWN_INSTALL, orgWideInstall: { enterpriseId: 'E0ACME' } };

describe('who may manage a workspace’s settings', () => {
  it('lets its admins and owners, as Slack says, and no plain member', () => {
    for (const role of ['isAdmin', 'isOwner', 'isPrimaryOwner'] as const)
      expect(settingsRoleOf('U1', { ...MEMBER, [role]: true }, OWN_INSTALL)).toBe('admin');
    expect(settingsRoleOf('U1', MEMBER, OWN_INSTALL)).toBeUndefined();
    expect(settingsRoleOf('U1', undefined, OWN_INSTALL)).toBeUndefined();
  });

  it('lets the app managers the admins named, who may not change who they are', () => {
    const named = { ...OWN_INSTALL, appManagerUserIds: ['U1'] };

    expect(settingsRoleOf('U1', MEMBER, named)).toBe('appManager');
    expect(settingsRoleOf('U1', undefined, named)).toBe('appManager');
    expect(settingsRoleOf('U2', MEMBER, named)).toBeUndefined();
    expect(mayChangeAppManagers('appManager')).toBe(false);
    expect(mayChangeAppManagers('admin')).toBe(true);
  });

  it('lets an org admin manage a workspace of their org served by the org-wide install, if a member of it', () => {
    const org = ORG_ADMIN.org;
    if (!org) throw new Error('no org');

    expect(settingsRoleOf('U1', ORG_ADMIN, ORG_INSTALL)).toBe('admin');
    expect(
      settingsRoleOf('U1', { ...MEMBER, org: { ...org, isAdmin: false, isOwner: true } }, ORG_INSTALL),
    ).toBe('admin');
    expect(settingsRoleOf('U1', ORG_ADMIN, OWN_INSTALL)).toBeUndefined();
    expect(settingsRoleOf('U1', { ...MEMBER, org: { ...org, enterpriseId: 'E0OTHER' } }, ORG_INSTALL)).toBe(
      undefined,
    );
    expect(
      settingsRoleOf('U1', { ...MEMBER, org: { ...org, teamIds: ['T0TWO'] } }, ORG_INSTALL),
    ).toBeUndefined();
    expect(settingsRoleOf('U1', { ...MEMBER, org: { ...org, isAdmin: false } }, ORG_INSTALL)).toBeUndefined();
  });
});
