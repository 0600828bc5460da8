import { randomUUID } from 'node:crypto';
import { viewViolations } from './block-kit-check.ts';
import type { SlackMessage } from './messages.ts';
import { type Actor, interactionWorkspace, triggerId, type Workspace } from './payloads.ts';

/**
 * The fake Slack's surfaces beyond messages: modals and Home tabs (`views.*`), link unfurls
 * (`chat.unfurl`), custom workflow steps (`functions.complete*`), and the payloads Slack sends for
 * them (Events API callbacks, shortcuts, view submissions, clicks inside a view).
 */

type Args = Record<string, unknown>;

/** A modal or Home tab as the app last sent it, with its Block Kit problems. */
export interface FakeView {
  id: string;
  user: string;
  type: 'modal' | 'home';
  /** The view object as sent (`blocks`, `title`, `callback_id`, `private_metadata`, …). */
  view: Args;
  hash: string;
  /** Field errors from the last `response_action: errors`, by block id. */
  errors?: Record<string, string>;
  warnings: string[];
}

export interface Unfurl {
  channel: string;
  ts: string;
  unfurls: Record<string, unknown>;
}

export interface FunctionResult {
  functionExecutionId: string;
  outcome: 'success' | 'error';
  outputs?: Args;
  error?: string;
}

export interface SurfaceState {
  views: Map<string, FakeView>;
  homes: Map<string, string>;
  /** Each user's open modals, the top last (Slack allows 3). */
  modalStacks: Map<string, string[]>;
  usedTriggers: Set<string>;
  /** Whether a trigger id expires after `TRIGGER_LIFETIME_MS` (real time), as Slack's do. */
  triggersExpire: boolean;
  unfurls: Unfurl[];
  functionResults: FunctionResult[];
  seq: number;
}

export function createSurfaceState(triggersExpire = true): SurfaceState {
  return {
    triggersExpire,
    views: new Map(),
    homes: new Map(),
    modalStacks: new Map(),
    usedTriggers: new Set(),
    unfurls: [],
    functionResults: [],
    seq: 0,
  };
}

// --- Web API methods ---

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const asArgs = (value: unknown): Args | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Args) : undefined;

/** Slack's trigger ids expire 3 s after the interaction and work once; ours carry their issue time. */
export const TRIGGER_LIFETIME_MS = 3000;

function triggerError(surfaces: SurfaceState, trigger: string, now = Date.now()): string | undefined {
  const issuedAt = Number(trigger.split('.')[0]);
  if (!trigger || !Number.isFinite(issuedAt)) return 'invalid_trigger_id';
  if (surfaces.usedTriggers.has(trigger)) return 'exchanged_trigger_id';
  if (surfaces.triggersExpire && now - issuedAt > TRIGGER_LIFETIME_MS) return 'expired_trigger_id';
  surfaces.usedTriggers.add(trigger);
  return undefined;
}

/** The user a trigger id was issued to: ours end with `.<user>` (see `payloads.ts`). */
const triggerUser = (trigger: string) => trigger.split('.').pop() ?? '';

function storeView(surfaces: SurfaceState, user: string, type: FakeView['type'], view: Args, id?: string) {
  const stored: FakeView = {
    id: id ?? `V${String(++surfaces.seq).padStart(8, '0')}`,
    user,
    type,
    view,
    hash: randomUUID(),
    warnings: viewViolations(type, view),
  };
  surfaces.views.set(stored.id, stored);
  return stored;
}

/** The view object Slack answers with (and sends back in later payloads). */
export function viewObject(stored: FakeView, teamId = 'T0LOCAL', values: Args = {}): Args {
  return {
    ...stored.view,
    id: stored.id,
    team_id: teamId,
    type: stored.type,
    hash: stored.hash,
    private_metadata: text(stored.view.private_metadata),
    callback_id: text(stored.view.callback_id),
    app_id: 'A0LOCAL',
    bot_id: 'BBOT',
    state: { values },
  };
}

function openModal(surfaces: SurfaceState, args: Args, push: boolean): Args {
  const trigger = text(args.trigger_id);
  const view = asArgs(args.view);
  if (!view) return { ok: false, error: 'invalid_arguments' };
  const error = triggerError(surfaces, trigger);
  if (error) return { ok: false, error };
  const user = triggerUser(trigger);
  const stack = push ? (surfaces.modalStacks.get(user) ?? []) : [];
  if (stack.length >= 3) return { ok: false, error: 'push_limit_reached' };
  const stored = storeView(surfaces, user, 'modal', view);
  surfaces.modalStacks.set(user, [...stack, stored.id]);
  return { view: viewObject(stored) };
}

