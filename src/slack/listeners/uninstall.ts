import type { App } from '@slack/bolt';
import type { ListenerDeps } from './deps.ts';

/**
 * A workspace that removes the app (`app_uninstalled`), or whose bot token is revoked
 * (`tokens_revoked` naming bot tokens), is forgotten: its installation and service key are deleted and
 * its digests stopped; its unlock tasks end at their next poll (no token to post with); the ledger is
 * kept for audit until its TTL. Bolt delivers these two events without authorizing them (the token is
 * already gone), and only when the app is distributed is there anything per workspace to remove.
 */
export function registerUninstall(app: App, deps: ListenerDeps): void {
  const { removeWorkspace } = deps;
  if (!removeWorkspace) return;
  app.event('app_uninstalled', async ({ body, context }) => {
    await removeWorkspace({ teamId: context.teamId ?? body.team_id, enterpriseId: context.enterpriseId });
  });
  app.event('tokens_revoked', async ({ event, body, context }) => {
    if ((event.tokens.bot ?? []).length === 0) return;
    await removeWorkspace({ teamId: context.teamId ?? body.team_id, enterpriseId: context.enterpriseId });
  });
}
