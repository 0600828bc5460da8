import type {
  AnyMiddlewareArgs,
  App,
  BlockAction,
  ButtonAction,
  Middleware,
  ViewSubmitAction,
} from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import * as z from 'zod';
import { createEisClient, EisSubscriptionRequiredError, EisUnauthorizedError } from '../../eis/index.ts';
import { ValidationError } from '../../errors.ts';
import type { Logger } from '../../log.ts';
import type { ServedWorkspace } from '../../store/workspaces.ts';
import { WorkspaceNotConnectedError } from '../../workspace-access.ts';
import { parseCommand } from '../command-parser.ts';
import { readWorkspaceSettingsForm, type WorkspaceSettingsSubmission } from '../modal-forms.ts';
import { ACTION_IDS } from '../views/action-ids.ts';
import {
  connectHomeView,
  SETTINGS_FIELDS,
  settingsLoadingModal,
  settingsRefusedModal,
  WORKSPACE_SETTINGS_CALLBACK,
  workspaceSettingsModal,
} from '../views/workspace-settings.ts';
import type { ListenerDeps, WorkspaceAdminDeps } from './deps.ts';
import { servedWorkspace } from './served-workspace.ts';
import { isWorkspaceAdmin } from '../workspace-admins.ts';
import { pausedWorkNotice } from '../paused-work-notice.ts';
import { openModal } from './shortcuts.ts';

/**
 * A distributed workspace's admin side (issue 15): until it connects its Event Intelligence key,
 * commands (but `help`), its Home and its buttons say how to connect instead of running; an admin
 * (the installer, or a Slack admin or owner) connects, replaces or removes the key and sets the
 * spending rules in a modal from the Home. A key is checked with one balance call before it is
 * stored (encrypted), and is never logged, echoed or shown again but for its last 4 characters.
 */
export function registerWorkspaceAdmin(app: App, deps: ListenerDeps): void {
  const admin = deps.workspaceAdmin;
  if (!admin) return;
  app.use(untilConnected(admin, deps.logger));
  registerSettingsModal(app, admin, deps);
}

/** The same words as the worker's refusal, so a user reads one answer wherever they hit it. */
const notConnectedText = (teamId: string) => new WorkspaceNotConnectedError(teamId).userMessage;

type Gated = 'command' | 'home' | 'button';

/** What a request is, when a workspace without a key must be told how to connect instead. */
function gatedKind(args: AnyMiddlewareArgs): Gated | undefined {
  if ('command' in args) {
    const parsed = parseCommand((args.command.text ?? '').slice(0, 5000));
    return parsed.ok && parsed.command.name === 'help' ? undefined : 'command';
  }
  if ('event' in args && args.event.type === 'app_home_opened')
    return args.event.tab === undefined || args.event.tab === 'home' ? 'home' : undefined;
  if ('action' in args && args.body.type === 'block_actions') {
    const action: unknown = args.action;
    const actionId = z.object({ action_id: z.string() }).safeParse(action).data?.action_id;
    return actionId === ACTION_IDS.openWorkspaceSettings ? undefined : 'button';
  }
  return undefined;
}

/** Answers commands, the Home and buttons of a workspace without a service key; the rest goes on. */
function untilConnected(admin: WorkspaceAdminDeps, logger: Logger): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const teamId = args.context.teamId;
    const kind = gatedKind(args);
    if (!teamId || !kind) return args.next();
    const connected = await admin.workspaces.getServiceKeyInfo(teamId).then(
      (info) => info !== null,
      (error: unknown) => {
        // Unknown: let the request run; the worker refuses it if the key is really missing.
        logger.warn('could not read whether the workspace is connected', { team: teamId, error });
        return true;
      },
    );
    if (connected) return args.next();
    const text = notConnectedText(teamId);
    logger.info('request from a workspace without a service key answered', { team: teamId, kind });
    if ('command' in args) return args.ack({ response_type: 'ephemeral', text });
    if ('event' in args && args.event.type === 'app_home_opened') {
      const viewer = { workspace: servedWorkspace(teamId, args.context), userId: args.event.user };
      const paused = await pausedWorkNotice(admin, args.client, viewer, logger);
      return publishConnectHome(args.client, args.event.user, text, logger, undefined, paused);
    }
    if ('action' in args && args.body.type === 'block_actions') {
      await args.ack();
      if (args.body.response_url)
        await args.respond({ response_type: 'ephemeral', replace_original: false, text });
      else await publishConnectHome(args.client, args.body.user.id, text, logger);
    }
  };
}

