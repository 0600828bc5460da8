import * as z from 'zod';
import { EventIdSchema } from '../../../domain/ids.ts';
import { PLAN_COST_MAX } from '../../../domain/plan/show-costs.ts';
import { COST_KINDS } from '../../../domain/ports/records.ts';
import { type ButtonCommands, runs } from '../../kit/command-buttons.ts';
import { EventValueSchema } from '../../kit/row-buttons.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';

/** The plan room's own button values. */

const Hundredths = z
  .number()
  .int()
  .min(0)
  .max(PLAN_COST_MAX * 100);

/** A show's costs as the card showed them, by kind (hundredths); the modal starts from them. */
export const ShowCostsSchema = z.partialRecord(z.enum(COST_KINDS), Hundredths);
export type ShowCostsValue = z.infer<typeof ShowCostsSchema>;

/** Costs…, on a row of the plan card: the show, its name as shown, its costs then. */
export const CostsValueSchema = z.object({
  eventId: EventIdSchema,
  name: z.string().max(100),
  amounts: ShowCostsSchema,
});
export type CostsValue = z.infer<typeof CostsValueSchema>;

/** What the Costs… modal keeps until it is submitted: the channel of the plan, the show, the costs it began with. */
export const CostsMetadataSchema = z.object({
  channelId: z.string().min(1),
  eventId: EventIdSchema,
  amounts: ShowCostsSchema,
});
export type CostsMetadata = z.infer<typeof CostsMetadataSchema>;

/** Add to plan (on any row or card naming a show), Remove and Export CSV (on the plan card). */
export const PLAN_BUTTONS = {
  [ACTION_IDS.planAdd]: (value) => {
    const { eventId } = EventValueSchema.parse(value);
    return runs({ name: 'plan-add', eventId }, `plan add ${eventId}`);
  },
  [ACTION_IDS.planRemove]: (value) => {
    const { eventId } = EventValueSchema.parse(value);
    return runs({ name: 'plan-remove', eventId }, `plan remove ${eventId}`);
  },
  [ACTION_IDS.planExport]: () => runs({ name: 'plan-export' }, 'plan export'),
} satisfies ButtonCommands;
