import { type AnyMiddlewareArgs, App, type Authorize, AwsLambdaReceiver, type Middleware } from '@slack/bolt';
import * as z from 'zod';
import type { Logger } from '../platform/log.ts';
import type { SlackHttpHandler } from './http-boundary.ts';
import { webClientOptions } from './web-client.ts';
import { boltLogger } from './bolt-logger.ts';
import type { ListenerDeps } from './kit/listener-deps.ts';
import { permissionsGate } from './kit/permissions.ts';
import { registerListeners } from './listeners/index.ts';

export interface SlackAppOptions {
  signingSecret: string;
  /** One workspace (the default), or any workspace that installed the app. */
  workspaces: SingleWorkspace | Distributed;
  slackApiUrl?: string;
  logger: Logger;
  deps: ListenerDeps;
}

export interface SingleWorkspace {
  botToken: string;
  /** From one `auth.test` per cold start, so Bolt never calls it per request. */
  botId: string;
  botUserId: string;
  /** The one workspace this app serves; requests from any other are refused. */
  installedTeamId: string;
}

export interface Distributed {
  /** Each request's installation, by team (and enterprise) id; a workspace without one is refused. */
  authorize: Authorize<boolean>;
}

export type { SlackHttpEvent, SlackHttpHandler } from './http-boundary.ts';

export const OTHER_WORKSPACE_TEXT = 'This app is installed for another workspace; nothing was done.';
export const NOT_INSTALLED_TEXT =
  'This workspace has not installed the app, or has removed it: nothing was done. An admin can install it again.';

/**
 * Refuses, before a listener runs (`next` is never called), requests from a workspace the app does not
 * serve: in a single-workspace app any but the installed one; in a distributed one a workspace without
 * an installation (authorize found none, so the context has no token). Bolt's `context.teamId` is the
 * command's `team_id`, or the `team.id` (else `user.team_id`) of an action, view or shortcut.
 */
export function onlyServedWorkspaces(
  isServed: (args: Parameters<Middleware<AnyMiddlewareArgs>>[0]) => boolean,
  text: string,
  logger: Logger,
): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    if (isServed(args)) return args.next();
    logger.warn('refused a request from another workspace', {
      team: args.context.teamId ?? 'unknown',
    });
    if ('command' in args) return args.ack({ response_type: 'ephemeral', text });
    await args.ack?.();
    // Slack ignores the body of a button's ack: the clicker is told through the response_url.
    if ('action' in args && args.respond)
      await args.respond({ response_type: 'ephemeral', replace_original: false, text });
  };
}

const isUninstall = (args: AnyMiddlewareArgs) =>
  'event' in args && (args.event.type === 'app_uninstalled' || args.event.type === 'tokens_revoked');

/** A single-workspace app serves its installed workspace only. */
export const onlyInstalledTeam = (installedTeamId: string, logger: Logger) =>
  onlyServedWorkspaces(({ context }) => context.teamId === installedTeamId, OTHER_WORKSPACE_TEXT, logger);

const EventDeliverySchema = z.object({ type: z.literal('event_callback'), event_id: z.string().min(1) });

/**
 * Runs each Events API delivery once: the first to record its `event_id` in the delivery log (a
 * conditional put, kept a day) goes on to the listeners; a retry of it (`X-Slack-Retry-Num`, sent when
 * our answer was slow or lost) or any other copy stops here. Bolt has already acked an event by now
 * (except `function_executed`, acked here), so Slack gets its 200 either way. Commands and clicks are
 * not events: they pass untouched (commands are deduplicated on their `trigger_id`).
 */
export function oncePerEvent(
  deliveries: ListenerDeps['deliveries'],
  logger: Logger,
): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const delivery = EventDeliverySchema.safeParse(args.body);
    if (!delivery.success) return args.next();
    if (await deliveries.first(`event:${delivery.data.event_id}`)) return args.next();
    logger.info('event delivered again: ignored', { eventId: delivery.data.event_id });
    await args.ack?.();
  };
}

/**
 * The Bolt app behind `handlers/slack.ts`, for requests that passed `slackHttpBoundary` (which loads it
 * on the first request it does not answer itself): its middleware and every room's listeners.
 */
export function createBoltApp(options: SlackAppOptions): { app: App; bolt: SlackHttpHandler } {
  const logger = boltLogger(options.logger);
  const receiver = new AwsLambdaReceiver({
    signingSecret: options.signingSecret,
    logger,
    invalidRequestSignatureHandler: ({ ts }) =>
      options.logger.warn('rejected a request with an invalid or stale signature', { requestTimestamp: ts }),
  });
  const { workspaces } = options;
  const app = new App({
    ...('authorize' in workspaces
      ? { authorize: workspaces.authorize }
      : { token: workspaces.botToken, botId: workspaces.botId, botUserId: workspaces.botUserId }),
    receiver,
    logger,
    convoStore: false,
    ignoreSelf: false,
    clientOptions: webClientOptions(options.slackApiUrl),
  });
  app.use(
    'authorize' in workspaces
      ? onlyServedWorkspaces(
          // Bolt delivers an uninstall unauthorized (the token is already gone): it is let through.
          (args) => Boolean(args.context.botToken) || isUninstall(args),
          NOT_INSTALLED_TEXT,
          options.logger,
        )
      : onlyInstalledTeam(workspaces.installedTeamId, options.logger),
  );
  app.use(oncePerEvent(options.deps.deliveries, options.logger));
  // Every button and form is held to whom it is for before any listener runs (kit/permissions.ts).
  app.use(permissionsGate(options.deps));
  registerListeners(app, options.deps);
  return { app, bolt: receiver.toHandler() };
}
