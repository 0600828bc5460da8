import type { Confirmation } from './ports/index.ts';
import type { Membership } from './workspace-admins.ts';

/*
 * Who may decide a charge: the one place the approval rules live. Who counts as an approver is
 * resolved into the policy (users and user groups' members, from the environment or a workspace's
 * saved settings over it: src/roots/workspace-policy.ts); everything else asks here: confirming,
 * cancelling, who sees a pending confirmation, the approvers a card names, and the approvers' say over
 * digests.
 */

/** Who may decide what, and how much may be spent: the workspace's spending rules. */
export interface SpendPolicy {
  /** Slack user ids who may confirm anybody's request. */
  approvers: readonly string[];
  /** At or above this price (credits) the requester cannot confirm their own charge: an approver must. */
  approvalThreshold?: number;
  /** Credits the service account may spend per UTC day; no cap when absent. */
  dailyCap?: number;
}

/** Who clicked, from which workspace, and whether they are a member of it (src/domain/workspace-admins.ts). */
export interface Actor {
  userId: string;
  teamId: string;
  membership: Membership;
}

/** Why someone may not decide a confirmation, as facts; Slack words them. */
export type ApprovalRefusal =
  | { reason: 'other-workspace' }
  /** A guest from another organisation (never an approver, whatever list names them), or Slack did not say. */
  | { reason: 'not-a-member'; membership: 'outsider' | 'unknown'; doing: 'confirm' | 'cancel' }
  /** Separation of duties: `approvers` are those who may (never the requester); empty when none is set up. */
  | { reason: 'needs-approver'; threshold: number; approvers: readonly string[] }
  | { reason: 'requester-or-approver'; doing: 'confirm' | 'cancel'; requestedBy: string };

type Decided = Pick<Confirmation, 'teamId' | 'requestedBy' | 'price'>;

export const isApprover = (policy: Pick<SpendPolicy, 'approvers'>, userId: string): boolean =>
  policy.approvers.includes(userId);

/** Separation of duties: at or above the threshold, only an approver other than the requester. */
export const needsApprover = (price: { credits: number }, policy: SpendPolicy): boolean =>
  policy.approvalThreshold !== undefined && price.credits >= policy.approvalThreshold;

/** The approvers a card names: under separation of duties, those other than the requester; else none. */
export function approversToName(
  price: { credits: number },
  requestedBy: string,
  policy: SpendPolicy,
): readonly string[] | undefined {
  return needsApprover(price, policy) ? policy.approvers.filter((id) => id !== requestedBy) : undefined;
}

/** Who may confirm a pending charge: the requester (unless it needs an approver) and the approvers. */
export interface MayConfirm {
  /** Absent when the charge needs an approver other than the requester. */
  requestedBy?: string;
  /** The approvers other than the requester. */
  approvers: readonly string[];
}

/** Who may confirm, as the card names them before anyone clicks (the rules of `confirmRefusal`). */
export function whoMayConfirm(
  price: { credits: number },
  requestedBy: string,
  policy: SpendPolicy,
): MayConfirm {
  const onlyApprovers = approversToName(price, requestedBy, policy);
  if (onlyApprovers) return { approvers: onlyApprovers };
  return { requestedBy, approvers: policy.approvers.filter((id) => id !== requestedBy) };
}

const isRequesterOrApprover = (
  confirmation: Pick<Confirmation, 'requestedBy'>,
  userId: string,
  policy: SpendPolicy,
): boolean => confirmation.requestedBy === userId || isApprover(policy, userId);

/** Who sees a pending confirmation (on their Home): its requester and the approvers. */
export const maySee = isRequesterOrApprover;

/** Why `actor` may not confirm, or null when they may: only members of the workspace ever do. */
export function confirmRefusal(
  confirmation: Decided,
  actor: Actor,
  policy: SpendPolicy,
): ApprovalRefusal | null {
  if (confirmation.teamId !== actor.teamId) return { reason: 'other-workspace' };
  if (actor.membership !== 'member')
    return { reason: 'not-a-member', membership: actor.membership, doing: 'confirm' };
  const approvers = approversToName(confirmation.price, confirmation.requestedBy, policy);
  if (approvers) {
    if (approvers.includes(actor.userId)) return null;
    return { reason: 'needs-approver', threshold: policy.approvalThreshold ?? 0, approvers };
  }
  if (isRequesterOrApprover(confirmation, actor.userId, policy)) return null;
  return { reason: 'requester-or-approver', doing: 'confirm', requestedBy: confirmation.requestedBy };
}

/**
 * Why `actor` may not cancel, or null when they may: the requester (a guest may withdraw their own
 * request, which spends nothing) or an approver who is a member of the workspace.
 */
export function cancelRefusal(
  confirmation: Decided,
  actor: Actor,
  policy: SpendPolicy,
): ApprovalRefusal | null {
  if (confirmation.teamId !== actor.teamId) return { reason: 'other-workspace' };
  if (confirmation.requestedBy === actor.userId) return null;
  if (actor.membership !== 'member' && isApprover(policy, actor.userId))
    return { reason: 'not-a-member', membership: actor.membership, doing: 'cancel' };
  if (isRequesterOrApprover(confirmation, actor.userId, policy)) return null;
  return { reason: 'requester-or-approver', doing: 'cancel', requestedBy: confirmation.requestedBy };
}
