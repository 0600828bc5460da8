import type { App, BlockAction, ButtonAction, GlobalShortcut } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { Job, JobContext } from '../../kit/jobs.ts';
import { metadataOf } from '../../kit/modal-forms.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { answeringFailures } from '../../kit/answer-failures.ts';
import { outOfDate, threadOf } from '../../kit/command-buttons.ts';
import type { ListenerDeps } from '../../kit/listener-deps.ts';
import { contextOf, openModal, parseValue } from '../../kit/interaction.ts';
import { type ModalReader, registerModalOpener, registerModalSubmission } from '../../kit/modals.ts';
import {
  FILTER_MODAL,
  isFilterableList,
  listFilterModal,
  SEARCH_MODAL,
  searchModal,
  type SearchPrefill,
} from './filter-views.ts';
import { FilterMetadataSchema, readFilterForm, readSearchForm } from './forms.ts';
import { type ListPageValue, ListPageValueSchema } from '../../kit/job-values.ts';

/** The search shortcut's id, as declared in the app manifests. */
export const SEARCH_SHORTCUT = 'search_events';

/** The lists' buttons, shortcut and modals: paging, Show all, Export CSV, Filter…, search (Unlock and Emails / Phones: `LIST_BUTTONS`). */
export function registerLists(app: App, deps: ListenerDeps): void {
  registerPaging(app, deps);
  registerExportAction(app, deps);
  registerSearch(app, deps);
  registerFilter(app, deps);
}

function registerPaging(app: App, deps: ListenerDeps): void {
  // Previous / Next: the worker re-renders the same message with the other page.
  app.action<BlockAction<ButtonAction>>(
    /^list\.page/,
    answeringFailures(deps.logger, async ({ ack, body, action, respond }) => {
      await ack();
      const value = ListPageValueSchema.safeParse(parseValue(action));
      if (!value.success) {
        return outOfDate(respond);
      }
      await deps.dispatch({
        kind: 'page',
        id: `page:${body.trigger_id}`,
        ...value.data,
        context: contextOf(body),
      });
    }),
  );

  // Show all on a card naming many people: their list, privately, leaving the card as it is.
  app.action<BlockAction<ButtonAction>>(
    ACTION_IDS.showAllPeople,
    answeringFailures(deps.logger, async ({ ack, body, action, respond }) => {
      await ack();
      const value = ListPageValueSchema.safeParse(parseValue(action));
      if (!value.success) return outOfDate(respond);
      await deps.dispatch({
        kind: 'page',
        id: `people:${body.trigger_id}`,
        ...value.data,
        fresh: true,
        context: { ...contextOf(body), messageTs: undefined },
      });
    }),
  );
}

/** The export of the card clicked: its file goes in the card's thread, or privately for a private card. */
function exportJob(body: BlockAction, value: ListPageValue): Job {
  const isPrivate = body.container.is_ephemeral === true;
  const message = body.message;
  const card =
    message && Array.isArray(message.blocks)
      ? { text: typeof message.text === 'string' ? message.text : '', blocks: message.blocks as KnownBlock[] }
      : undefined;
  const threadTs = threadOf(message);
  return {
    kind: 'export',
    id: `export:${body.trigger_id}`,
    ...value,
    private: isPrivate,
    ...(card ? { card } : {}),
    context: { ...contextOf(body), ...(!isPrivate && threadTs ? { threadTs } : {}) },
  };
}

/** Export CSV on a list card: the worker reads every page (free reads only) and uploads one file. */
function registerExportAction(app: App, deps: ListenerDeps): void {
  app.action<BlockAction<ButtonAction>>(
    ACTION_IDS.listExport,
    answeringFailures(deps.logger, async ({ ack, body, action, respond }) => {
      await ack();
      const value = ListPageValueSchema.safeParse(parseValue(action));
      if (!value.success) return outOfDate(respond);
      await deps.dispatch(exportJob(body, value.data));
    }),
  );
}

const readSearch: ModalReader = (values, _view, who) => {
  const form = readSearchForm(values);
  if (!form.ok) return form;
  const { text, channelId } = form.value;
  return { ok: true, value: { kind: 'command', text, context: { ...who, channelId } } };
};

/** The search modal, from the shortcuts menu or App Home: its answer goes privately to a channel the user picks. */
function registerSearch(app: App, deps: ListenerDeps): void {
  app.shortcut<GlobalShortcut>(SEARCH_SHORTCUT, async ({ ack, shortcut, client }) => {
    await openModal(client, shortcut.trigger_id, searchModal(), deps.logger);
    await ack();
  });
  registerModalOpener(app, deps, ACTION_IDS.openSearch, () => searchModal());
  registerModalSubmission(app, deps, SEARCH_MODAL, readSearch);
}

const stringsOf = (query: Record<string, unknown>): SearchPrefill =>
  Object.fromEntries(Object.entries(query).filter(([, value]) => typeof value === 'string'));

const readFilter: ModalReader = (values, view, who) => {
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
};

/** Filter… on a list card: the list's filter modal, or for the events list the search modal. */
function registerFilter(app: App, deps: ListenerDeps): void {
  registerModalOpener(app, deps, ACTION_IDS.listFilter, (body) => {
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
  registerModalSubmission(app, deps, FILTER_MODAL, readFilter);
}
