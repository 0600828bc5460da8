/**
 * Slack canvases as the fake keeps them: a channel canvas per channel (`conversations.canvases.create`),
 * canvas tabs (`canvases.create` with a channel), and whole-document replaces (`canvases.edit`).
 * Only markdown content is taken, as Slack's API does.
 */

type Args = Record<string, unknown>;

export interface FakeCanvas {
  id: string;
  channel: string;
  /** The workspace of the token that created it, when the fake issued it. */
  teamId?: string;
  title: string;
  markdown: string;
  /** Whether it is the channel's own canvas (one per channel) or a tab beside it. */
  channelCanvas: boolean;
  /** `canvases.edit` calls it took. */
  edits: number;
}

export interface CanvasState {
  canvases: Map<string, FakeCanvas>;
  seq: number;
}

export const createCanvasState = (): CanvasState => ({ canvases: new Map(), seq: 0 });

function markdownOf(content: unknown): string | undefined {
  const parsed: unknown = typeof content === 'string' ? safeJson(content) : content;
  if (!parsed || typeof parsed !== 'object') return undefined;
  const { type, markdown } = parsed as Args;
  return type === 'markdown' && typeof markdown === 'string' ? markdown : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const sameTeam = (canvas: FakeCanvas, team: string | undefined) =>
  canvas.teamId === undefined || team === undefined || canvas.teamId === team;

/**
 * The canvas methods over `state`; `channelError` says why a channel cannot be written to (absent,
 * the bot not in it), `team` is the calling token's workspace.
 */
export function canvasWebApi(
  state: CanvasState,
  channelError: (channel: string) => string | undefined,
  team: () => string | undefined,
): Record<string, (args: Args) => Args> {
  const create = (args: Args, channelCanvas: boolean): Args => {
    const channel = typeof args.channel_id === 'string' ? args.channel_id : '';
    const error = channel ? channelError(channel) : channelCanvas ? 'channel_not_found' : undefined;
    if (error) return { ok: false, error };
    const markdown = args.document_content === undefined ? '' : markdownOf(args.document_content);
    if (markdown === undefined) return { ok: false, error: 'invalid_arguments' };
    const taken = [...state.canvases.values()].some(
      (c) => c.channelCanvas && c.channel === channel && sameTeam(c, team()),
    );
    if (channelCanvas && taken) return { ok: false, error: 'channel_canvas_already_exists' };
    const id = `F0CANVAS${String(++state.seq).padStart(4, '0')}`;
    const caller = team();
    state.canvases.set(id, {
      id,
      channel,
      ...(caller ? { teamId: caller } : {}),
      title: typeof args.title === 'string' ? args.title : 'Untitled',
      markdown,
      channelCanvas,
      edits: 0,
    });
    return { canvas_id: id };
  };
  return {
    'conversations.canvases.create': (args) => create(args, true),
    'canvases.create': (args) => create(args, false),
    'canvases.edit': (args) => {
      const canvas = state.canvases.get(typeof args.canvas_id === 'string' ? args.canvas_id : '');
      if (!canvas || !sameTeam(canvas, team())) return { ok: false, error: 'canvas_not_found' };
      const changes = Array.isArray(args.changes) ? args.changes : safeJson(String(args.changes));
      const [change] = Array.isArray(changes) ? (changes as Args[]) : [];
      const markdown = markdownOf(change?.document_content);
      if (change?.operation !== 'replace' || change.section_id !== undefined || markdown === undefined)
        return { ok: false, error: 'invalid_arguments' };
      canvas.markdown = markdown;
      canvas.edits += 1;
      return {};
    },
  };
}
