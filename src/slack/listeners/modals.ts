import type {
  AllMiddlewareArgs,
  App,
  BlockAction,
  ButtonAction,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { ModalView } from '@slack/types';
import * as z from 'zod';
import { isApprover } from '../../domain/approval.ts';
import { ListPageValueSchema } from '../button-values.ts';
import type { Job, JobContext } from '../jobs.ts';
import {
  CHANNEL_ID,
  FilterMetadataSchema,
  type FormResult,
  readDigestForm,
  readFilterForm,
  readResearchForm,
  readSearchForm,
  ResearchTargetSchema,
  type ViewValues,
} from '../modal-forms.ts';
import { ACTION_IDS } from '../views/action-ids.ts';
import {
  digestModal,
  isFilterableList,
  listFilterModal,
  MODAL_CALLBACKS,
  researchModal,
  searchModal,
  type SearchPrefill,
} from '../views/modals.ts';
import type { ListenerDeps } from './deps.ts';
import { parseValue } from './interaction.ts';
import { openModal } from './interaction.ts';
import { memberChannelsOf } from '../features/digests/access.ts';

type Submission = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** What a submission becomes: field errors for the modal, or the job that answers it. */
type Verdict = FormResult<Omit<Job, 'id'>>;

/**
 * Fills an open digest modal with the channel's digest as it stands or, for a new one, the
 * workspace's default time (distributed apps); left as opened when there is neither.
 */
export async function fillDigestModal(
  client: AllMiddlewareArgs['client'],
  viewId: string,
  channel: string,
  teamId: string | undefined,
  deps: Pick<ListenerDeps, 'digestSubscriptions' | 'digestDefaultsFor' | 'logger'>,
): Promise<void> {
  if (!teamId) return;
  try {
    const [current, defaults] = await Promise.all([
      deps.digestSubscriptions?.get(teamId, channel),
      deps.digestDefaultsFor?.(teamId),
    ]);
    if (current || defaults?.time || defaults?.timeZone)
      await client.views.update({
        view_id: viewId,
        view: digestModal(channel, current ?? undefined, defaults),
      });
  } catch (error) {
    deps.logger.warn('could not show the digest settings as they stand', { error });
  }
}

/** A spend approver, or a member of the channel (one `users.conversations` call); nobody when Slack cannot say. */
async function mayEditDigest(
  client: AllMiddlewareArgs['client'],
  deps: Pick<ListenerDeps, 'policyFor' | 'logger'>,
  who: { teamId: string | undefined; channel: string; userId: string; botToken: string | undefined },
): Promise<boolean> {
  try {
    if (who.teamId && isApprover(await deps.policyFor(who.teamId, who.botToken), who.userId)) return true;
    return (await memberChannelsOf(client)(who.userId)).has(who.channel);
  } catch (error) {
    deps.logger.warn('could not tell whether a user may see a digest', { error });
    return false;
  }
}

/** A button value naming a channel: the id itself, or JSON `"C123"` / `{ "channelId": "C123" }`. */
function channelValue(value: string | undefined): string | undefined {
  const raw = (value ?? '').trim();
  if (CHANNEL_ID.test(raw)) return raw;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const parsed = z.union([z.string(), z.object({ channelId: z.string() })]).safeParse(json);
  if (!parsed.success) return undefined;
  const channel = typeof parsed.data === 'string' ? parsed.data : parsed.data.channelId;
  return CHANNEL_ID.test(channel) ? channel : undefined;
}

function metadataOf<S extends z.ZodType>(
  view: { private_metadata: string },
  schema: S,
): z.output<S> | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(view.private_metadata || '{}'));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The buttons that open a modal: App Home's Search / Research / Edit digest, and a list card's Filter…. */
function registerOpeners(app: App, deps: ListenerDeps): void {
  const open = (actionId: string, viewOf: (body: BlockAction<ButtonAction>) => ModalView | undefined) =>
    app.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, client }) => {
      const view = viewOf(body);
      if (view) await openModal(client, body.trigger_id, view, deps.logger);
      else deps.logger.warn('a modal button carried a value that does not parse', { action: actionId });
      await ack();
    });

  open(ACTION_IDS.openSearch, () => searchModal());
  open(ACTION_IDS.openResearch, () => researchModal('', { privately: true }));
  app.action<BlockAction<ButtonAction>>(
    ACTION_IDS.openDigestSettings,
    async ({ ack, body, client, context }) => {
      const channel = channelValue(body.actions[0]?.value);
      const opened = channel && (await openModal(client, body.trigger_id, digestModal(channel), deps.logger));
      await ack();
      if (!channel || !opened) return;
      const teamId = body.team?.id ?? body.user.team_id;
      // A forged or stale button may name any channel: its filters are shown only to who may change them.
      if (
        !(await mayEditDigest(client, deps, {
          teamId,
          channel,
          userId: body.user.id,
          botToken: context.botToken,
        }))
      )
        return;
      // Opened first (the trigger id lasts 3 s), then filled in.
      await fillDigestModal(client, opened, channel, teamId, deps);
    },
  );
  open(ACTION_IDS.listFilter, (body) => {
    const value = ListPageValueSchema.safeParse(body.actions[0] && parseValue(body.actions[0]));
    const container: unknown = body.container.channel_id;
    const channelId = body.channel?.id ?? container;
    if (!value.success || typeof channelId !== 'string') return undefined;
    const { list, query } = value.data;
    // The events list's filters are the search modal's, its answer going back to the card's channel.
    if (list === 'events') return searchModal({ ...stringsOf(query), channelId });
    if (!isFilterableList(list)) return undefined;
    return listFilterModal({
      list,
      query,
      channelId,
      responseUrl: body.response_url,
      inPlace: body.container.is_ephemeral === true,
    });
  });
}

