import type { AppAnswer } from './messages.ts';
import { revokeInstall } from './oauth.ts';
import { deliver } from './commands-and-clicks.ts';
import type { Workspace } from './payloads.ts';
import { type Args, type SlackState, nextTs, store, teamOf, workspaceOf } from './slack-state.ts';
import { eventCallbackBody } from './surfaces.ts';

/**
 * Events API deliveries to the app: any event, its retries, the uninstall, the Home tab opened, a
 * message posted (and its links shared), and a workflow running the app's custom step.
 */

export type EventAnswer = AppAnswer & { eventId: string };

/** An Events API delivery: its id, Slack's retry number, and the workspace it comes from. */
export interface EventOptions {
  eventId?: string;
  retryNum?: number;
  /** Default: the connected app's team. */
  teamId?: string;
}

/** What `user` posts in `channel`. */
export interface MessageInput {
  user: string;
  channel: string;
  text: string;
}

let events = 0;

export function sendEvent(state: SlackState, event: Args, options: EventOptions = {}): Promise<EventAnswer> {
  return deliverEvent(
    state,
    workspaceOf(state, options.teamId ?? state.app?.teamId ?? 'T0LOCAL'),
    event,
    options,
  );
}

export function uninstall(
  state: SlackState,
  { teamId, orgWide = false }: { teamId: string; orgWide?: boolean },
) {
  const { enterprise } = workspaceOf(state, teamId);
  revokeInstall(state.oauth, { teamId, orgWide });
  const named = enterprise
    ? { teamId, enterprise: { id: enterprise.id, orgWideInstall: orgWide } }
    : { teamId };
  return deliverEvent(state, named, { type: 'app_uninstalled' }, {});
}

async function deliverEvent(
  state: SlackState,
  workspace: Workspace,
  event: Args,
  { eventId = `Ev${Date.now()}${++events}`, retryNum }: EventOptions,
): Promise<EventAnswer> {
  const body = eventCallbackBody(workspace, event, eventId);
  const retry = retryNum
    ? { 'x-slack-retry-num': String(retryNum), 'x-slack-retry-reason': 'http_timeout' }
    : {};
  const answer = await deliver(state, body, { 'content-type': 'application/json', ...retry });
  return { ...answer, eventId };
}

export function openHome(state: SlackState, user: string, teamId = teamOf(state, user)) {
  const id = state.surfaces.homes.get(user);
  const view = id ? state.surfaces.views.get(id) : undefined;
  return sendEvent(
    state,
    {
      type: 'app_home_opened',
      user,
      channel: `D${user}`,
      tab: 'home',
      ...(view ? { view: { id: view.id, type: 'home', hash: view.hash } } : {}),
    },
    teamId ? { teamId } : {},
  );
}

const LINK = /<?(https?:\/\/[^\s<>|]+)(?:\|[^>]*)?>?/g;

/** The links of a message's text, once each, whether typed bare or as Slack's `<url|label>`. */
function linksIn(text: string): string[] {
  return [...new Set([...text.matchAll(LINK)].map((match) => match[1] ?? ''))].filter((url) => {
    try {
      return Boolean(new URL(url).hostname);
    } catch {
      return false;
    }
  });
}

export async function sendMessage(state: SlackState, { user, channel, text }: MessageInput) {
  const links = linksIn(text);
  // Slack stores a typed link as `<url>`, which is how the page and the app see it.
  const stored = text.replace(LINK, (all: string, url: string) => (all.startsWith('<') ? all : `<${url}>`));
  const message = store(state, { channel, ts: nextTs(state), text: stored, blocks: [], user });
  const domains = state.app?.unfurlDomains;
  const ours = links
    .map((url) => ({ domain: new URL(url).hostname, url }))
    .filter(({ domain }) => !domains || domains.some((d) => domain === d || domain.endsWith(`.${d}`)));
  if (ours.length === 0) return undefined;
  const team = teamOf(state, user);
  return sendEvent(
    state,
    {
      type: 'link_shared',
      channel,
      user,
      message_ts: message.ts,
      unfurl_id: `${message.ts}.${user}`,
      source: 'conversations_history',
      links: ours,
    },
    team ? { teamId: team } : {},
  );
}

export async function runFunction(
  state: SlackState,
  { callbackId, inputs }: { callbackId: string; inputs: Args },
) {
  const functionExecutionId = `Fx${Date.now()}${++events}`;
  const answer = await sendEvent(state, {
    type: 'function_executed',
    function: { id: `Fn0${callbackId}`, callback_id: callbackId, title: callbackId, type: 'app' },
    inputs,
    function_execution_id: functionExecutionId,
    workflow_execution_id: `Wx${Date.now()}${events}`,
    bot_access_token: 'xwfp-local-workflow-token',
  });
  return { ...answer, functionExecutionId };
}
