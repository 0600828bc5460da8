import type { App } from '@slack/bolt';
import * as z from 'zod';
import { metadataOf } from '../../kit/modal-forms.ts';
import type { ListenerDeps } from '../../kit/listener-deps.ts';
import { type ModalReader, registerModalSubmission } from '../../kit/modals.ts';
import { readImportForm } from './forms.ts';
import { importBox, WATCH_IMPORT_MODAL } from './import-views.ts';

/** The import modal's boxes, read together; refused in the modal (nothing stored) when they do not read. */
const readImport: ModalReader = (values, view, who) => {
  const channelId = metadataOf(view, z.object({ channelId: z.string().min(1) }))?.channelId;
  if (!channelId)
    return { ok: false, errors: { [importBox(1)]: 'This form is out of date; open it again.' } };
  const form = readImportForm(values);
  if (!form.ok) return form;
  return { ok: true, value: { kind: 'watch-import', text: form.value, context: { ...who, channelId } } };
};

/** The import modal (a watch alert's buttons stand for `/events` commands: `WATCH_BUTTONS`). */
export function registerWatch(app: App, deps: ListenerDeps): void {
  registerModalSubmission(app, deps, WATCH_IMPORT_MODAL, readImport);
}