async function publishConnectHome(
  client: WebClient,
  userId: string,
  text: string,
  logger: Logger,
  notice?: string,
  adminNotices: KnownBlock[] = [],
): Promise<void> {
  try {
    await client.views.publish({ user_id: userId, view: connectHomeView(text, notice, adminNotices) });
  } catch (error) {
    logger.warn('could not publish the Home of a workspace without a key', { error });
  }
}

/** Why the service refused `apiKey`, or could not say; undefined when it answered a balance for it. */
async function keyProblem(eisBaseUrl: string, apiKey: string, logger: Logger): Promise<string | undefined> {
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

/** Stores the checked key (or removes it) and the rules; what to show on the key field if that failed. */
async function saveSettings(
  admin: WorkspaceAdminDeps,
  {
    workspace,
    userId,
    serviceKey,
    removeKey,
    policy,
  }: WorkspaceSettingsSubmission & { workspace: ServedWorkspace; userId: string },
  log: Logger,
): Promise<string | undefined> {
  const { teamId } = workspace;
  try {
    if (serviceKey) await admin.workspaces.putServiceKey({ ...workspace, serviceKey, connectedBy: userId });
  } catch (error) {
    // The store refuses a key too short to be one (its message never quotes it).
    if (error instanceof ValidationError) return 'This does not look like an Event Intelligence API key.';
    log.error('could not save the service key', { error });
    return 'The settings could not be saved just now. Please try again in a minute.';
  }
  try {
    if (removeKey) await admin.workspaces.removeServiceKey(teamId);
    await admin.workspaces.putPolicy(teamId, policy, userId);
    return undefined;
  } catch (error) {
    log.error('could not save the workspace settings', { error });
    return 'The settings could not be saved just now. Please try again in a minute.';
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
      const allowed = await isWorkspaceAdmin(admin, client, { workspace, userId: body.user.id }, logger);
      const view = allowed
        ? workspaceSettingsModal(
            await admin.workspaces.getServiceKeyInfo(teamId),
            await admin.workspaces.getPolicy(teamId),
          )
        : settingsRefusedModal();
      if (!allowed)
        logger.info('workspace settings refused to a non-admin', { team: teamId, user: body.user.id });
      await client.views.update({ view_id: viewId, view });
    },
  );

  app.view<ViewSubmitAction>(WORKSPACE_SETTINGS_CALLBACK, async ({ ack, body, view, client, context }) => {
    const teamId = context.teamId ?? body.team?.id ?? body.user.team_id;
    const userId = body.user.id;
    if (!teamId) return ack();
    const log = logger.child({ team: teamId, user: userId, modal: view.callback_id });
    const workspace = servedWorkspace(teamId, context);
    // Checked again: a modal is not a permission.
    if (!(await isWorkspaceAdmin(admin, client, { workspace, userId }, log)))
      return ack({ response_action: 'update', view: settingsRefusedModal() });
    const info = await admin.workspaces.getServiceKeyInfo(teamId);
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
    const saved = await saveSettings(admin, { workspace, userId, ...form.value }, log);
    if (saved) return keyError(saved);
    await ack();
    log.info('workspace settings saved', { keyConnected: Boolean(serviceKey), keyRemoved: removeKey });
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
      const notice = 'The key was removed: commands wait until a key is connected again.';
      await publishConnectHome(client, userId, notConnectedText(teamId), log, notice);
    }
  });
}
