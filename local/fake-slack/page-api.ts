import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import type { AppAnswer, FakeFile, SlackMessage } from './messages.ts';
import type { FakeView } from './surfaces.ts';
import type { FormInputs } from './view-state.ts';

/**
 * The local Slack page: static files from `page/` and the small JSON / server-sent-events API they
 * use. The page is a view of the fake Slack's own state, so what a developer clicks is what the
 * integration tests assert on.
 */

/** One `/events` word, for the help shown while typing (the bot's `COMMAND_SPECS`). */
export interface CommandHelp {
  word: string;
  usage: string;
  summary: string;
  example?: string;
  credits?: string;
}

/** The Slack app this workspace talks to: its Request URL and signing secret. */
export interface LocalApp {
  requestUrl: string;
  signingSecret: string;
  teamId?: string;
  /** The slash command the composer sends (default `/events`). */
  command?: string;
  commandHelp?: readonly CommandHelp[];
  /** The app's unfurl domains: links elsewhere are not sent to it (`link_shared`). */
  unfurlDomains?: readonly string[];
  /** The app's shortcuts, as its manifest declares them: the page's ⚡ menu and each message's ⋯ menu. */
  shortcuts?: readonly LocalShortcut[];
  /** A distributed app's install page (`/slack/install`): the page then offers an Install link per team. */
  installUrl?: string;
}

export interface LocalShortcut {
  callbackId: string;
  name: string;
  type: 'global' | 'message';
}

/** An app's unfurl of one link in a message: its blocks (or a legacy attachment's text). */
export interface PageUnfurl {
  channel: string;
  ts: string;
  url: string;
  blocks: unknown[];
  text: string;
  warnings: string[];
}

/** What the side panel shows: the service account, and jobs a developer can run now. */
export interface LocalPanel {
  account?: () => Promise<{ balance: number | null; ledger: unknown[] }>;
  /** Each job run now, answering what it did in words (`said`). */
  jobs?: Record<string, () => Promise<{ said: string }>>;
  /** The service adds a known exhibitor to another upcoming event; answers a sentence saying which. */
  newExhibitor?: () => Promise<string>;
}

/** A shared file as the page lists it: its name, size and where its bytes are (not the bytes). */
export interface PageFile {
  id: string;
  name: string;
  title: string;
  /** Bytes. */
  size: number;
  /** The file's bytes, served by this page (`?download` asks the browser to save it). */
  url: string;
}

/** A message as the page draws it: its files listed, not carried. */
export type PageMessage = Omit<SlackMessage, 'files'> & { files?: PageFile[] };

/** A message's files as the page lists them. */
export function pageMessage({ files, ...message }: SlackMessage): PageMessage {
  if (!files || files.length === 0) return message;
  return {
    ...message,
    files: files.map(({ id, name, title, content }) => ({
      id,
      name,
      title,
      size: Buffer.byteLength(content, 'utf8'),
      url: `/local/files/${encodeURIComponent(id)}/${encodeURIComponent(name)}`,
    })),
  };
}

export interface PageState {
  botUserId: string;
  channels: { id: string; name: string }[];
  users: { id: string; name: string; title?: string; teamId?: string }[];
  /** The workspaces an Install link is shown for (a distributed app only). */
  installTeams?: string[];
  command: { name: string; help: readonly CommandHelp[] } | undefined;
  shortcuts: readonly LocalShortcut[];
  jobs: string[];
  hasAccount: boolean;
  /** The panel offers "A new exhibitor appears". */
  canAddExhibitor: boolean;
  /** The user's direct messages with the app (the Home entry's Messages tab). */
  appDm: string;
  /** The user's Home tab as the app last published it. */
  home: FakeView | undefined;
  /** The user's top modal, and how many are stacked. */
  modal: (FakeView & { depth: number }) | undefined;
  messages: PageMessage[];
  unfurls: PageUnfurl[];
  /** The canvases of the user's workspace, by channel (the channel's tab shows them above its messages). */
  canvases: { id: string; channel: string; title: string; markdown: string }[];
}