const stringsOf = (query: Record<string, unknown>): SearchPrefill =>
  Object.fromEntries(Object.entries(query).filter(([, value]) => typeof value === 'string'));

/** How each modal's submission is read: its form, and the job that answers it where it should go. */
const READERS: Record<string, (values: ViewValues, view: Submission['view'], who: Who) => Verdict> = {
  [MODAL_CALLBACKS.search]: (values, _view, who) => {
    const form = readSearchForm(values);
    if (!form.ok) return form;
    const { text, channelId } = form.value;
    return { ok: true, value: { kind: 'command', text, context: { ...who, channelId } } };
  },
  [MODAL_CALLBACKS.research]: (values, view, who) => {
    const target = metadataOf(view, ResearchTargetSchema) ?? { privately: true as const };
    const privately = 'privately' in target;
    const form = readResearchForm(values, privately);
    if (!form.ok) return form;
    const context: JobContext =
      'privately' in target
        ? { ...who, channelId: form.value.channelId ?? '' }
        : { ...who, channelId: target.channelId, threadTs: target.threadTs };
    return { ok: true, value: { kind: 'command', text: form.value.text, context } };
  },
  [MODAL_CALLBACKS.digest]: (values, view, who) => {
    const channelId = metadataOf(view, z.object({ channelId: z.string().min(1) }))?.channelId;
    if (!channelId) return { ok: false, errors: { time: 'This form is out of date; open it again.' } };
    const form = readDigestForm(values);
    if (!form.ok) return form;
    return { ok: true, value: { kind: 'command', text: form.value, context: { ...who, channelId } } };
  },
  [MODAL_CALLBACKS.filter]: (values, view, who) => {
    const metadata = metadataOf(view, FilterMetadataSchema);
    if (!metadata) return { ok: false, errors: {} };
    const form = readFilterForm(values, metadata);
    if (!form.ok) return form;
    const context: JobContext = {
      ...who,
      channelId: metadata.channelId,
      ...(metadata.responseUrl ? { responseUrl: metadata.responseUrl } : {}),
    };
    // A private card is replaced in place; a public one is left to everyone, the filtered list coming privately.
    return {
      ok: true,
      value: {
        kind: 'page',
        list: metadata.list,
        query: form.value,
        page: 1,
        fresh: !metadata.inPlace,
        context,
      },
    };
  },
};

type Who = Pick<JobContext, 'teamId' | 'userId'>;

/** Modal submissions: field errors shown in the modal, else the job handed to the worker and the modal closed. */
function registerSubmissions(app: App, deps: ListenerDeps): void {
  app.view<ViewSubmitAction>(/^modal\./, async ({ ack, body, view }: Submission) => {
    const log = deps.logger.child({
      team: body.team?.id ?? body.user.team_id,
      user: body.user.id,
      modal: view.callback_id,
    });
    const read = READERS[view.callback_id];
    const who: Who = { teamId: body.team?.id ?? body.user.team_id ?? 'unknown', userId: body.user.id };
    const verdict = read?.(view.state.values, view, who) ?? { ok: false, errors: {} };
    if (!verdict.ok) {
      log.info('modal submission refused', { fields: Object.keys(verdict.errors) });
      // No field to show an error on (an out-of-date modal): close it rather than leave it stuck.
      if (Object.keys(verdict.errors).length === 0) return ack();
      return ack({ response_action: 'errors', errors: verdict.errors });
    }
    const triggerId =
      'trigger_id' in body && typeof body.trigger_id === 'string'
        ? body.trigger_id
        : `${view.id}:${view.hash}`;
    try {
      await deps.dispatch({ ...verdict.value, id: `modal:${triggerId}` } as Job);
    } catch (error) {
      log.error('could not hand a modal submission to the worker', { error });
      const first = view.blocks.find((block) => block.type === 'input' && block.block_id);
      const field = first?.block_id ?? 'keywords';
      return ack({
        response_action: 'errors',
        errors: { [field]: 'The bot could not start this just now. Please try again in a minute.' },
      });
    }
    log.info('modal submission dispatched', { kind: verdict.value.kind });
    await ack();
  });
}

export function registerModals(app: App, deps: ListenerDeps): void {
  registerOpeners(app, deps);
  registerSubmissions(app, deps);
}
