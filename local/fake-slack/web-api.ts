import { canvasWebApi } from './canvases.ts';
import { FILE_METHODS } from './files.ts';
import {
  type Args,
  type SlackState,
  type WorkspaceUser,
  appDmOf,
  blocksArg,
  changed,
  channelError,
  conversationOf,
  edit,
  findMessage,
  isAppDm,
  nextTs,
  store,
  textArg,
} from './slack-state.ts';
import { surfaceWebApi } from './surfaces.ts';

/**
 * The Web API methods the fake carries out: messages, users and conversations here; files, canvases
 * and the other surfaces (modals, Home tabs, unfurls, workflow steps) from their own files.
 */

function postMessage(state: SlackState, args: Args): Args {
  const channel = conversationOf(state, textArg(args.channel));
  const error = channelError(state, channel);
  if (error) return { ok: false, error };
  const message = store(state, {
    channel,
    ts: nextTs(state),
    ...(args.thread_ts ? { threadTs: textArg(args.thread_ts) } : {}),
    text: textArg(args.text),
    blocks: blocksArg(args.blocks),
    user: state.botUserId,
  });
  return { channel, ts: message.ts, message: { text: message.text } };
}

function postEphemeral(state: SlackState, args: Args): Args {
  const channel = conversationOf(state, textArg(args.channel));
  if (!state.channels.has(channel) && !isAppDm(state, channel))
    return { ok: false, error: 'channel_not_found' };
  const message = store(state, {
    channel,
    ts: nextTs(state),
    text: textArg(args.text),
    blocks: blocksArg(args.blocks),
    user: state.botUserId,
    visibleTo: textArg(args.user),
  });
  return { message_ts: message.ts };
}

function updateMessage(state: SlackState, args: Args): Args {
  const message = findMessage(state, textArg(args.channel), textArg(args.ts));
  if (!message) return { ok: false, error: 'message_not_found' };
  edit(state, message, textArg(args.text), blocksArg(args.blocks));
  return { channel: message.channel, ts: message.ts };
}

/**
 * `users.info`: where the user belongs (`team_id`), their roles and zone. A user the fake was not told
 * of is a plain member of the app's team, with no zone (as payloads take them to be).
 */
function userInfo(state: SlackState, args: Args): Args {
  const id = textArg(args.user);
  const user = state.users.get(id);
  if (!user) return { user: { id, team_id: state.app?.teamId ?? 'T0LOCAL', name: id.toLowerCase() } };
  return { user: userObject(state, id, user) };
}

/**
 * `users.list`: every user the fake knows, `limit` at a time with Slack's cursor, each with their own
 * `team_id` and roles: a partner organisation's users (Slack Connect) are listed too, as a workspace
 * sharing channels with them may see them, so the app must tell its own members apart.
 */
function usersList(state: SlackState, args: Args): Args {
  const all = [...state.users.entries()];
  const start = Number(textArg(args.cursor) || '0');
  const limit = Math.min(Number(textArg(args.limit) || '100'), 1000);
  const next = start + limit < all.length ? String(start + limit) : '';
  const members = all.slice(start, start + limit).map(([id, user]) => userObject(state, id, user));
  return { members, response_metadata: { next_cursor: next } };
}

/** A user as `users.info` and `users.list` show them: their team, roles, zone and Grid org. */
function userObject(state: SlackState, id: string, user: WorkspaceUser): Args {
  const roles = {
    ...(user.isAdmin ? { is_admin: true } : {}),
    ...(user.isOwner ? { is_owner: true } : {}),
    ...(user.isGuest ? { is_restricted: true } : {}),
  };
  const teamId = user.teamId ?? state.app?.teamId;
  const enterpriseId = teamId ? state.enterpriseOfTeam.get(teamId) : undefined;
  // A member of a Grid org's workspace: their org roles, and the org's workspaces they belong to.
  const enterpriseUser = enterpriseId
    ? {
        enterprise_user: {
          id,
          enterprise_id: enterpriseId,
          is_admin: user.isOrgAdmin === true,
          teams: [teamId, ...(user.alsoIn ?? [])],
        },
      }
    : {};
  return { id, team_id: teamId, name: user.name, tz: user.tz, ...roles, ...enterpriseUser };
}

function conversationInfo(state: SlackState, args: Args): Args {
  const id = textArg(args.channel);
  const error = channelError(state, id);
  if (error === 'channel_not_found') return { ok: false, error };
  const name = state.channelNames.get(id);
  return { channel: { id, ...(name ? { name } : {}), is_member: !state.botNotIn.has(id) } };
}

/**
 * users.conversations for `user`: the channels they are in that the bot is in too (what a bot token
 * sees), a page of `limit` at a time with Slack's cursor.
 */
function userConversations(state: SlackState, args: Args): Args {
  const user = textArg(args.user);
  const memberOf = (channel: string) => state.channelMembers.get(channel)?.has(user) ?? true;
  const visible = [...state.channels].filter((channel) => !state.botNotIn.has(channel) && memberOf(channel));
  const start = Number(textArg(args.cursor) || '0');
  const limit = Math.min(Number(textArg(args.limit) || '100'), 1000);
  const page = visible.slice(start, start + limit);
  const next = start + limit < visible.length ? String(start + limit) : '';
  return { channels: page.map((id) => ({ id })), response_metadata: { next_cursor: next } };
}

/** The Web API methods the bot calls, by name; each answers the fields besides `ok: true`. */
const WEB_API: Record<string, (state: SlackState, args: Args) => Args> = {
  'auth.test': (state) => ({
    user_id: state.botUserId,
    bot_id: 'BBOT',
    team_id: 'T0LOCAL',
    user: 'eventbot',
  }),
  'chat.postMessage': postMessage,
  'chat.postEphemeral': postEphemeral,
  'chat.update': updateMessage,
  'users.info': userInfo,
  'users.list': usersList,
  'conversations.info': conversationInfo,
  'users.conversations': userConversations,
  // A group the workspace does not have is Slack's `no_such_subteam`.
  'usergroups.users.list': (state, args) => {
    const users = state.userGroups.get(textArg(args.usergroup));
    return users ? { users } : { ok: false, error: 'no_such_subteam' };
  },
  ...FILE_METHODS,
  'conversations.open': (state, args) => {
    const user = textArg(args.users).split(',')[0] ?? '';
    if (!state.users.has(user)) return { ok: false, error: 'user_not_found' };
    return { channel: { id: appDmOf(user) } };
  },
};

/** A canvas call; the page is told of the change. */
function canvasMethod(state: SlackState, method: string) {
  const carryOut = canvasWebApi(
    state.canvases,
    (channel) => channelError(state, channel),
    () => state.callerTeam,
  )[method];
  if (!carryOut) return undefined;
  return (_: SlackState, args: Args) => {
    const result = carryOut(args);
    changed(state);
    return result;
  };
}

/** A modal, Home tab, unfurl or workflow step call; the page is told of the change. */
function surfaceMethod(state: SlackState, method: string) {
  const carryOut = surfaceWebApi(state.surfaces, () => state.stored)[method];
  if (!carryOut) return undefined;
  return (_: SlackState, args: Args) => {
    const result = carryOut(args);
    changed(state);
    return result;
  };
}

/** The method `method` of the Web API, as the fake carries it out; undefined when it has none. */
export const webApiMethod = (state: SlackState, method: string) =>
  WEB_API[method] ?? surfaceMethod(state, method) ?? canvasMethod(state, method);
