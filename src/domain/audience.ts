import type { SpendPolicy } from './approval.ts';
import { isApprover } from './approval.ts';
import {
  type ActingUser,
  type ManagedWorkspace,
  membershipOf,
  type SlackRoles,
  settingsAccessOf,
} from './workspace-admins.ts';

/*
 * Who may use what: each `/events` word, button and form declares its audience, and one check
 * (`mayUse`) holds a user's standing against it (src/slack/kit/permissions.ts runs it, for commands
 * in the worker's dispatcher and for every other button and form in one Bolt middleware).
 */

/**
 * Whom a command, button or form is for, from the widest to the narrowest:
 * - `anyone`: the service's public data (shows, fit, exhibitors, people previews): outside users too;
 * - `guests`: the workspace's guests and members, never an outside user (read the channel's plan and watch);
 * - `members`: the workspace's members, never a guest (spend credits, read the ledger, change a plan or a watch);
 * - `askers`: a member, and then the record decides: the person who asked, or an approver (confirm, cancel);
 * - `authors`: a member, and then the record decides: the person who wrote it, or an admin (delete an outcome);
 * - `approvers`: spend approvers and admins, members both (budgets);
 * - `admins`: the workspace's admins and owners and the app managers they named (the settings).
 */
export const AUDIENCES = ['anyone', 'guests', 'members', 'askers', 'authors', 'approvers', 'admins'] as const;
export type Audience = (typeof AUDIENCES)[number];

/** Anything that spends credits is for members at least, whatever its word declares for its free forms. */
export const SPENDING_AUDIENCE: Audience = 'members';

/**
 * Who a user is in a workspace, as far as the check needs: an outside user (of another organisation,
 * in a Slack Connect channel), a workspace guest (Slack's single- or multi-channel guest), a member;
 * `unknown` when Slack did not say in time. Approver and admin count only for members.
 */
export type Standing =
  | { kind: 'outsider' | 'guest' | 'unknown' }
  | { kind: 'member'; approver: boolean; admin: boolean };

/** A user's standing, from Slack's account of them (`roles`: undefined when Slack did not answer). */
export function standingOf(
  user: ActingUser,
  roles: SlackRoles | undefined,
  workspace: ManagedWorkspace,
  policy: Pick<SpendPolicy, 'approvers'>,
): Standing {
  if (!roles) return { kind: 'unknown' };
  const membership = membershipOf(user, roles, workspace);
  if (membership !== 'member') return { kind: membership };
  if (roles.isGuest) return { kind: 'guest' };
  return {
    kind: 'member',
    approver: isApprover(policy, user.userId),
    admin: 'role' in settingsAccessOf(user, roles, workspace),
  };
}

const RANK: Record<Standing['kind'], number> = { unknown: 0, outsider: 0, guest: 1, member: 2 };

/**
 * Whether a user of this standing may use what is declared for `audience`. For `askers` and `authors`
 * this is the gate only: the record's own rules then decide (src/domain/approval.ts for who asked,
 * src/domain/outcomes.ts for who logged an outcome).
 */
export function mayUse(audience: Audience, standing: Standing): boolean {
  switch (audience) {
    case 'anyone':
      return true;
    case 'guests':
      return RANK[standing.kind] >= RANK.guest;
    case 'members':
    case 'askers':
    case 'authors':
      return standing.kind === 'member';
    case 'approvers':
      return standing.kind === 'member' && (standing.approver || standing.admin);
    case 'admins':
      return standing.kind === 'member' && standing.admin;
  }
}

/** The narrower of two audiences (a word's declared one, and `SPENDING_AUDIENCE` when it spends). */
export const narrowest = (a: Audience, b: Audience): Audience =>
  AUDIENCES.indexOf(a) >= AUDIENCES.indexOf(b) ? a : b;
