import type { Context } from '@slack/bolt';
import type { ServedWorkspace } from '../../store/workspaces.ts';

/**
 * The workspace a request comes from, and the install that serves it: an Enterprise Grid org-wide one
 * (by its enterprise) when the request says so, else the workspace's own.
 */
export function servedWorkspace(teamId: string, context: Context): ServedWorkspace {
  return context.isEnterpriseInstall && context.enterpriseId
    ? { teamId, orgWideInstall: { enterpriseId: context.enterpriseId } }
    : { teamId };
}