function updateView(surfaces: SurfaceState, args: Args): Args {
  const existing = surfaces.views.get(text(args.view_id));
  const view = asArgs(args.view);
  if (!existing || !view) return { ok: false, error: 'not_found' };
  if (args.hash !== undefined && args.hash !== existing.hash) return { ok: false, error: 'hash_conflict' };
  const stored = storeView(surfaces, existing.user, existing.type, view, existing.id);
  return { view: viewObject(stored) };
}

function publishHome(surfaces: SurfaceState, args: Args): Args {
  const user = text(args.user_id);
  const view = asArgs(args.view);
  if (!user || !view) return { ok: false, error: 'invalid_arguments' };
  if (view.type !== 'home') return { ok: false, error: 'invalid_arguments' };
  const stored = storeView(surfaces, user, 'home', view, surfaces.homes.get(user));
  surfaces.homes.set(user, stored.id);
  return { view: viewObject(stored) };
}

function unfurl(surfaces: SurfaceState, args: Args, messages: SlackMessage[]): Args {
  const channel = text(args.channel);
  const ts = text(args.ts);
  const unfurls = asArgs(args.unfurls);
  if (!unfurls) return { ok: false, error: 'invalid_unfurls' };
  if (!messages.some((m) => m.channel === channel && m.ts === ts))
    return { ok: false, error: 'cannot_unfurl_message' };
  surfaces.unfurls.push({ channel, ts, unfurls });
  return {};
}

function completeFunction(surfaces: SurfaceState, args: Args, outcome: FunctionResult['outcome']): Args {
  const functionExecutionId = text(args.function_execution_id);
  if (!functionExecutionId) return { ok: false, error: 'invalid_arguments' };
  if (surfaces.functionResults.some((r) => r.functionExecutionId === functionExecutionId))
    return { ok: false, error: 'function_execution_not_found' };
  const outputs = asArgs(args.outputs);
  surfaces.functionResults.push({
    functionExecutionId,
    outcome,
    ...(outputs ? { outputs } : {}),
    ...(outcome === 'error' ? { error: text(args.error) } : {}),
  });
  return {};
}

/** The surface methods of the Web API; `messages` are the stored ones (unfurls attach to them). */
export function surfaceWebApi(
  surfaces: SurfaceState,
  messages: () => SlackMessage[],
): Record<string, (args: Args) => Args> {
  return {
    'views.open': (args) => openModal(surfaces, args, false),
    'views.push': (args) => openModal(surfaces, args, true),
    'views.update': (args) => updateView(surfaces, args),
    'views.publish': (args) => publishHome(surfaces, args),
    'chat.unfurl': (args) => unfurl(surfaces, args, messages()),
    'functions.completeSuccess': (args) => completeFunction(surfaces, args, 'success'),
    'functions.completeError': (args) => completeFunction(surfaces, args, 'error'),
  };
}

// --- What Slack sends the app ---

export const topModal = (surfaces: SurfaceState, user: string): FakeView | undefined => {
  const stack = surfaces.modalStacks.get(user) ?? [];
  const id = stack[stack.length - 1];
  return id ? surfaces.views.get(id) : undefined;
};

const userOf = (actor: Actor) => ({
  id: actor.userId,
  username: actor.userName ?? actor.userId.toLowerCase(),
  team_id: actor.userTeamId ?? actor.teamId,
});

/** An Events API delivery (JSON); `eventId` stays the same across Slack's retries of it. */
export function eventCallbackBody({ teamId, enterprise }: Workspace, event: Args, eventId: string): string {
  return JSON.stringify({
    token: 'deprecated-verification-token',
    team_id: teamId,
    ...(enterprise ? { enterprise_id: enterprise.id } : {}),
    api_app_id: 'A0LOCAL',
    event: { event_ts: `${Date.now() / 1000}`, ...event },
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: enterprise?.id ?? null,
        team_id: teamId,
        user_id: 'UBOT',
        is_bot: true,
        is_enterprise_install: enterprise?.orgWideInstall === true,
      },
    ],
    is_ext_shared_channel: false,
  });
}

const interactionBody = (payload: Args) =>
  new URLSearchParams({ payload: JSON.stringify(payload) }).toString();

