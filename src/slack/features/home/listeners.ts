import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import * as z from 'zod';
import type { JobContext } from '../../kit/jobs.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import type { ListenerDeps } from '../../kit/listener-deps.ts';

/** A channel id as the Home's digest buttons carry it: plain, or (from an older view) as JSON. */
const ChannelIdSchema = z.string().regex(/^[CG][A-Z0-9]{2,30}$/);

export function channelIdOf(value: string | undefined): string | undefined {
  const plain = ChannelIdSchema.safeParse(value);
  if (plain.success) return plain.data;
  try {
    const parsed = ChannelIdSchema.safeParse(JSON.parse(value ?? ''));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** A click on the Home: it has no channel, and its answers go on the Home itself. */
const homeContext = (body: BlockAction): JobContext => ({
  teamId: body.team?.id ?? body.user.team_id ?? 'unknown',
  channelId: '',
  userId: body.user.id,
});

/**
 * App Home: `app_home_opened` hands the building of the Home to the worker (it asks the service for
 * the balance), which publishes it with `views.publish`. Deliveries are deduplicated on their
 * `event_id` by the app's middleware before this runs. Turn off (a channel's digest) goes the same
 * way, and the Home is published again saying so.
 */
export function registerHome(app: App, deps: ListenerDeps): void {
  app.event('app_home_opened', async ({ event, body, context }) => {
    // The Messages tab opens the app's DM; only the Home tab has anything to show.
    if (event.tab !== undefined && event.tab !== 'home') return;
    await deps.dispatch({
      kind: 'home',
      id: `home:${body.event_id}`,
      context: { teamId: context.teamId ?? body.team_id, channelId: event.channel, userId: event.user },
    });
  });

  app.action<BlockAction<ButtonAction>>(ACTION_IDS.digestOff, async ({ ack, body, action }) => {
    await ack();
    const channelId = channelIdOf(action.value);
    await deps.dispatch({
      kind: 'home',
      id: `home:${body.trigger_id}`,
      ...(channelId
        ? { digestOff: channelId }
        : { notice: 'This button is out of date; here is the Home as it is now.' }),
      context: homeContext(body),
    });
  });
}
