import { describe, expect, it } from 'vitest';
import {
  type ManagedWorkspace,
  mayChangeAppManagers,
  membershipOf,
  type SettingsRole,
  type SlackRoles,
  settingsAccessOf,
} from '../../../src/domain/workspace-admins.ts';

const MEMBER: SlackRoles = { teamId: 'T0ONE', isAdmin: false, isOwner: false, isPrimaryOwner: false };
const ORG = { enterpriseId: 'E0ACME', isAdmin: false, isOwner: false, isPrimaryOwner: false, teamIds: [] };
const ORG_ADMIN: SlackRoles = { ...MEMBER, org: { ...ORG, isAdmin: true, teamIds: ['T0ONE'] } };
/** An admin of another organisation's workspace, as `users.info` shows them in a Slack Connect channel. */
const GUEST_ADMIN: SlackRoles = { ...MEMBER, teamId: 'T0OTHER', isAdmin: true };
const OWN_INSTALL: ManagedWorkspace = { teamId: 'T0ONE', appManagerUserIds: [] };
const ORG_INSTALL: ManagedWorkspace = { ...OWN_INSTALL, orgWideInstall: { enterpriseId: 'E0ACME' } };

/** The role, or undefined when refused (for the checks that do not care why). */
const roleOf = (
  userId: string,
  roles: SlackRoles | undefined,
  workspace: ManagedWorkspace,
  payloadTeamId?: string,
): SettingsRole | undefined => {
  const access = settingsAccessOf({ userId, payloadTeamId }, roles, workspace);
  return 'role' in access ? access.role : undefined;
};

describe('who may manage a workspace’s settings', () => {
  it('lets its admins and owners, as Slack says, and no plain member', () => {
    for (const role of ['isAdmin', 'isOwner', 'isPrimaryOwner'] as const)
      expect(roleOf('U1', { ...MEMBER, [role]: true }, OWN_INSTALL)).toBe('admin');
    expect(settingsAccessOf({ userId: 'U1' }, MEMBER, OWN_INSTALL)).toEqual({ refused: 'not-admin' });
    expect(settingsAccessOf({ userId: 'U1' }, undefined, OWN_INSTALL)).toEqual({ refused: 'unknown' });
  });

  it('lets the app managers the admins named, who may not change who they are', () => {
    const named = { ...OWN_INSTALL, appManagerUserIds: ['U1'] };

    expect(roleOf('U1', MEMBER, named)).toBe('appManager');
    // A click from the workspace says the user is a member, without Slack's account of them.
    expect(roleOf('U1', undefined, named, 'T0ONE')).toBe('appManager');
    expect(roleOf('U1', undefined, named)).toBeUndefined();
    expect(roleOf('U2', MEMBER, named)).toBeUndefined();
    expect(mayChangeAppManagers('appManager')).toBe(false);
    expect(mayChangeAppManagers('admin')).toBe(true);
  });

  it('lets an org admin manage a workspace of their org served by the org-wide install, if a member of it', () => {
    const org = ORG_ADMIN.org;
    if (!org) throw new Error('no org');

    expect(roleOf('U1', ORG_ADMIN, ORG_INSTALL)).toBe('admin');
    expect(roleOf('U1', { ...MEMBER, org: { ...org, isAdmin: false, isOwner: true } }, ORG_INSTALL)).toBe(
      'admin',
    );
    expect(roleOf('U1', ORG_ADMIN, OWN_INSTALL)).toBeUndefined();
    expect(
      roleOf('U1', { ...MEMBER, org: { ...org, enterpriseId: 'E0OTHER' } }, ORG_INSTALL),
    ).toBeUndefined();
    expect(roleOf('U1', { ...MEMBER, org: { ...org, teamIds: ['T0TWO'] } }, ORG_INSTALL)).toBeUndefined();
    expect(roleOf('U1', { ...MEMBER, org: { ...org, isAdmin: false } }, ORG_INSTALL)).toBeUndefined();
  });

  it('counts workspace admin flags only for the workspace they are about: on Grid, an admin of one is no admin of another', () => {
    // users.info's `is_admin` is about the user's own workspace (`team_id`), though the org-wide
    // install serves every workspace of the org they are a member of.
    const adminOfTwo: SlackRoles = { ...MEMBER, teamId: 'T0TWO', isAdmin: true, org: { ...ORG, teamIds: ['T0TWO', 'T0ONE'] } };

    expect(membershipOf({}, adminOfTwo, ORG_INSTALL)).toBe('member');
    expect(settingsAccessOf({ userId: 'U1' }, adminOfTwo, ORG_INSTALL)).toEqual({ refused: 'not-admin' });
    expect(roleOf('U1', { ...adminOfTwo, teamId: 'T0ONE' }, ORG_INSTALL)).toBe('admin');
  });

  it('never makes a workspace guest an admin', () => {
    expect(settingsAccessOf({ userId: 'U1' }, { ...MEMBER, isAdmin: true, isGuest: true }, OWN_INSTALL)).toEqual({
      refused: 'not-admin',
    });
  });

  it('never makes a user of another organisation an admin or app manager, whatever their own roles', () => {
    const named = { ...OWN_INSTALL, appManagerUserIds: ['U1'] };

    expect(settingsAccessOf({ userId: 'U1' }, GUEST_ADMIN, named)).toEqual({ refused: 'outsider' });
    expect(settingsAccessOf({ userId: 'U1', payloadTeamId: 'T0OTHER' }, GUEST_ADMIN, named)).toEqual({
      refused: 'outsider',
    });
    expect(settingsAccessOf({ userId: 'U1' }, { ...MEMBER, isAdmin: true, isStranger: true }, named)).toEqual(
      {
        refused: 'outsider',
      },
    );
  });
});