export interface PageContext {
  state(user: string | undefined): PageState;
  onChange(listener: () => void): () => void;
  sendCommand(input: { user: string; channel: string; text: string }): Promise<AppAnswer>;
  sendMessage(input: { user: string; channel: string; text: string }): Promise<AppAnswer | undefined>;
  click(input: ClickRequest): Promise<AppAnswer>;
  openHome(user: string): Promise<AppAnswer>;
  shortcut(input: ShortcutRequest): Promise<AppAnswer>;
  submitForm(input: { user: string; inputs: FormInputs }): Promise<AppAnswer | undefined>;
  closeView(input: { user: string }): Promise<AppAnswer | undefined>;
  clickInView(input: ViewClickRequest): Promise<AppAnswer>;
  panel(): LocalPanel;
  /** Where the Install link for `team` goes (the app's install page); undefined without one. */
  install(team: string): string | undefined;
  /** A file the app shared, by id (its bytes as uploaded). */
  file(id: string): FakeFile | undefined;
}

const PAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), 'page');
const ASSET_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
/** The page's files: its HTML, and every script module and style sheet of `page/`. */
const STATIC: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  ...Object.fromEntries(
    readdirSync(PAGE_DIR).flatMap((file) => {
      const type = ASSET_TYPES[extname(file)];
      return type ? [[`/${file}`, { file, type }]] : [];
    }),
  ),
};

const User = z.string().min(1);
const CommandRequest = z.object({ user: User, channel: z.string().min(1), text: z.string().max(5000) });
const ClickRequest = z.object({
  user: User,
  channel: z.string().min(1),
  ts: z.string().min(1),
  actionId: z.string().min(1),
  blockId: z.string().exactOptional(),
  unfurlUrl: z.string().exactOptional(),
});
type ClickRequest = z.infer<typeof ClickRequest>;
const ShortcutRequest = z.object({
  user: User,
  callbackId: z.string().min(1),
  channel: z.string().exactOptional(),
  ts: z.string().exactOptional(),
});
type ShortcutRequest = z.infer<typeof ShortcutRequest>;
const FormInputsSchema = z.record(
  z.string(),
  z.record(z.string(), z.union([z.string(), z.array(z.string()), z.null()])),
);
const ViewClickRequest = z.object({
  user: User,
  viewId: z.string().min(1),
  actionId: z.string().min(1),
  blockId: z.string().exactOptional(),
  /** A select's or picker's choice, sent as the action (a button's is looked up in the view). */
  action: z.record(z.string(), z.unknown()).exactOptional(),
  inputs: FormInputsSchema.exactOptional(),
});
type ViewClickRequest = z.infer<typeof ViewClickRequest>;