/** A global shortcut (`shortcut`) chosen from the shortcuts menu. */
export function globalShortcutBody(actor: Actor, callbackId: string): string {
  return interactionBody({
    type: 'shortcut',
    token: 'deprecated-verification-token',
    action_ts: `${Date.now() / 1000}`,
    ...interactionWorkspace(actor),
    user: userOf(actor),
    callback_id: callbackId,
    trigger_id: triggerId(actor.userId),
  });
}

/** A message shortcut (`message_action`) chosen from a message's "More actions" menu. */
export function messageShortcutBody(
  actor: Actor,
  message: Pick<SlackMessage, 'channel' | 'ts' | 'text' | 'user' | 'blocks'>,
  callbackId: string,
  responseUrl: string,
): string {
  return interactionBody({
    type: 'message_action',
    token: 'deprecated-verification-token',
    action_ts: `${Date.now() / 1000}`,
    ...interactionWorkspace(actor),
    user: userOf(actor),
    channel: { id: message.channel, name: message.channel.toLowerCase() },
    callback_id: callbackId,
    trigger_id: triggerId(actor.userId),
    message_ts: message.ts,
    message: {
      type: 'message',
      user: message.user,
      ts: message.ts,
      text: message.text,
      blocks: message.blocks,
    },
    response_url: responseUrl,
  });
}

/** A modal's submit button, with the input values (`{ [blockId]: { [actionId]: value } }`). */
export function viewSubmissionBody(
  actor: Actor,
  view: FakeView,
  values: Args,
  responseUrls: { block_id: string; action_id: string; channel_id: string; response_url: string }[] = [],
): string {
  return interactionBody({
    type: 'view_submission',
    token: 'deprecated-verification-token',
    ...interactionWorkspace(actor),
    user: userOf(actor),
    view: viewObject(view, actor.teamId, values),
    trigger_id: triggerId(actor.userId),
    response_urls: responseUrls,
  });
}

/** A modal closed with its Close button or ✕ (sent only when the view asked, `notify_on_close`). */
export function viewClosedBody(actor: Actor, view: FakeView, isCleared: boolean): string {
  return interactionBody({
    type: 'view_closed',
    token: 'deprecated-verification-token',
    ...interactionWorkspace(actor),
    user: userOf(actor),
    api_app_id: 'A0LOCAL',
    view: viewObject(view, actor.teamId),
    is_cleared: isCleared,
  });
}

/** Closes `user`'s top modal (Close goes back to the one below it, as in Slack) and answers it. */
export function closeTopModal(surfaces: SurfaceState, user: string): FakeView | undefined {
  const stack = surfaces.modalStacks.get(user) ?? [];
  const top = topModal(surfaces, user);
  surfaces.modalStacks.set(user, stack.slice(0, -1));
  return top;
}

/** A click (or a select's choice) inside a modal or the Home tab. */
export function viewActionBody(actor: Actor, view: FakeView, action: Args, values: Args = {}): string {
  return interactionBody({
    type: 'block_actions',
    token: 'deprecated-verification-token',
    ...interactionWorkspace(actor),
    user: userOf(actor),
    api_app_id: 'A0LOCAL',
    container: { type: 'view', view_id: view.id },
    trigger_id: triggerId(actor.userId),
    view: viewObject(view, actor.teamId, values),
    actions: [{ action_ts: `${Date.now() / 1000}`, ...action }],
  });
}

function safeParse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/**
 * What Slack does with a `view_submission`'s answer: field errors shown in the modal, the modal
 * replaced or another pushed, or (an empty answer) the modal closed.
 */
export function applySubmissionAnswer(surfaces: SurfaceState, view: FakeView, body: string): void {
  const parsed: unknown = body.trim() ? safeParse(body) : {};
  const answer = asArgs(parsed) ?? {};
  const stack = surfaces.modalStacks.get(view.user) ?? [];
  const next = asArgs(answer.view);
  if (answer.response_action === 'errors') {
    view.errors = Object.fromEntries(
      Object.entries(asArgs(answer.errors) ?? {}).map(([block, message]) => [block, text(message)]),
    );
  } else if (answer.response_action === 'update' && next) {
    storeView(surfaces, view.user, 'modal', next, view.id);
  } else if (answer.response_action === 'push' && next) {
    surfaces.modalStacks.set(view.user, [...stack, storeView(surfaces, view.user, 'modal', next).id]);
  } else if (answer.response_action === 'clear') {
    surfaces.modalStacks.set(view.user, []);
  } else {
    surfaces.modalStacks.set(
      view.user,
      stack.filter((id) => id !== view.id),
    );
  }
}
