import { type ButtonElement, blockActionsBody, buttonsOf, slashCommandBody } from './payloads.ts';
import type { AppAnswer, SlackMessage } from './messages.ts';
import { signedHeaders } from './sign.ts';
import {
  type Args,
  SLACK_DEADLINE_MS,
  type SlackState,
  actorOf,
  blocksArg,
  findMessage,
  nextTs,
  safeJson,
  slackbotNote,
  store,
  teamOf,
  unfurlsOf,
} from './slack-state.ts';

/**
 * The app as Slack reaches it: signed requests to its URL, slash commands and their acks, clicks on a
 * message's buttons, and the response_urls its answers go to.
 */

/** `/events <text>` as `user` in `channel`. */
export interface CommandInput {
  user: string;
  channel: string;
  text: string;
  /**
   * The workspace they act in (default: their own, else the connected app's team); a user of another
   * team acting there is a Slack Connect guest.
   */
  teamId?: string;
}

/** A click on the button `actionId` of the message `ts` in `channel`. */
export interface ClickInput {
  user: string;
  channel: string;
  ts: string;
  actionId: string;
  blockId?: string;
  /** The button sits in the app's unfurl of this link (found there anyway when not in the message). */
  unfurlUrl?: string;
  /**
   * The workspace the click is in (default: the user's own, else the connected app's team); a user of
   * another team clicking there is a Slack Connect guest (`user.team_id` names their own).
   */
  teamId?: string;
}

export function newResponseUrl(
  state: SlackState,
  channel: string,
  user: string,
  messageTs?: string,
  teamId?: string,
): string {
  const id = `r${++state.responseSeq}`;
  state.responseTargets.set(id, {
    channel,
    user,
    ...(messageTs ? { messageTs } : {}),
    ...(teamId ? { teamId } : {}),
  });
  return `${state.baseUrl}/response/${id}`;
}

export async function deliver(
  state: SlackState,
  body: string,
  headers: Record<string, string> = {},
): Promise<AppAnswer> {
  if (!state.app) throw new Error('no app is connected to the local Slack (connectApp)');
  const started = performance.now();
  const response = await fetch(state.app.requestUrl, {
    method: 'POST',
    headers: { ...signedHeaders(state.app.signingSecret, body), ...headers },
    body,
  });
  const text = await response.text();
  return { status: response.status, body: text, ms: Math.round(performance.now() - started) };
}

/** Why Slack would show the user an error for this answer: a non-200, or (kept) no answer within 3 s. */
export function appFailure(state: SlackState, answer: AppAnswer): string | undefined {
  if (answer.status !== 200) return `http_${answer.status}`;
  if (state.slackDeadlines && answer.ms > SLACK_DEADLINE_MS) return 'operation_timeout';
  return undefined;
}

export async function sendCommand(state: SlackState, input: CommandInput): Promise<AppAnswer> {
  const { user, channel, text } = input;
  const teamId = input.teamId ?? teamOf(state, user);
  const command = state.app?.command ?? '/events';
  // Slack never shows the typed command to others; the page keeps it, for the user only.
  store(state, {
    channel,
    ts: nextTs(state),
    text: `${command} ${text}`.trim(),
    blocks: [],
    user,
    visibleTo: user,
    ...(teamId ? { teamId } : {}),
  });
  const url = newResponseUrl(state, channel, user, undefined, teamId);
  const answer = await deliver(state, slashCommandBody(actorOf(state, user, channel, teamId), text, url));
  const failure = appFailure(state, answer);
  if (failure) {
    slackbotNote(state, channel, user, `${command} failed with the error "${failure}"`);
    return answer;
  }
  recordAck(state, url, answer.body);
  return answer;
}

/**
 * Shows a slash command's immediate answer as Slack does (only the user sees an ephemeral one), and
 * makes it the message its `response_url` replaces or deletes, as Slack does.
 */
export function recordAck(state: SlackState, url: string, body: string) {
  const target = state.responseTargets.get(url.split('/').pop() ?? '');
  const ack = parseAck(body);
  if (!target || !ack || target.superseded) return;
  const message = store(state, {
    channel: target.channel,
    ts: nextTs(state),
    text: typeof ack.text === 'string' ? ack.text : '',
    blocks: blocksArg(ack.blocks),
    user: state.botUserId,
    ...(target.teamId ? { teamId: target.teamId } : {}),
    ...(ack.response_type === 'in_channel' ? {} : { visibleTo: target.user }),
  });
  target.messageTs = message.ts;
}

/** The ack's body, when the app answered with a message (an empty ack shows nothing). */
function parseAck(body: string): Args | undefined {
  if (!body.trim()) return undefined;
  const parsed = safeJson(body);
  if (typeof parsed === 'object' && parsed !== null) return parsed as Args;
  return { text: body };
}

/** The button `actionId` of the message, else of the app's unfurls on it (with the unfurled link). */
function findButton(state: SlackState, message: SlackMessage, input: ClickInput) {
  const matches = (candidate: { blockId: string; button: ButtonElement }) =>
    candidate.button.action_id === input.actionId &&
    (input.blockId === undefined || candidate.blockId === input.blockId);
  const inMessage = input.unfurlUrl === undefined ? buttonsOf(message).find(matches) : undefined;
  if (inMessage) return { clicked: inMessage };
  for (const unfurl of unfurlsOf(state, message)) {
    if (input.unfurlUrl !== undefined && unfurl.url !== input.unfurlUrl) continue;
    const clicked = buttonsOf(unfurl).find(matches);
    if (clicked) return { clicked, unfurlUrl: unfurl.url };
  }
  return undefined;
}

export async function click(state: SlackState, input: ClickInput): Promise<AppAnswer> {
  const { user, channel, ts, actionId } = input;
  const message = findMessage(state, channel, ts);
  if (!message) throw new Error(`no message ${ts} in ${channel}`);
  const found = findButton(state, message, input);
  if (!found) throw new Error(`no button ${actionId} on message ${ts}`);
  const { clicked, unfurlUrl } = found;
  // A reply to an unfurl's button cannot replace the message: it is the user's, not the app's.
  const teamId = input.teamId ?? teamOf(state, user);
  const url = newResponseUrl(state, channel, user, unfurlUrl ? undefined : ts, teamId);
  const actor = actorOf(state, user, channel, teamId);
  const answer = await deliver(state, blockActionsBody(actor, message, clicked, url, unfurlUrl));
  const failure = appFailure(state, answer);
  if (failure)
    slackbotNote(
      state,
      channel,
      user,
      `The app did not answer the click on "${clicked.button.text.text}" (${failure})`,
    );
  return answer;
}
