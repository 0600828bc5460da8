import type { IncomingMessage, ServerResponse } from 'node:http';
import { receiveUpload } from './files.ts';
import { readBody, sendJson } from './http-json.ts';
import { answerOAuth, authorizeRedirect, tokenIdentity, tokenTeam } from './oauth.ts';
import { servePage } from './page-api.ts';
import { pageContext } from './page-state.ts';
import {
  type Args,
  type SlackState,
  blocksArg,
  changed,
  edit,
  findMessage,
  nextTs,
  store,
  textArg,
} from './slack-state.ts';
import { webApiMethod } from './web-api.ts';

/**
 * Where each request to the fake goes: the page, an upload, OAuth's authorize step, a response_url,
 * or a Web API call (recorded, and failed when a test asked for it).
 */

export async function handleRequest(state: SlackState, request: IncomingMessage, response: ServerResponse) {
  try {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (await servePage(request, response, url, pageContext(state))) return;
    const uploadId = url.pathname.match(/^\/upload\/(\w+)$/)?.[1];
    if (uploadId) return await receiveUpload(state, request, response, uploadId);
    if (url.pathname === '/oauth/v2/authorize') {
      const { status, location } = authorizeRedirect(state.oauth, url);
      response.writeHead(status, location ? { location } : {});
      return void response.end();
    }
    const args = await readBody(request);
    const responseId = url.pathname.match(/^\/response\/([\w-]+)$/)?.[1];
    if (responseId) return answerResponseUrl(state, response, responseId, args);
    answerWebApi(state, request, response, url.pathname.replace(/^\/api\//, ''), args);
  } catch (error) {
    sendJson(response, 500, { ok: false, error: String(error) });
  }
}

/** A Web API call: recorded, then failed as `failNext` asked, or carried out. */
function answerWebApi(
  state: SlackState,
  request: IncomingMessage,
  response: ServerResponse,
  method: string,
  args: Args,
) {
  const authorization = request.headers.authorization;
  state.calls.push({ method, args, ...(authorization ? { authorization } : {}) });
  const failure = takeFailure(state, method);
  if (failure === 'ratelimited')
    return sendJson(response, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': '1' });
  // `slow:<ms>`: Slack does the call, then answers late (the caller may give up first).
  const slowMs = failure?.startsWith('slow:') ? Number(failure.slice(5)) : 0;
  if (failure && !slowMs) return sendJson(response, 200, { ok: false, error: failure });
  // OAuth methods authenticate the app's client, not a token.
  if (method.startsWith('oauth.'))
    return sendJson(response, 200, answerOAuth(state.oauth, method, args, authorization));
  if (!authorization?.startsWith('Bearer '))
    return sendJson(response, 200, { ok: false, error: 'not_authed' });
  const carryOut = webApiMethod(state, method);
  if (!carryOut) return sendJson(response, 200, { ok: false, error: 'unknown_method' });
  state.callerTeam = tokenTeam(state.oauth, authorization);
  let result: Args;
  try {
    result = carryOut(state, args);
  } finally {
    state.callerTeam = undefined;
  }
  if (method === 'auth.test') Object.assign(result, tokenIdentity(state.oauth, authorization));
  if (slowMs) {
    const late = new Promise<void>((sent) =>
      setTimeout(() => {
        sendJson(response, 200, { ok: true, ...result });
        state.lateAnswers.delete(late);
        sent();
      }, slowMs),
    );
    return void state.lateAnswers.add(late);
  }
  sendJson(response, 200, { ok: true, ...result });
}

function takeFailure(state: SlackState, method: string): string | undefined {
  const queue = state.failures.get(method);
  const next = queue?.[0];
  if (!next) return undefined;
  next.times -= 1;
  if (next.times <= 0) queue.shift();
  return next.error;
}

/** A message sent to a response_url: a reply, or the replacement or deletion of the message it answers. */
function answerResponseUrl(state: SlackState, response: ServerResponse, id: string, args: Args) {
  const target = state.responseTargets.get(id);
  if (!target) return sendJson(response, 404, { ok: false, error: 'expired_url' });
  state.calls.push({ method: 'response_url', args });
  const original = findMessage(state, target.channel, target.messageTs);
  // A reply can overtake the ack it replaces (the ack travels back through the test's HTTP client).
  if ((args.delete_original || args.replace_original) && !target.messageTs) target.superseded = true;
  if (args.delete_original) {
    if (original) state.stored.splice(state.stored.indexOf(original), 1);
    changed(state);
  } else if (args.replace_original && original) {
    edit(state, original, textArg(args.text), blocksArg(args.blocks));
  } else {
    const reply = store(state, {
      channel: target.channel,
      ts: nextTs(state),
      text: textArg(args.text),
      blocks: blocksArg(args.blocks),
      user: state.botUserId,
      ...(target.teamId ? { teamId: target.teamId } : {}),
      ...(args.response_type === 'in_channel' ? {} : { visibleTo: target.user }),
    });
    if (args.replace_original && !target.messageTs) target.messageTs = reply.ts;
  }
  sendJson(response, 200, { ok: true });
}
