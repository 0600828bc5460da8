import type { SlackMessage } from './messages.ts';

/** Form bodies exactly as Slack posts them: a slash command, and a button click (`block_actions`). */

/**
 * Unique per interaction, as Slack's are: the bot deduplicates deliveries on it. It starts with its
 * issue time and ends with its user, so the fake's `views.open` can expire it after 3 s as Slack does.
 */
let triggers = 0;
export const triggerId = (user = 'U0LOCAL') =>
  `${Date.now()}.${++triggers}.${Math.random().toString(36).slice(2, 8)}.${user}`;

/** A workspace as Slack names it in a payload: Enterprise Grid workspaces also name their org. */
export interface Workspace {
  teamId: string;
  /** The org the workspace belongs to, and whether the app is installed org-wide there. */
  enterprise?: { id: string; orgWideInstall: boolean };
}

export interface Actor extends Workspace {
  userId: string;
  /**
   * The user's own workspace when it is not the one they act in: a guest from another organisation in
   * a Slack Connect channel. Payloads name it as `user.team_id`; `team` stays the workspace acted in.
   */
  userTeamId?: string;
  userName?: string;
  channelId: string;
}

/** How an interaction payload (a click, a view, a shortcut) names the workspace and its org. */
export const interactionWorkspace = ({ teamId, enterprise }: Workspace) => ({
  team: { id: teamId, domain: 'local', ...(enterprise ? { enterprise_id: enterprise.id } : {}) },
  enterprise: enterprise ? { id: enterprise.id, name: enterprise.id } : null,
  is_enterprise_install: enterprise?.orgWideInstall === true,
});

export function slashCommandBody(actor: Actor, text: string, responseUrl: string): string {
  return new URLSearchParams({
    token: 'deprecated-verification-token',
    team_id: actor.teamId,
    team_domain: 'local',
    channel_id: actor.channelId,
    channel_name: actor.channelId.toLowerCase(),
    user_id: actor.userId,
    user_name: actor.userName ?? actor.userId.toLowerCase(),
    command: '/events',
    text,
    api_app_id: 'A0LOCAL',
    ...(actor.enterprise ? { enterprise_id: actor.enterprise.id, enterprise_name: actor.enterprise.id } : {}),
    is_enterprise_install: String(actor.enterprise?.orgWideInstall === true),
    response_url: responseUrl,
    trigger_id: triggerId(actor.userId),
  }).toString();
}

export interface ButtonElement {
  type: 'button';
  action_id: string;
  value?: string;
  text: { type: 'plain_text'; text: string };
  style?: string;
}

const isButton = (element: unknown): element is ButtonElement =>
  (element as { type?: string } | undefined)?.type === 'button';

/** Every button of a message (in actions blocks and as section accessories), with the block it sits in. */
export function buttonsOf(
  message: Pick<SlackMessage, 'blocks'>,
): { blockId: string; button: ButtonElement }[] {
  return message.blocks.flatMap((block, index) => {
    const candidate = block as {
      type?: string;
      block_id?: string;
      elements?: unknown[];
      accessory?: unknown;
    };
    const blockId = candidate.block_id ?? `block-${index}`;
    if (candidate.type === 'section' && isButton(candidate.accessory))
      return [{ blockId, button: candidate.accessory }];
    if (candidate.type !== 'actions' || !Array.isArray(candidate.elements)) return [];
    return candidate.elements.filter(isButton).map((button) => ({ blockId, button }));
  });
}

export function blockActionsBody(
  actor: Actor,
  message: Pick<SlackMessage, 'ts' | 'channel' | 'text' | 'blocks' | 'visibleTo' | 'threadTs'>,
  clicked: { blockId: string; button: ButtonElement },
  responseUrl: string,
  /** Set when the button sits in the app's unfurl of this link in the message. */
  unfurlUrl?: string,
): string {
  const container = {
    type: 'message',
    message_ts: message.ts,
    channel_id: message.channel,
    is_ephemeral: Boolean(message.visibleTo),
  };
  const payload = {
    type: 'block_actions',
    user: {
      id: actor.userId,
      username: actor.userName ?? actor.userId.toLowerCase(),
      team_id: actor.userTeamId ?? actor.teamId,
    },
    api_app_id: 'A0LOCAL',
    token: 'deprecated-verification-token',
    // A button in an unfurl comes from the attachment Slack made of it, on someone else's message.
    container: unfurlUrl
      ? {
          ...container,
          type: 'message_attachment',
          attachment_id: 1,
          is_app_unfurl: true,
          app_unfurl_url: unfurlUrl,
        }
      : container,
    ...(unfurlUrl ? { is_app_unfurl: true } : {}),
    trigger_id: triggerId(actor.userId),
    ...interactionWorkspace(actor),
    channel: { id: message.channel, name: message.channel.toLowerCase() },
    message: {
      type: 'message',
      ts: message.ts,
      // A reply carries its thread, as Slack sends it.
      ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
      text: message.text,
      blocks: message.blocks,
    },
    response_url: responseUrl,
    actions: [
      {
        type: 'button',
        action_id: clicked.button.action_id,
        block_id: clicked.blockId,
        text: clicked.button.text,
        value: clicked.button.value,
        action_ts: `${Date.now() / 1000}`,
      },
    ],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}
