import type { App, BlockAction, ButtonAction, ViewSubmitAction } from '@slack/bolt';
import { EisSubscriptionRequiredError, EisUnauthorizedError } from '../../../eis/errors.ts';
import type { WebClient } from '@slack/web-api';
import {
  mayChangeAppManagers,
  type SettingsAccess,
  type SettingsRole,
} from '../../../domain/workspace-admins.ts';
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
  settingsFixedModal,
  settingsLoadingModal,
  settingsRefusedModal,
  WORKSPACE_SETTINGS_CALLBACK,
  workspaceSettingsModal,
} from './views.ts';
import type { EnvironmentRules, ListenerDeps, WorkspaceAdminDeps } from '../../kit/listener-deps.ts';
import { fixedRulesIn } from './rules-views.ts';
import { servedWorkspace } from '../../kit/served-workspace.ts';
import { workspaceAdminsOf, workspaceSettingsAccess } from '../../kit/workspace-roles.ts';
import { openModal } from '../../kit/interaction.ts';
import { notConnectedText, publishConnectHome } from './until-connected.ts';
import { mk } from '../../views/mrkdwn.ts';

/**
 * A distributed workspace's admin side (issue 15): until it connects its Event Intelligence key,
 * commands (but `help`), its Home and its buttons say how to connect instead of running; an admin
 * (a Slack workspace admin or owner, or an app manager they named: src/domain/workspace-admins.ts)
 * connects, replaces or removes the key and sets the spending rules in a modal from the Home. A key
 * is checked with one balance call before it is stored (encrypted), and is never logged, echoed or
 * shown again but for its last 4 characters. Saves are conditional: one made while someone else's
 * modal was open makes theirs fail with a plain answer instead of being silently replaced. A single
 * workspace has the same modal (issue 36) without the key, its environment's rules read-only. Anyone
 * refused is told who can (the admins Slack lists, the app managers).
 */
export function registerWorkspaceAdmin(app: App, deps: ListenerDeps): void {
  const admin = deps.workspaceAdmin;
  if (!admin) return;
  registerSettingsModal(app, admin, deps);
}

/** What the modal's ack may take in all (Slack waits 3 s), leaving room for the save and the trip back. */
const SUBMIT_BUDGET_MS = 2_400;

/**
 * Why the service refused `apiKey`, or could not say; undefined when it answered a balance for it.
 * One quick try, within what is left of the ack's time (`timeoutMs`).
 */
async function keyProblem(
  eisBaseUrl: string,
  apiKey: string,
  timeoutMs: number,
  logger: Logger,
): Promise<string | undefined> {
  // Loaded here, not at import: only an admin saving a key needs the service client in this function.
  const { createEisClient } = await import('../../../eis/index.ts');
  const eis = createEisClient({ baseUrl: eisBaseUrl, apiKey, maxRetries: 0, timeoutMs, logger });
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

/** The refusal; to a member who may not, it names who can (Slack's admins and owners, the app managers). */
async function refusedView(
  admin: WorkspaceAdminDeps,
  client: WebClient,
  workspace: ServedWorkspace,
  why: SettingsRefusal,
  logger: Logger,
) {
  if (why !== 'not-admin') return settingsRefusedModal(why);
  const [admins, policy] = await Promise.all([
    workspaceAdminsOf(client, workspace, logger),
    admin.workspaces.getPolicy(workspace.teamId).catch(() => null),
  ]);
  return settingsRefusedModal(why, { admins, appManagerUserIds: policy?.appManagerUserIds ?? [] });
}

type SettingsSubmissionArgs = Parameters<Parameters<App['view']>[1]>[0];

/** What a submission would change of what the environment sets (the modal never offers it): the variables. */
function fixedInSubmission(
  { serviceKey, removeKey, policy }: WorkspaceSettingsSubmission,
  environment: EnvironmentRules,
): string[] {
  const key = environment.keySetBy && (serviceKey || removeKey) ? [environment.keySetBy] : [];
  return [...key, ...fixedRulesIn(policy, environment)];
}

type SettingsRefusal = Extract<SettingsAccess, { refused: unknown }>['refused'];

/** A save from the settings modal: by an admin or app manager only, checked again (a modal is not a permission). */
async function submitSettings(
  admin: WorkspaceAdminDeps,
  deps: ListenerDeps,
  { ack, body, view, client, context }: SettingsSubmissionArgs,
): Promise<void> {
  const started = Date.now();
  const teamId = context.teamId ?? body.team?.id ?? body.user.team_id;
  const userId = body.user.id;
  if (!teamId) return ack();
  const log = deps.logger.child({ team: teamId, user: userId, modal: view.callback_id });
  const workspace = servedWorkspace(teamId, context);
  const user = { userId, payloadTeamId: body.user.team_id };
  const access = await workspaceSettingsAccess(admin, client, { workspace, user }, log);
  if ('refused' in access) {
    log.info('workspace settings refused to a user who may not manage them', { why: access.refused });
    // Not who to ask: listing them could take the rest of the 3 s the ack has (the Home's button names them).
    return ack({ response_action: 'update', view: settingsRefusedModal(access.refused) });
  }
  const { role } = access;
  const [info, stored] = await Promise.all([
    admin.workspaces.getServiceKeyInfo(teamId),
    admin.workspaces.getPolicy(teamId),
  ]);
  const appKey = admin.environment.keySetBy !== undefined;
  const form = readWorkspaceSettingsForm(view.state.values, { connected: appKey || info !== null });
  if (!form.ok) {
    log.info('workspace settings refused', { fields: Object.keys(form.errors) });
    return ack({ response_action: 'errors', errors: form.errors });
  }
  const fixed = fixedInSubmission(form.value, admin.environment);
  if (fixed.length > 0) {
    log.warn('workspace settings refused: they would change what the environment sets', { fixed });
    return ack({ response_action: 'update', view: settingsFixedModal(fixed) });
  }
  const { serviceKey, removeKey } = form.value;
  // Shown on the modal's first field: the key's, unless the key is the app's own (no field then).
  const top = view.blocks.find((block) => block.type === 'input')?.block_id ?? SETTINGS_FIELDS.key;
  const keyError = (message: string) => ack({ response_action: 'errors', errors: { [top]: message } });
  const left = Math.min(2_000, Math.max(300, SUBMIT_BUDGET_MS - (Date.now() - started)));
  const problem = serviceKey ? await keyProblem(admin.eisBaseUrl, serviceKey, left, log) : undefined;
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
  if (appKey || serviceKey || (info && !removeKey)) {
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
      const user = { userId: body.user.id, payloadTeamId: body.user.team_id };
      const access = await workspaceSettingsAccess(admin, client, { workspace, user }, logger);
      const view =
        'role' in access
          ? workspaceSettingsModal(
              await admin.workspaces.getServiceKeyInfo(teamId),
              await admin.workspaces.getPolicy(teamId),
              access.role,
              admin.environment,
            )
          : await refusedView(admin, client, workspace, access.refused, logger);
      if ('refused' in access)
        logger.info('workspace settings refused to a user who may not manage them', {
          team: teamId,
          user: body.user.id,
          why: access.refused,
        });
      await client.views.update({ view_id: viewId, view });
    },
  );

  app.view<ViewSubmitAction>(WORKSPACE_SETTINGS_CALLBACK, (args) => submitSettings(admin, deps, args));
}
