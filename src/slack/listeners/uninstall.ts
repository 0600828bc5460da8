import type { App, Context } from '@slack/bolt';
import type { ListenerDeps } from '../kit/listener-deps.ts';
import { servedWorkspace } from '../kit/served-workspace.ts';

/**
 * A workspace that removes the app (`app_uninstalled`), or whose bot token is revoked
 * (`tokens_revoked` naming bot tokens), is forgotten: its installation and service key are deleted, its
 * digests disabled and its open unlock tasks and follow-ups stopped (src/domain/forget-workspace.ts); the ledger
 * is kept for audit until its TTL. An org-wide (Enterprise Grid) install is removed by its enterprise; its
 * other workspaces' data is forgotten when the scheduled jobs next meet it. Bolt delivers these two events
 * without authorizing them (the token is already gone), and only when the app is distributed is there
 * anything per workspace to remove.
 */
export function registerUninstall(app: App, deps: ListenerDeps): void {
  const { removeWorkspace } = deps;
  if (!removeWorkspace) return;
  const removed = ({ body, context }: { body: { team_id: string }; context: Context }) =>
    servedWorkspace(context.teamId ?? body.team_id, context);
  app.event('app_uninstalled', async (args) => {
    await removeWorkspace(removed(args));
  });
  app.event('tokens_revoked', async (args) => {
    if ((args.event.tokens.bot ?? []).length === 0) return;
    await removeWorkspace(removed(args));
  });
}
