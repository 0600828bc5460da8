import type { App, BlockAction, ButtonAction, ViewSubmitAction } from '@slack/bolt';
import { EisSubscriptionRequiredError, EisUnauthorizedError } from '../../../eis/errors.ts';
import { mayChangeAppManagers, type SettingsRole } from '../../../domain/workspace-admins.ts';
import { ConflictError, ValidationError } from '../../../platform/errors.ts';
import type { Logger } from '../../../platform/log.ts';
import type { ServedWorkspace, WorkspacePolicy, WorkspacePolicyInput } from '../../../store/workspaces.ts';
import {
  readSettingsMetadata,
  readWorkspaceSettingsForm,
  type WorkspaceSettingsSubmission,
} from './forms.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import {
  SETTINGS_CONFLICT,
  SETTINGS_FIELDS,
  settingsLoadingModal,
  settingsRefusedModal,
  WORKSPACE_SETTINGS_CALLBACK,
  workspaceSettingsModal,
} from './views.ts';
import type { ListenerDeps, WorkspaceAdminDeps } from '../../listeners/deps.ts';
import { servedWorkspace } from '../../listeners/served-workspace.ts';
import { workspaceSettingsRole } from './workspace-admins.ts';
import { openModal } from '../../listeners/interaction.ts';
import { notConnectedText, publishConnectHome } from '../../listeners/until-connected.ts';
import { mk } from '../../views/mrkdwn.ts';

/**
 * A distributed workspace's admin side (issue 15): until it connects its Event Intelligence key,
 * commands (but `help`), its Home and its buttons say how to connect instead of running; an admin
 * (a Slack workspace admin or owner, or an app manager they named: src/domain/workspace-admins.ts)
 * connects, replaces or removes the key and sets the spending rules in a modal from the Home. A key
 * is checked with one balance call before it is stored (encrypted), and is never logged, echoed or
 * shown again but for its last 4 characters. Saves are conditional: one made while someone else's
 * modal was open makes theirs fail with a plain answer instead of being silently replaced.
 */
export function registerWorkspaceAdmin(app: App, deps: ListenerDeps): void {
  const admin = deps.workspaceAdmin;
  if (!admin) return;
  registerSettingsModal(app, admin, deps);
}

/** Why the service refused `apiKey`, or could not say; undefined when it answered a balance for it. */
async function keyProblem(eisBaseUrl: string, apiKey: string, logger: Logger): Promise<string | undefined> {
  // Loaded here, not at import: only an admin saving a key needs the service client in this function.
  const { createEisClient } = await import('../../../eis/index.ts');
  // One quick try: the answer must be in the modal's ack, which Slack waits 3 s for.
  const eis = createEisClient({ baseUrl: eisBaseUrl, apiKey, maxRetries: 0, timeoutMs: 2_000, logger });
  try {
    await eis.credits.balance();
    return undefined;
  } catch (error) {
    if (error instanceof EisUnauthorizedError || error instanceof EisSubscriptionRequiredError)
      return 'The service refused this key. Check it and paste it again.';
    logger.warn('could not check a service key with the service', { error });
    return 'The service could not be reached to check this key. Please try again in a minute.';
  } finally {
    await eis.close();
  }
}

/** A manager's save keeps the app managers as they are: only admins choose them. */
function policyToSave(
  submitted: WorkspacePolicyInput,
  role: SettingsRole,
  stored: WorkspacePolicy | null,
): WorkspacePolicyInput {
  if (mayChangeAppManagers(role)) return submitted;
  const { appManagerUserIds: _notTheirs, ...rules } = submitted;
  const kept = stored?.appManagerUserIds;
  return { ...rules, ...(kept ? { appManagerUserIds: kept } : {}) };
}

/**
 * Stores the checked key (or removes it) and the rules at once, unless someone else saved since the
 * modal was opened; what to show on the key field if nothing was stored.
 */
async function saveSettings(
  admin: WorkspaceAdminDeps,
  {
    workspace,
    userId,
    serviceKey,
    removeKey,
    policy,
    seenRevision,
  }: WorkspaceSettingsSubmission & {
    workspace: ServedWorkspace;
    userId: string;
    seenRevision?: string | undefined;
  },
  log: Logger,
): Promise<string | undefined> {
  try {
    await admin.workspaces.saveSettings({
      ...workspace,
      policy,
      updatedBy: userId,
      seenRevision,
      ...(serviceKey ? { serviceKey } : {}),
      removeKey,
    });
    return undefined;
  } catch (error) {
    if (error instanceof ConflictError) {
      log.info('workspace settings not saved: someone else saved them since the modal was opened');
      return SETTINGS_CONFLICT;
    }
    // The store refuses a key too short to be one (its message never quotes it).
    if (error instanceof ValidationError && serviceKey)
      return 'This does not look like an Event Intelligence API key.';
    log.error('could not save the workspace settings', { error });
    return 'The settings could not be saved just now. Please try again in a minute.';
  }
}