/** The page's actions: each parses its body and answers with the app's HTTP answer, if one was sent. */
const ACTIONS: Record<string, (context: PageContext, body: unknown) => Promise<AppAnswer | undefined>> = {
  'POST /local/command': (context, body) => context.sendCommand(CommandRequest.parse(body)),
  'POST /local/message': (context, body) => context.sendMessage(CommandRequest.parse(body)),
  'POST /local/click': (context, body) => context.click(ClickRequest.parse(body)),
  'POST /local/home': (context, body) => context.openHome(z.object({ user: User }).parse(body).user),
  'POST /local/shortcut': (context, body) => context.shortcut(ShortcutRequest.parse(body)),
  'POST /local/view/submit': (context, body) =>
    context.submitForm(z.object({ user: User, inputs: FormInputsSchema }).parse(body)),
  'POST /local/view/close': (context, body) => context.closeView(z.object({ user: User }).parse(body)),
  'POST /local/view/click': (context, body) => context.clickInView(ViewClickRequest.parse(body)),
};

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  } catch {
    return undefined;
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Serves the page's routes; answers `false` for everything else (the Web API). */
export async function servePage(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  context: PageContext,
): Promise<boolean> {
  const method = request.method ?? 'GET';
  const asset = STATIC[url.pathname];
  if (method === 'GET' && asset) {
    // Read on every request, so an edited page shows on reload without a restart.
    const body = await readFile(join(PAGE_DIR, asset.file));
    response.writeHead(200, { 'content-type': asset.type, 'cache-control': 'no-store' });
    response.end(body);
    return true;
  }
  if (!url.pathname.startsWith('/local/')) return false;
  const route = `${method} ${url.pathname}`;

  if (route === 'GET /local/state') {
    sendJson(response, 200, context.state(url.searchParams.get('user') ?? undefined));
    return true;
  }
  if (route === 'GET /local/install') {
    const location = context.install(url.searchParams.get('team') ?? 'T0LOCAL');
    if (location) response.writeHead(302, { location }).end();
    else sendJson(response, 404, { ok: false, error: 'the app has no install page' });
    return true;
  }
  const fileId =
    method === 'GET' ? url.pathname.match(/^\/local\/files\/([\w-]+)(?:\/[^/]*)?$/)?.[1] : undefined;
  if (fileId) {
    sendFile(response, context.file(fileId), url.searchParams.has('download'));
    return true;
  }
  if (route === 'GET /local/events') {
    streamChanges(request, response, context);
    return true;
  }
  const action = ACTIONS[route];
  if (action) {
    const body = await readJson(request);
    try {
      const answer = await action(context, body);
      sendJson(response, 200, { ok: true, ...(answer ? { status: answer.status, ms: answer.ms } : {}) });
    } catch (error) {
      sendJson(response, 502, { ok: false, error: messageOf(error) });
    }
    return true;
  }
  if (route === 'GET /local/account') {
    const account = context.panel().account;
    if (!account) {
      sendJson(response, 404, { ok: false, error: 'no account panel' });
      return true;
    }
    try {
      sendJson(response, 200, { ok: true, ...(await account()) });
    } catch (error) {
      sendJson(response, 502, { ok: false, error: messageOf(error) });
    }
    return true;
  }
  if (route === 'POST /local/sim/new-exhibitor') {
    await newExhibitor(response, context);
    return true;
  }
  const job = url.pathname.match(/^\/local\/jobs\/([\w-]+)$/)?.[1];
  if (method === 'POST' && job) {
    const run = context.panel().jobs?.[job];
    if (!run) {
      sendJson(response, 404, { ok: false, error: `no job ${job}` });
      return true;
    }
    try {
      sendJson(response, 200, { ok: true, said: (await run()).said });
    } catch (error) {
      sendJson(response, 500, { ok: false, error: messageOf(error) });
    }
    return true;
  }
  sendJson(response, 404, { ok: false, error: `no route ${route}` });
  return true;
}

const FILE_TYPES: Record<string, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
};

/** A shared file's bytes, typed by its name, opened in the browser or (`download`) saved under its name. */
function sendFile(response: ServerResponse, file: FakeFile | undefined, download: boolean) {
  if (!file) {
    sendJson(response, 404, { ok: false, error: 'file_not_found' });
    return;
  }
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  // The name as RFC 5987 has it, so quotes or line breaks in it cannot break the header.
  const disposition = `${download ? 'attachment' : 'inline'}; filename*=UTF-8''${encodeURIComponent(file.name)}`;
  response.writeHead(200, {
    'content-type': FILE_TYPES[extension] ?? 'text/plain; charset=utf-8',
    'content-disposition': disposition,
    'cache-control': 'no-store',
  });
  response.end(file.content);
}

async function newExhibitor(response: ServerResponse, context: PageContext) {
  const add = context.panel().newExhibitor;
  if (!add) {
    sendJson(response, 404, { ok: false, error: 'no service data to change' });
    return;
  }
  try {
    sendJson(response, 200, { ok: true, message: await add() });
  } catch (error) {
    sendJson(response, 500, { ok: false, error: messageOf(error) });
  }
}

/** Server-sent events: one `change` per burst of stored-message changes; the page then refetches. */
function streamChanges(request: IncomingMessage, response: ServerResponse, context: PageContext) {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-store',
    connection: 'keep-alive',
  });
  response.write('retry: 1000\n\n');
  let version = 0;
  let pending: NodeJS.Timeout | undefined;
  const unsubscribe = context.onChange(() => {
    pending ??= setTimeout(() => {
      pending = undefined;
      response.write(`event: change\ndata: ${++version}\n\n`);
    }, 30);
  });
  // A comment line now and then keeps proxies and the browser from dropping an idle stream.
  const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), 15_000);
  request.on('close', () => {
    unsubscribe();
    clearInterval(keepAlive);
    if (pending) clearTimeout(pending);
  });
}