describe('who is a member of a workspace', () => {
  it('takes a payload’s word when it names the workspace; asks Slack otherwise', () => {
    expect(membershipOf({ payloadTeamId: 'T0ONE' }, undefined, OWN_INSTALL)).toBe('member');
    expect(membershipOf({ payloadTeamId: 'T0OTHER' }, undefined, OWN_INSTALL)).toBe('unknown');
    expect(membershipOf({}, undefined, OWN_INSTALL)).toBe('unknown');
    expect(membershipOf({ payloadTeamId: 'T0OTHER' }, GUEST_ADMIN, OWN_INSTALL)).toBe('outsider');
    expect(membershipOf({}, MEMBER, OWN_INSTALL)).toBe('member');
  });

  it('counts a Grid member of the workspace acting from another of the org’s workspaces', () => {
    const inBoth: SlackRoles = { ...MEMBER, teamId: 'T0TWO', org: { ...ORG, teamIds: ['T0TWO', 'T0ONE'] } };

    expect(membershipOf({ payloadTeamId: 'T0TWO' }, inBoth, OWN_INSTALL)).toBe('member');
  });

  it('counts the members of an org-wide install’s org, from any of its workspaces, and no one else', () => {
    const ofOrg: SlackRoles = { ...MEMBER, teamId: 'T0TWO', org: { ...ORG, teamIds: ['T0TWO'] } };

    expect(membershipOf({ payloadTeamId: 'T0TWO' }, ofOrg, ORG_INSTALL)).toBe('member');
    expect(membershipOf({ payloadTeamId: 'T0OTHER' }, GUEST_ADMIN, ORG_INSTALL)).toBe('outsider');
    expect(membershipOf({ payloadTeamId: 'T0TWO' }, ofOrg, OWN_INSTALL)).toBe('outsider');
    expect(membershipOf({}, { ...ofOrg, org: { ...ORG, enterpriseId: 'E0OTHER' } }, ORG_INSTALL)).toBe(
      'outsider',
    );
  });
});