type SettingsSubmissionArgs = Parameters<Parameters<App['view']>[1]>[0];

/** A save from the settings modal: by an admin or app manager only, checked again (a modal is not a permission). */
async function submitSettings(
  admin: WorkspaceAdminDeps,
  deps: ListenerDeps,
  { ack, body, view, client, context }: SettingsSubmissionArgs,
): Promise<void> {
  const teamId = context.teamId ?? body.team?.id ?? body.user.team_id;
  const userId = body.user.id;
  if (!teamId) return ack();
  const log = deps.logger.child({ team: teamId, user: userId, modal: view.callback_id });
  const workspace = servedWorkspace(teamId, context);
  const role = await workspaceSettingsRole(admin, client, { workspace, userId }, log);
  if (!role) {
    log.info('workspace settings refused to a user who may not manage them');
    return ack({ response_action: 'update', view: settingsRefusedModal() });
  }
  const [info, stored] = await Promise.all([
    admin.workspaces.getServiceKeyInfo(teamId),
    admin.workspaces.getPolicy(teamId),
  ]);
  const form = readWorkspaceSettingsForm(view.state.values, { connected: info !== null });
  if (!form.ok) {
    log.info('workspace settings refused', { fields: Object.keys(form.errors) });
    return ack({ response_action: 'errors', errors: form.errors });
  }
  const { serviceKey, removeKey } = form.value;
  const keyError = (message: string) =>
    ack({ response_action: 'errors', errors: { [SETTINGS_FIELDS.key]: message } });
  const problem = serviceKey ? await keyProblem(admin.eisBaseUrl, serviceKey, log) : undefined;
  if (problem) {
    log.info('a service key was not connected', { problem });
    return keyError(problem);
  }
  const policy = policyToSave(form.value.policy, role, stored);
  const { revision: seenRevision } = readSettingsMetadata(view.private_metadata);
  const saved = await saveSettings(admin, { workspace, userId, ...form.value, policy, seenRevision }, log);
  if (saved) return keyError(saved);
  await ack();
  log.info('workspace settings saved', { keyConnected: Boolean(serviceKey), keyRemoved: removeKey, role });
  if (serviceKey || (info && !removeKey)) {
    const notice = serviceKey
      ? 'Event Intelligence is connected for this workspace.'
      : 'The workspace settings are saved.';
    await deps
      .dispatch({
        kind: 'home',
        id: `home:${view.id}:${view.hash}`,
        notice,
        context: { teamId, channelId: '', userId },
      })
      .catch((error: unknown) => log.warn('could not republish the Home after the settings', { error }));
  } else {
    const notice = mk`The key was removed: commands wait until a key is connected again.`;
    await publishConnectHome(client, userId, notConnectedText(teamId), log, notice);
  }
}

function registerSettingsModal(app: App, admin: WorkspaceAdminDeps, deps: ListenerDeps): void {
  const { logger } = deps;

  // Opened first with a placeholder (the trigger id lasts 3 s), then filled in or refused.
  app.action<BlockAction<ButtonAction>>(
    ACTION_IDS.openWorkspaceSettings,
    async ({ ack, body, client, context }) => {
      const viewId = await openModal(client, body.trigger_id, settingsLoadingModal(), logger);
      await ack();
      const teamId = context.teamId ?? body.team?.id;
      if (!viewId || !teamId) return;
      const workspace = servedWorkspace(teamId, context);
      const role = await workspaceSettingsRole(admin, client, { workspace, userId: body.user.id }, logger);
      const view = role
        ? workspaceSettingsModal(
            await admin.workspaces.getServiceKeyInfo(teamId),
            await admin.workspaces.getPolicy(teamId),
            role,
          )
        : settingsRefusedModal();
      if (!role)
        logger.info('workspace settings refused to a user who may not manage them', {
          team: teamId,
          user: body.user.id,
        });
      await client.views.update({ view_id: viewId, view });
    },
  );

  app.view<ViewSubmitAction>(WORKSPACE_SETTINGS_CALLBACK, (args) => submitSettings(admin, deps, args));
}
