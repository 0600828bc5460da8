import type { WorkspaceRoles } from '../../src/slack/kit/workspace-roles.ts';

/**
 * A worker's `workspaceRoles` where everyone is a plain member of the workspace (approver as the
 * policy says, admin of nothing): for harnesses that drive the worker without Slack's `users.info`.
 */
export const everyoneAMember: WorkspaceRoles = {
  membership: () => Promise.resolve('member'),
  isWorkspaceAdmin: () => Promise.resolve(false),
  standing: (_teamId, userId, policy) =>
    Promise.resolve({ kind: 'member', approver: policy.approvers.includes(userId), admin: false }),
};
