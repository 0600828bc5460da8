import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from './http-json.ts';
import type { FakeFile } from './messages.ts';
import {
  type Args,
  type SlackState,
  channelError,
  conversationOf,
  nextTs,
  store,
  textArg,
} from './slack-state.ts';

/**
 * Files the app shares (`files.uploadV2`): an upload URL asked for, the bytes posted to it, and the
 * upload completed as one message in the channel.
 */

/** The Web API's upload methods, by name; each answers the fields besides `ok: true`. */
export const FILE_METHODS: Record<string, (state: SlackState, args: Args) => Args> = {
  'files.getUploadURLExternal': (state, args) => {
    const fileId = `F${String(++state.seq).padStart(8, '0')}`;
    state.uploads.set(fileId, { name: textArg(args.filename) });
    return { file_id: fileId, upload_url: `${state.baseUrl}/upload/${fileId}` };
  },
  'files.completeUploadExternal': completeUpload,
};

/**
 * files.completeUploadExternal: the uploaded files are shared as one message in the channel (in the
 * thread of `thread_ts`), its text the `initial_comment`, as Slack shows a file upload.
 */
function completeUpload(state: SlackState, args: Args): Args {
  const channel = conversationOf(state, textArg(args.channel_id));
  const error = channelError(state, channel);
  if (error) return { ok: false, error };
  const listed = Array.isArray(args.files) ? (args.files as { id?: unknown; title?: unknown }[]) : [];
  const files: FakeFile[] = [];
  for (const { id, title } of listed) {
    const upload = state.uploads.get(textArg(id));
    if (upload?.content === undefined) return { ok: false, error: 'file_not_found' };
    files.push({
      id: textArg(id),
      name: upload.name,
      title: textArg(title) || upload.name,
      content: upload.content,
    });
  }
  if (files.length === 0) return { ok: false, error: 'invalid_arguments' };
  store(state, {
    channel,
    ts: nextTs(state),
    ...(args.thread_ts ? { threadTs: textArg(args.thread_ts) } : {}),
    text: textArg(args.initial_comment),
    blocks: [],
    user: state.botUserId,
    files,
  });
  return { files: files.map(({ id, title }) => ({ id, title })) };
}

export /** The POST to an upload URL: the file's bytes, as multipart form data (the Web API client's way) or raw. */
async function receiveUpload(
  state: SlackState,
  request: IncomingMessage,
  response: ServerResponse,
  id: string,
) {
  const upload = state.uploads.get(id);
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  state.calls.push({ method: 'upload', args: { file_id: id, bytes: raw.length } });
  if (!upload) return sendJson(response, 404, { ok: false, error: 'file_not_found' });
  const type = request.headers['content-type'] ?? '';
  if (type.startsWith('multipart/form-data')) {
    const form = await new Response(raw, { headers: { 'content-type': type } }).formData();
    const part = [...form.values()].find((value) => typeof value !== 'string');
    upload.content = part ? await part.text() : '';
  } else upload.content = raw.toString('utf8');
  response.writeHead(200, { 'content-type': 'text/plain' });
  response.end(`OK - ${raw.length}`);
}
