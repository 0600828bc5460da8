import type { App } from '@slack/bolt';
import * as z from 'zod';
import { metadataOf } from '../../kit/modal-forms.ts';
import { registerCommandButtons } from '../../kit/command-buttons.ts';
import type { ListenerDeps } from '../../kit/listener-deps.ts';
import { type ModalReader, registerModalSubmission } from '../../kit/modals.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import {
  WatchChoiceValueSchema,
  WatchPageValueSchema,
  WatchRowValueSchema,
  watchPageWords,
} from './buttons.ts';
import { readImportForm } from './forms.ts';
import { importBox, WATCH_IMPORT_MODAL } from './import-views.ts';

/** A list page's button carries its page; an alert's Show all carries `alert` (its rows, from its thread). */
const ShowAllValueSchema = z.object({
  page: z.number().int().min(1).max(1000).optional(),
  alert: z.literal(true).optional(),
});

/** The import modal's boxes, read together; refused in the modal (nothing stored) when they do not read. */
const readImport: ModalReader = (values, view, who) => {
  const channelId = metadataOf(view, z.object({ channelId: z.string().min(1) }))?.channelId;
  if (!channelId)
    return { ok: false, errors: { [importBox(1)]: 'This form is out of date; open it again.' } };
  const form = readImportForm(values);
  if (!form.ok) return form;
  return { ok: true, value: { kind: 'watch-import', text: form.value, context: { ...who, channelId } } };
};

/**
 * A watch alert's buttons, each its `/events` command (Fit, People, Mute, Show all, Export CSV,
 * Previous / Next of `watch shows` and `watch list`), an
 * ambiguous account's This one (`watch choose`, run in the clicker's own workspace and channel), and
 * the import modal.
 */
export function registerWatch(app: App, deps: ListenerDeps): void {
  registerCommandButtons(app, deps, {
    [ACTION_IDS.watchFit]: (value) => `fit ${WatchRowValueSchema.parse(value).eventId}`,
    [ACTION_IDS.watchPeople]: (value) => {
      const row = WatchRowValueSchema.parse(value);
      return `people ${row.eventId}${row.exhibitorId ? ` exhibitor:${row.exhibitorId}` : ''}`;
    },
    [ACTION_IDS.watchMute]: (value) => `watch mute ${WatchRowValueSchema.parse(value).label}`,
    [ACTION_IDS.watchShowAll]: (value) => {
      const showAll = ShowAllValueSchema.parse(value);
      return showAll.alert ? 'watch alert' : `watch list ${showAll.page ?? 1}`;
    },
    [ACTION_IDS.watchExport]: () => 'watch export',
    [ACTION_IDS.watchPagePrevious]: (value) => watchPageWords(WatchPageValueSchema.parse(value)),
    [ACTION_IDS.watchPageNext]: (value) => watchPageWords(WatchPageValueSchema.parse(value)),
    [ACTION_IDS.watchChoose]: (value) => {
      const choice = WatchChoiceValueSchema.parse(value);
      return `watch choose ${choice.exhibitorId} ${choice.label}`;
    },
  });
  registerModalSubmission(app, deps, WATCH_IMPORT_MODAL, readImport);
}
