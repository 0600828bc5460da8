import type { WebClient } from '@slack/web-api';
import { isApprover, type SpendPolicy } from '../../domain/approval.ts';
import type { Logger } from '../../platform/log.ts';
import { mentionChannel } from '../views/format.ts';
import { mk } from '../views/mrkdwn.ts';

/** A user's channels are read 1,000 at a time (Slack's most), at most this many pages per question. */
const CHANNEL_PAGE_SIZE = 1000;
const MAX_CHANNEL_PAGES = 5;

/** What deciding who may see and change a channel's digest asks Slack. */
export interface DigestAccess {
  /** The channels `userId` is in that the bot can see (a digest's channel always has the bot in it). */
  memberChannels(userId: string): Promise<ReadonlySet<string>>;
  /** A Slack admin or owner of the workspace (`isWorkspaceAdmin`). */
  isWorkspaceAdmin(teamId: string, userId: string): Promise<boolean>;
}

/**
 * `users.conversations` for one user: one call for nearly everyone, never more than 5. A user in more
 * channels than that is shown only the digests of the first 5,000 (the rest are left out, not leaked).
 */
export function memberChannelsOf(web: Pick<WebClient, 'users'>) {
  return async (userId: string): Promise<ReadonlySet<string>> => {
    const channels = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_CHANNEL_PAGES; page++) {
      const answer = await web.users.conversations({
        user: userId,
        types: 'public_channel,private_channel',
        limit: CHANNEL_PAGE_SIZE,
        ...(cursor ? { cursor } : {}),
      });
      for (const channel of answer.channels ?? []) if (channel.id) channels.add(channel.id);
      cursor = answer.response_metadata?.next_cursor || undefined;
      if (!cursor) break;
    }
    return channels;
  };
}

export interface DigestManager {
  teamId: string;
  userId: string;
  channelId: string;
}

/**
 * Who may turn off or change a channel's digest: its members, the spend approvers and the workspace's
 * admins. Asked in that order, so an approver costs no Slack call and a member one; nobody when Slack
 * cannot say.
 */
export async function mayManageDigest(
  {
    access,
    policy,
    logger,
  }: { access?: DigestAccess | undefined; policy: Pick<SpendPolicy, 'approvers'>; logger: Logger },
  { teamId, userId, channelId }: DigestManager,
): Promise<boolean> {
  if (isApprover(policy, userId)) return true;
  if (!access) return false;
  const channels = await access.memberChannels(userId).catch((error: unknown) => {
    logger.warn('could not read the channels of a user', { error });
    return new Set<string>();
  });
  return channels.has(channelId) || (await access.isWorkspaceAdmin(teamId, userId));
}

/** The answer to someone who may not touch a channel's digest; nothing was changed. */
export const digestRefusal = (channelId: string, doing: 'turn off' | 'change') =>
  mk`Only members of ${mentionChannel(channelId)}, spend approvers and workspace admins can ${doing} its daily digest. Nothing was changed.`;
