import { blockKitViolations } from './block-kit-check.ts';
import { type CanvasState, createCanvasState } from './canvases.ts';
import type { SlackMessage } from './messages.ts';
import { type FakeOAuthOptions, type OAuthState, createOAuthState, servedOrgWide } from './oauth.ts';
import type { LocalApp, LocalPanel, PageUnfurl } from './page-api.ts';
import type { Actor, Workspace } from './payloads.ts';
import { type SurfaceState, createSurfaceState } from './surfaces.ts';

/**
 * All the fake Slack keeps (the workspace, its messages, the calls made, the app it talks to), the
 * options that shape it, and the small reads and writes every surface shares.
 */

export type Args = Record<string, unknown>;

export interface RecordedCall {
  method: string;
  args: Record<string, unknown>;
  authorization?: string;
}

export interface FakeSlackOptions {
  port?: number;
  botUserId?: string;
  /** Channels that exist; the bot is a member of each unless listed in `botNotIn`. */
  channels?: string[];
  botNotIn?: string[];
  /** Channels whose members are listed (a private channel, say); any other channel has every user in it. */
  channelMembers?: Record<string, string[]>;
  /**
   * Workspace members; `title` is shown under the user switch on the page (e.g. "spend approver").
   * `teamId` puts a member in another workspace than the app's (a distributed app's second install):
   * what they send names their team, and the page shows them only their team's messages.
   */
  users?: Record<string, WorkspaceUser>;
  /** Display names of channels (the page's channel list); the id is shown otherwise. */
  channelNames?: Record<string, string>;
  /** The app's OAuth client (installs and token rotation). */
  oauth?: FakeOAuthOptions;
  /** Enterprise Grid orgs: each org's workspaces (their payloads name the org). */
  enterprises?: Record<string, string[]>;
  /** User groups (`S…`) and their members, as `usergroups.users.list` lists them. */
  userGroups?: Record<string, string[]>;
  /**
   * Whether Slack's 3 s deadlines are kept on the real clock: an answer later than `SLACK_DEADLINE_MS`
   * fails as `operation_timeout`, a trigger id older is expired. `npm run dev` keeps them, to show
   * what Slack would; tests leave them off (the default), so a loaded machine's slowness is never
   * taken for the app's. The bench measures the answers' times, and tests that the app answers
   * before a slow call returns hold that call on a virtual clock.
   */
  slackDeadlines?: boolean;
}

/** Slack's deadline for an app's answer to a command, a click or a form. */
export const SLACK_DEADLINE_MS = 3000;

export type WorkspaceUser = {
  name: string;
  tz: string;
  title?: string;
  teamId?: string;
  /** A workspace admin or owner as `users.info` says (`is_admin` / `is_owner`); default neither. */
  isAdmin?: boolean;
  isOwner?: boolean;
  /** An admin of their workspace's Enterprise Grid org (`enterprise_user.is_admin`); default not. */
  isOrgAdmin?: boolean;
  /** A guest of the workspace (`is_restricted`: a multi-channel guest); default a full member. */
  isGuest?: boolean;
  /** On Grid, the org's other workspaces they are a member of too (`enterprise_user.teams`, after `teamId`). */
  alsoIn?: string[];
};

/** Where a response_url's messages go; `superseded` when the app replaced its ack before the ack was shown. */
export interface ResponseTarget {
  channel: string;
  user: string;
  messageTs?: string | undefined;
  superseded?: boolean;
  /** The workspace of the user who acted, when known (recorded on the replies). */
  teamId?: string | undefined;
}

/** All the fake keeps: the workspace, its messages, the calls made, and the app it talks to. */
export interface SlackState {
  botUserId: string;
  channels: Set<string>;
  botNotIn: Set<string>;
  /** Channels with listed members; a channel not here has every user in it. */
  channelMembers: Map<string, Set<string>>;
  users: Map<string, WorkspaceUser>;
  userGroups: Map<string, string[]>;
  channelNames: Map<string, string>;
  calls: RecordedCall[];
  /** Answers of `slow:` calls not sent yet. */
  lateAnswers: Set<Promise<void>>;
  stored: SlackMessage[];
  failures: Map<string, { error: string; times: number }[]>;
  listeners: Set<() => void>;
  responseTargets: Map<string, ResponseTarget>;
  app: LocalApp | undefined;
  panel: LocalPanel;
  /** This server's own URL, for the response_urls it hands out. */
  baseUrl: string;
  clock: number;
  seq: number;
  responseSeq: number;
  surfaces: SurfaceState;
  slackDeadlines: boolean;
  /** Files asked for with files.getUploadURLExternal, by id; `content` once uploaded to their URL. */
  uploads: Map<string, { name: string; content?: string }>;
  oauth: OAuthState;
  /** While a Web API call is carried out: the team of its bot token, when the fake issued it. */
  callerTeam: string | undefined;
  /** The Enterprise Grid org of each workspace that belongs to one. */
  enterpriseOfTeam: Map<string, string>;
  canvases: CanvasState;
}

