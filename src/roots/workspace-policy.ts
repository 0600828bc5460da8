/**
 * A workspace's spending rules (issue 15): its stored policy over the environment's defaults, in one
 * place. Each member the workspace set wins; an absent one keeps the default; `null` clears it.
 * Approvers: when the workspace names users or a user group, those replace the default approvers;
 * the group's members are passed in resolved (Slack `usergroups.users.list`), as this does no I/O.
 */
import type { SpendPolicy } from '../domain/confirmations.ts';
import type { WorkspacePolicyInput } from '../store/workspaces.ts';
import type { Env } from '../platform/config/env.ts';

export function spendPolicyForWorkspace(
  defaults: SpendPolicy,
  policy: WorkspacePolicyInput | null,
  approverGroupMembers: readonly string[] = [],
): SpendPolicy {
  if (!policy) return defaults;
  const ownApprovers = policy.approverUserIds !== undefined || policy.approverUserGroupId !== undefined;
  const approvalThreshold = pick(policy.approvalThreshold, defaults.approvalThreshold);
  const dailyCap = pick(policy.dailyCap, defaults.dailyCap);
  return {
    approvers: ownApprovers
      ? [
          ...new Set([
            ...(policy.approverUserIds ?? []),
            ...(policy.approverUserGroupId ? approverGroupMembers : []),
          ]),
        ]
      : defaults.approvers,
    ...(approvalThreshold !== undefined ? { approvalThreshold } : {}),
    ...(dailyCap !== undefined ? { dailyCap } : {}),
  };
}

/** The workspace's value, else the default; `null` (cleared by an admin) means none. */
function pick(own: number | null | undefined, fallback: number | undefined): number | undefined {
  if (own === null) return undefined;
  return own ?? fallback;
}

/** The workspace's spending rules, as configured. */
export function spendPolicyOf(env: Env): SpendPolicy {
  return {
    approvers: env.SPEND_APPROVERS,
    ...(env.APPROVAL_THRESHOLD !== undefined ? { approvalThreshold: env.APPROVAL_THRESHOLD } : {}),
    ...(env.DAILY_CREDIT_CAP !== undefined ? { dailyCap: env.DAILY_CREDIT_CAP } : {}),
  };
}
