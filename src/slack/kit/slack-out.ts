import type { WebClient } from '@slack/web-api';
import { CHANNEL_GONE } from '../../domain/slack-delivery.ts';
import type { Logger } from '../../platform/log.ts';
import type { JobContext } from './jobs.ts';
import { slackErrorCode } from '../slack-errors.ts';
import { inviteBotMessage } from '../views/messages.ts';
import type { SlackMessage } from '../views/types.ts';
import type { Mrkdwn } from '../views/mrkdwn.ts';

/**
 * How the worker talks back to Slack: channel posts, in-place updates, and answers only the user sees.
 * Plain functions, not methods: each can be handed on alone (`slack.update` to the card shower).
 */
export interface SlackOut {
  /** Posts in the channel; when the bot cannot, tells the user how to invite it and returns undefined. */
  post: (context: JobContext, message: SlackMessage, threadTs?: string) => Promise<string | undefined>;
  update: (channelId: string, ts: string, message: SlackMessage) => Promise<void>;
  /** Only the user sees it (through the response URL, else chat.postEphemeral). */
  ephemeral: (
    context: JobContext,
    message: SlackMessage,
    options?: { replaceOriginal?: boolean },
  ) => Promise<void>;
  /** Removes the response URL's message (the "working…" placeholder, or a shared private answer). */
  deleteOriginal: (context: JobContext) => Promise<void>;
  /** Shares one file in a channel or a thread of it (`files.uploadV2`), with a comment above it. */
  upload?: (file: FileUpload) => Promise<void>;
  /**
   * Posts `text` in the app's direct messages with a user and returns that conversation's id (from
   * chat.postMessage's answer: no `conversations.open`, so no `im:write` scope).
   */
  directMessage?: (userId: string, text: Mrkdwn) => Promise<string>;
  /** A channel's name (`events`, from conversations.info), or undefined when Slack does not say. */
  channelName?: (channelId: string) => Promise<string | undefined>;
  /** A person's name as Slack shows it (users.info: display name, else real name), or undefined. */
  userName?: (userId: string) => Promise<string | undefined>;
}

export interface FileUpload {
  channelId: string;
  threadTs?: string | undefined;
  filename: string;
  title: string;
  content: string;
  comment: Mrkdwn;
}

/** People's and channels' names, read one by one; undefined when Slack does not say (logged, not thrown). */
function slackNames(web: WebClient, logger: Logger): Pick<SlackOut, 'channelName' | 'userName'> {
  return {
    async channelName(channelId) {
      try {
        const { channel } = await web.conversations.info({ channel: channelId });
        return channel?.name || undefined;
      } catch (error) {
        logger.info('could not read the channel name', {
          channel: channelId,
          slackError: slackErrorCode(error),
        });
        return undefined;
      }
    },
    async userName(userId) {
      try {
        const { user } = await web.users.info({ user: userId });
        return user?.profile?.display_name || user?.real_name || user?.name || undefined;
      } catch (error) {
        logger.info('could not read the user name', { user: userId, slackError: slackErrorCode(error) });
        return undefined;
      }
    },
  };
}

export function createSlackOut(web: WebClient, logger: Logger): SlackOut {
  const ephemeral: SlackOut['ephemeral'] = async (context, message, options = {}) => {
    if (context.responseUrl) {
      const response = await fetch(context.responseUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          response_type: 'ephemeral',
          replace_original: options.replaceOriginal ?? false,
          ...message,
        }),
        signal: AbortSignal.timeout(5000),
      });
      if (response.ok) return;
      logger.warn('response_url refused the answer', { status: response.status });
    }
    await web.chat.postEphemeral({ channel: context.channelId, user: context.userId, ...message });
  };

  return {
    ephemeral,
    async deleteOriginal(context) {
      if (!context.responseUrl) return;
      const response = await fetch(context.responseUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ delete_original: true }),
        signal: AbortSignal.timeout(5000),
      });
      if (!response.ok) logger.warn('response_url refused to delete', { status: response.status });
    },
    async post(context, message, threadTs) {
      try {
        const result = await web.chat.postMessage({
          channel: context.channelId,
          ...message,
          ...(threadTs ? { thread_ts: threadTs } : {}),
          unfurl_links: false,
        });
        return result.ts;
      } catch (error) {
        const code = slackErrorCode(error);
        if (!code || !CHANNEL_GONE.has(code)) throw error;
        logger.info('cannot post in channel', { channel: context.channelId, slackError: code });
        await ephemeral(context, inviteBotMessage(context.channelId));
        return undefined;
      }
    },
    async update(channelId, ts, message) {
      await web.chat.update({ channel: channelId, ts, ...message });
    },
    async upload({ channelId, threadTs, filename, title, content, comment }) {
      const where = threadTs ? { channel_id: channelId, thread_ts: threadTs } : { channel_id: channelId };
      await web.filesUploadV2({ ...where, filename, title, content, initial_comment: comment });
    },
    ...slackNames(web, logger),
    async directMessage(userId, text) {
      const posted = await web.chat.postMessage({ channel: userId, text });
      if (!posted.channel) throw new Error('chat.postMessage named no channel');
      return posted.channel;
    },
  };
}