export function createState(options: FakeSlackOptions): SlackState {
  return {
    botUserId: options.botUserId ?? 'UBOT',
    channels: new Set(options.channels ?? ['C0GENERAL', 'C0EVENTS']),
    botNotIn: new Set(options.botNotIn ?? []),
    channelMembers: new Map(
      Object.entries(options.channelMembers ?? {}).map(([channel, users]) => [channel, new Set(users)]),
    ),
    users: new Map(Object.entries(options.users ?? { U0ALICE: { name: 'alice', tz: 'Europe/Berlin' } })),
    userGroups: new Map(Object.entries(options.userGroups ?? {})),
    channelNames: new Map(Object.entries(options.channelNames ?? {})),
    calls: [],
    lateAnswers: new Set(),
    stored: [],
    failures: new Map(),
    listeners: new Set(),
    responseTargets: new Map(),
    app: undefined,
    panel: {},
    baseUrl: '',
    clock: 1_700_000_000,
    seq: 0,
    responseSeq: 0,
    surfaces: createSurfaceState(options.slackDeadlines ?? false),
    slackDeadlines: options.slackDeadlines ?? false,
    uploads: new Map(),
    oauth: createOAuthState(options.oauth, options.botUserId ?? 'UBOT', options.enterprises),
    callerTeam: undefined,
    canvases: createCanvasState(),
    enterpriseOfTeam: new Map(
      Object.entries(options.enterprises ?? {}).flatMap(([id, teams]) => teams.map((team) => [team, id])),
    ),
  };
}

// --- Stored messages ---

export const nextTs = (state: SlackState) => `${state.clock++}.${String(++state.seq).padStart(6, '0')}`;

export function changed(state: SlackState) {
  for (const listener of state.listeners) listener();
}

export function subscribe(state: SlackState, listener: () => void) {
  state.listeners.add(listener);
  return () => state.listeners.delete(listener);
}

export function store(state: SlackState, message: Omit<SlackMessage, 'warnings'>): SlackMessage {
  // A Web API post is its token's team's; other messages name their team themselves (or none).
  const team = state.callerTeam ? { teamId: state.callerTeam } : {};
  const full = { ...team, ...message, warnings: blockKitViolations(message.text, message.blocks) };
  state.stored.push(full);
  changed(state);
  return full;
}

export function edit(state: SlackState, message: SlackMessage, text: string, blocks: unknown[]) {
  Object.assign(message, { text, blocks, edited: true });
  message.warnings = blockKitViolations(text, blocks);
  changed(state);
}

export const findMessage = (state: SlackState, channel: string, ts: string | undefined) =>
  state.stored.find((m) => m.channel === channel && m.ts === ts);

/** What Slack itself shows when an app answers badly: only the user who acted sees it. */
export const slackbotNote = (state: SlackState, channel: string, user: string, text: string) =>
  store(state, { channel, ts: nextTs(state), text, blocks: [], user: 'USLACKBOT', visibleTo: user });

// --- Arguments and conversations ---

/** An argument as text: strings as sent, numbers and booleans as written, objects as JSON, nothing as ''. */
export function textArg(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

export const blocksArg = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Each member's direct messages with the app are the channel `D<user id>`. */
export const appDmOf = (user: string) => `D${user}`;

/** A channel id as Slack resolves it: a user id names the app's DM with that user. */
export const conversationOf = (state: SlackState, channel: string) =>
  state.users.has(channel) ? appDmOf(channel) : channel;

export const isAppDm = (state: SlackState, channel: string) =>
  channel.startsWith('D') && state.users.has(channel.slice(1));

export function channelError(state: SlackState, channel: string): string | undefined {
  if (isAppDm(state, channel)) return undefined;
  if (!state.channels.has(channel)) return 'channel_not_found';
  if (state.botNotIn.has(channel)) return 'not_in_channel';
  return undefined;
}

export function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

// --- Who acts, and where ---

/** A member's own workspace, when they have one (else they are of the app's team). */
export const teamOf = (state: SlackState, user: string): string | undefined => state.users.get(user)?.teamId;

/** A workspace as payloads name it: with its org, and whether the app is installed org-wide there. */
export function workspaceOf(state: SlackState, teamId: string): Workspace {
  const enterpriseId = state.enterpriseOfTeam.get(teamId);
  if (!enterpriseId) return { teamId };
  return {
    teamId,
    enterprise: { id: enterpriseId, orgWideInstall: servedOrgWide(state.oauth, enterpriseId, teamId) },
  };
}

/**
 * Who acts, as payloads name them: in `teamId` when given (a user of another team acting there is a
 * Slack Connect guest: their payloads name their own team as `user.team_id`), else in their own team.
 */
export function actorOf(state: SlackState, user: string, channel: string, teamId?: string): Actor {
  const userName = state.users.get(user)?.name;
  const ownTeam = teamOf(state, user);
  return {
    ...workspaceOf(state, teamId ?? ownTeam ?? state.app?.teamId ?? 'T0LOCAL'),
    userId: user,
    channelId: channel,
    ...(userName ? { userName } : {}),
    ...(teamId && ownTeam && ownTeam !== teamId ? { userTeamId: ownTeam } : {}),
  };
}

// --- What the page and a click see ---

export const canvasesIn = (state: SlackState, channel?: string) =>
  [...state.canvases.canvases.values()].filter((c) => channel === undefined || c.channel === channel);

/** The app's unfurls of a message's links, the latest per link (`chat.unfurl` again replaces one). */
export function unfurlsOf(state: SlackState, message: Pick<SlackMessage, 'channel' | 'ts'>): PageUnfurl[] {
  const byUrl = new Map<string, PageUnfurl>();
  for (const unfurl of state.surfaces.unfurls) {
    if (unfurl.channel !== message.channel || unfurl.ts !== message.ts) continue;
    for (const [url, attachment] of Object.entries(unfurl.unfurls)) {
      const shown = (attachment ?? {}) as Args;
      const blocks = blocksArg(shown.blocks);
      const fallback = [shown.title, shown.text].map(textArg).filter(Boolean).join('\n');
      byUrl.set(url, {
        channel: message.channel,
        ts: message.ts,
        url,
        blocks,
        text: fallback,
        warnings: blocks.length > 0 ? blockKitViolations('unfurl', blocks) : [],
      });
    }
  }
  return [...byUrl.values()];
}
