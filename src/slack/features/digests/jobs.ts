import type { WebClient } from '@slack/web-api';
import { composeDigest, type Digest, type DigestSources, nextDigestRun } from '../../../domain/digest.ts';
import { type DigestDefaults, digestTimeOf, digestZoneOf } from '../../../domain/digest-defaults.ts';
import type { Store } from '../../../store/index.ts';
import type { DigestCommand } from './commands.ts';
import type { JobContext } from '../../kit/jobs.ts';
import { slackCall } from '../../scheduled.ts';
import { digestMessage, digestOffMessage, digestStatusMessage, digestSubscribedMessage } from './views.ts';
import { type DigestManager, digestRefusal } from '../../kit/digest-access.ts';
import { botNotice } from '../../views/messages.ts';
import type { SlackOut } from '../../kit/slack-out.ts';

export interface DigestCommandDeps extends DigestSources {
  subscriptions: Pick<Store['digestSubscriptions'], 'put' | 'get' | 'delete'>;
  slack: Pick<SlackOut, 'post' | 'ephemeral'>;
  /** The requester's time zone as Slack knows it (`users.info` → `user.tz`); undefined when it cannot say. */
  userTimeZone(userId: string): Promise<string | undefined>;
  /** Whether a user may set up, change or turn off a channel's digest (`mayManageDigest`). */
  mayManage(manager: DigestManager): Promise<boolean>;
  /** The workspace's defaults (distributed apps: its admin sets them); unset means `DIGEST_DEFAULTS`. */
  digestDefaults?: DigestDefaults | undefined;
}

/** `users.info` → `user.tz`, or undefined when Slack does not answer or knows no zone. */
export function slackUserTimeZone(web: Pick<WebClient, 'users'>) {
  return async (userId: string): Promise<string | undefined> => {
    try {
      const { user } = await web.users.info({ user: userId });
      return user?.tz;
    } catch {
      return undefined;
    }
  };
}

/**
 * `/events digest on | off | status | now` for the channel the command came from. Answers only the
 * requester sees, except the digest itself, which `now` posts in the channel.
 */
export async function runDigestCommand(
  command: DigestCommand,
  context: JobContext,
  deps: DigestCommandDeps,
): Promise<void> {
  const { teamId, channelId, userId } = context;
  // A modal's submission names its channel itself: being in the channel is checked, not assumed.
  const changes = command.name === 'digest-on' || command.name === 'digest-off';
  if (changes && !(await deps.mayManage({ teamId, channelId, userId }))) {
    deps.logger.info('digest change refused', { digestChannel: channelId, command: command.name });
    const doing = command.name === 'digest-on' ? 'change' : 'turn off';
    return deps.slack.ephemeral(context, botNotice(digestRefusal(channelId, doing)));
  }
  switch (command.name) {
    case 'digest-on': {
      const requested =
        command.timeZone ?? deps.digestDefaults?.timeZone ?? (await deps.userTimeZone(userId));
      const timeZone = digestZoneOf(requested, deps.digestDefaults);
      const time = digestTimeOf(command.time, deps.digestDefaults);
      const subscription = await deps.subscriptions.put({
        teamId,
        channelId,
        time,
        timeZone,
        filters: command.filters,
        createdBy: userId,
        nextRunAt: nextDigestRun({ time, timeZone }, deps.now()),
      });
      // The parser may explain how it read the zone (`EST read as America/New_York`); older ones do not.
      const note = 'note' in command && typeof command.note === 'string' ? command.note : undefined;
      return deps.slack.ephemeral(
        context,
        digestSubscribedMessage(subscription, {
          now: deps.now(),
          zoneGuessed: timeZone !== requested,
          ...(note ? { note } : {}),
        }),
      );
    }
    case 'digest-off':
      return deps.slack.ephemeral(
        context,
        digestOffMessage(await deps.subscriptions.delete(teamId, channelId)),
      );
    case 'digest-status':
      return deps.slack.ephemeral(
        context,
        digestStatusMessage(await deps.subscriptions.get(teamId, channelId), deps.now()),
      );
    case 'digest-now': {
      // The channel's own filters and zone when it has a digest; everything, in the requester's zone, otherwise.
      const subscription = await deps.subscriptions.get(teamId, channelId);
      const zone = subscription?.timeZone ?? (await deps.userTimeZone(userId));
      const timeZone = digestZoneOf(zone, deps.digestDefaults);
      const active = subscription?.status === 'active';
      const digest = await composeDigest(
        {
          teamId,
          channelId,
          timeZone,
          filters: subscription?.filters ?? {},
          // An active digest's footer says when the next comes rather than offering one.
          ...(active ? { schedule: { time: subscription.time, timeZone } } : {}),
        },
        deps,
      );
      // Not a day claim: the scheduled digest still comes at its time.
      await deps.slack.post(context, digestMessage(digest));
      return;
    }
  }
}

/** `zone` when it is one; else the workspace's default zone, else UTC. */

/** Posts a channel's daily digest. */
export function digestPoster(web: WebClient) {
  return async (channel: string, digest: Digest): Promise<void> => {
    await slackCall(() =>
      web.chat.postMessage({ channel, ...digestMessage(digest), unfurl_links: false, unfurl_media: false }),
    );
  };
}
