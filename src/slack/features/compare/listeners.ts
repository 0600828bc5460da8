import type { App } from '@slack/bolt';
import { metadataOf } from '../../kit/modal-forms.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import type { ListenerDeps } from '../../kit/listener-deps.ts';
import { parseValue } from '../../kit/interaction.ts';
import { type ModalReader, registerModalOpener, registerModalSubmission } from '../../kit/modals.ts';
import { CompareMetadataSchema, CompareValueSchema } from './buttons.ts';
import { readCompareForm } from './forms.ts';
import { COMPARE_MODAL, compareModal } from './views.ts';

/** The picked shows, compared where the list was (its channel; privately for a private list). */
const readCompare: ModalReader = (values, view, who) => {
  const metadata = metadataOf(view, CompareMetadataSchema);
  if (!metadata) return { ok: false, errors: {} };
  const form = readCompareForm(values);
  if (!form.ok) return form;
  return {
    ok: true,
    value: {
      kind: 'compare',
      eventIds: form.value,
      private: metadata.private,
      context: {
        ...who,
        channelId: metadata.channelId,
        ...(metadata.private && metadata.responseUrl ? { responseUrl: metadata.responseUrl } : {}),
      },
    },
  };
};

/** Compare… on a list of shows: a modal of the page's shows to pick from, then one compare card. */
export function registerCompare(app: App, deps: ListenerDeps): void {
  registerModalOpener(app, deps, ACTION_IDS.compareOpen, (body) => {
    const value = CompareValueSchema.safeParse(body.actions[0] && parseValue(body.actions[0]));
    const container: unknown = body.container.channel_id;
    const channelId = body.channel?.id ?? container;
    if (!value.success || typeof channelId !== 'string') return undefined;
    const isPrivate = body.container.is_ephemeral === true;
    return compareModal(value.data.shows, {
      channelId,
      private: isPrivate,
      ...(isPrivate && body.response_url ? { responseUrl: body.response_url } : {}),
    });
  });
  registerModalSubmission(app, deps, COMPARE_MODAL, readCompare);
}
