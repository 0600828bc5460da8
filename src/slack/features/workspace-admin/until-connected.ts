import type {
  AllMiddlewareArgs,
  AnyMiddlewareArgs,
  App,
  Middleware,
  SlackEventMiddlewareArgs,
} from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import * as z from 'zod';
import type { Logger } from '../../../platform/log.ts';
import { WorkspaceNotConnectedError } from '../../../platform/errors.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { notConnectedModal } from '../../views/not-connected.ts';
import { connectHomeView, WORKSPACE_SETTINGS_CALLBACK } from './views.ts';
import type { ListenerDeps, WorkspaceAdminDeps } from '../../kit/listener-deps.ts';
import { pausedWorkNotice } from './paused-work-notice.ts';
import { servedWorkspace } from '../../kit/served-workspace.ts';
import { openModal } from '../../kit/interaction.ts';
import { needsServiceKey } from '../../commands/index.ts';
import type { Mrkdwn } from '../../views/mrkdwn.ts';

/**
 * Until a distributed workspace connects its Event Intelligence key (issue 15; every surface, issue 23),
 * each request that would need it is answered with how to connect instead of running: nothing is
 * handed to the worker, so nothing is asked of the service or charged. `help`, the settings button and
 * the settings modal go on (they are how a key gets connected).
 */
export function registerUntilConnected(app: App, deps: ListenerDeps): void {
  // A single workspace's key is the app's own (its environment fixes it): nothing to connect.
  const admin = deps.workspaceAdmin;
  if (admin && !admin.environment.fixes) app.use(untilConnected(admin, deps.logger));
}

/** The same words as the worker's refusal, so a user reads one answer wherever they hit it. */
export const notConnectedText = (teamId: string) => new WorkspaceNotConnectedError(teamId).userMessage;

type Gated = 'command' | 'home' | 'button' | 'shortcut' | 'submission' | 'unfurl' | 'workflow-step';

/** What a request is, when a workspace without a key must be told how to connect instead. */
export function gatedKind(args: AnyMiddlewareArgs): Gated | undefined {
  if ('command' in args) return needsServiceKey(args.command.text ?? '') ? 'command' : undefined;
  if ('event' in args) {
    const { event } = args;
    if (event.type === 'app_home_opened')
      return event.tab === undefined || event.tab === 'home' ? 'home' : undefined;
    if (event.type === 'link_shared') return 'unfurl';
    return event.type === 'function_executed' ? 'workflow-step' : undefined;
  }
  if ('action' in args && args.body.type === 'block_actions') {
    const action: unknown = args.action;
    const actionId = z.object({ action_id: z.string() }).safeParse(action).data?.action_id;
    return actionId === ACTION_IDS.openWorkspaceSettings ? undefined : 'button';
  }
  if ('shortcut' in args) return 'shortcut';
  if ('view' in args && args.body.type === 'view_submission')
    return args.view.callback_id === WORKSPACE_SETTINGS_CALLBACK ? undefined : 'submission';
  return undefined;
}

/** Answers a workspace without a service key on every surface; a connected one's requests go on. */
export function untilConnected(admin: WorkspaceAdminDeps, logger: Logger): Middleware<AnyMiddlewareArgs> {
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
    logger.info('request from a workspace without a service key answered', { team: teamId, kind });
    if ('event' in args && args.event.type === 'app_home_opened') {
      // Its admins also read why its scheduled work is paused.
      const viewer = { workspace: servedWorkspace(teamId, args.context), userId: args.event.user };
      const paused = await pausedWorkNotice(admin, args.client, viewer, logger);
      return publishConnectHome(
        args.client,
        args.event.user,
        notConnectedText(teamId),
        logger,
        undefined,
        paused,
      );
    }
    await answerNotConnected(args, notConnectedText(teamId), logger);
  };
}

/** The refusal where the request's user sees it: in the command's answer, a modal, the Home, the workflow. */
async function answerNotConnected(
  args: AnyMiddlewareArgs & Pick<AllMiddlewareArgs, 'client'>,
  text: string,
  logger: Logger,
): Promise<void> {
  if ('command' in args) return args.ack({ response_type: 'ephemeral', text });
  if ('shortcut' in args) {
    // Opened first: the trigger id lasts 3 s.
    await openModal(args.client, args.shortcut.trigger_id, notConnectedModal(text), logger);
    return args.ack();
  }
  if ('view' in args) return args.ack({ response_action: 'update', view: notConnectedModal(text) });
  if ('action' in args && args.body.type === 'block_actions') {
    await args.ack();
    if (args.body.response_url)
      await args.respond({ response_type: 'ephemeral', replace_original: false, text });
    else await publishConnectHome(args.client, args.body.user.id, text, logger);
    return;
  }
  if (!('event' in args)) return;
  if (args.event.type === 'app_home_opened')
    return publishConnectHome(args.client, args.event.user, text, logger);
  if (args.event.type === 'function_executed') {
    // Bolt hands a function_executed event its own ack and fail (its type does not narrow to them).
    const step = args as unknown as SlackEventMiddlewareArgs<'function_executed'>;
    // Said to the workflow at once: a step left open sits "in progress" until Slack gives up on it.
    await step.ack();
    await step
      .fail({ error: text })
      .catch((error: unknown) => logger.error('could not fail the workflow step', { error }));
  }
  // An unfurl is left as Slack shows it: a message's link is not the place for the bot's setup.
}

/** The Home of a workspace without a key (its connect button), with `notice` at the top. */
export async function publishConnectHome(
  client: WebClient,
  userId: string,
  text: string,
  logger: Logger,
  notice?: Mrkdwn,
  adminNotices: KnownBlock[] = [],
): Promise<void> {
  try {
    await client.views.publish({ user_id: userId, view: connectHomeView(text, notice, adminNotices) });
  } catch (error) {
    logger.warn('could not publish the Home of a workspace without a key', { error });
  }
}
