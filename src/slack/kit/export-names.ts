import { inPool } from '../../domain/pool.ts';
import type { SlackOut } from './slack-out.ts';

/**
 * Names of the people and channels an export lists, read from Slack once each per export (users.info,
 * conversations.info): a file's cells are plain text, where a mention would show as its raw id. A name
 * Slack does not give (an error, a deleted user, past the bound) falls back to the id.
 */

/** Names read for one export at most, of people and of channels each; the rest show their ids. */
export const EXPORT_SLACK_NAME_READS = 100;
const READS_AT_ONCE = 4;

export interface ExportNames {
  user: (userId: string) => string;
  channel: (channelId: string) => string;
}

async function namesOf(
  ids: Iterable<string | undefined>,
  read: ((id: string) => Promise<string | undefined>) | undefined,
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const unique = [...new Set([...ids].filter((id): id is string => Boolean(id)))];
  if (!read) return names;
  await inPool(unique.slice(0, EXPORT_SLACK_NAME_READS), READS_AT_ONCE, async (id) => {
    const name = await read(id).catch(() => undefined);
    if (name) names.set(id, name);
  });
  return names;
}

/** Reads the names of these people and channels at once; each lookup after that is from the cache. */
export async function readExportNames(
  slack: Pick<SlackOut, 'userName' | 'channelName'>,
  ids: { users: Iterable<string | undefined>; channels: Iterable<string | undefined> },
): Promise<ExportNames> {
  const [users, channels] = await Promise.all([
    namesOf(ids.users, slack.userName),
    namesOf(ids.channels, slack.channelName),
  ]);
  return {
    user: (userId) => users.get(userId) ?? userId,
    channel: (channelId) => {
      const name = channels.get(channelId);
      return name ? `#${name}` : channelId;
    },
  };
}
