import type { App } from '@slack/bolt';
import { parseValue } from '../../kit/interaction.ts';
import type { ListenerDeps } from '../../kit/listener-deps.ts';
import { metadataOf } from '../../kit/modal-forms.ts';
import { type ModalReader, registerModalOpener, registerModalSubmission } from '../../kit/modals.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { CostsMetadataSchema, CostsValueSchema } from './buttons.ts';
import { PLAN_COSTS_MODAL, planCostsModal } from './cost-views.ts';
import { readCostsForm } from './forms.ts';

/** The Costs… modal's fields, read back as `plan cost …` in the plan's channel; nothing changed closes it. */
const readCosts: ModalReader = (values, view, who) => {
  const metadata = metadataOf(view, CostsMetadataSchema);
  if (!metadata) return { ok: false, errors: { booth: 'This form is out of date; open it again.' } };
  const form = readCostsForm(values, metadata);
  if (!form.ok) return form;
  if (form.value === undefined) return { ok: false, errors: {} };
  return {
    ok: true,
    value: { kind: 'command', text: form.value, context: { ...who, channelId: metadata.channelId } },
  };
};

/**
 * Costs… on a plan row opens the show's costs modal (Add to plan, Remove and Export CSV stand for
 * `/events plan` commands: `PLAN_BUTTONS`).
 */
export function registerPlan(app: App, deps: ListenerDeps): void {
  registerModalOpener(app, deps, ACTION_IDS.planCosts, (body) => {
    const value = CostsValueSchema.safeParse(body.actions[0] && parseValue(body.actions[0]));
    const container: unknown = body.container.channel_id;
    const channelId = body.channel?.id ?? container;
    if (!value.success || typeof channelId !== 'string') return undefined;
    const { eventId, amounts } = value.data;
    return planCostsModal(value.data, { channelId, eventId, amounts });
  });
  registerModalSubmission(app, deps, PLAN_COSTS_MODAL, readCosts);
}
