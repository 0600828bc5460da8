import * as z from 'zod';
import type { EisCore } from './core.ts';
import { OutreachOptionsSchema } from './outreach-options.ts';
import { parseInput, PersonnelIdsInput } from './input.ts';
import {
  type OutreachDetail,
  OutreachDetailSchema,
  type OutreachGeneration,
  OutreachGenerationSchema,
} from './schemas.ts';

// Both ids are numeric strings of at most 20 characters (OpenAPI OutreachMessageRequest, getOutreachDetail).
const OutreachIdInput = z.string().regex(/^[0-9]{1,20}$/, 'expected a numeric id');

export const OutreachGenerationInputSchema = OutreachOptionsSchema.extend({
  personnelIds: PersonnelIdsInput,
  /** The event's internal `id` (not its public `eventId`): the service requires it here (0.26.0). */
  eventId: OutreachIdInput.optional(),
});
export type OutreachGenerationInput = z.input<typeof OutreachGenerationInputSchema>;

export const OutreachDetailInputSchema = z.object({
  personnelId: OutreachIdInput,
  /** The internal event `id` the drafts were generated for. */
  eventId: OutreachIdInput,
});
export type OutreachDetailInput = z.input<typeof OutreachDetailInputSchema>;

export interface OutreachApi {
  /**
   * Starts AI drafting of outreach messages (email and/or LinkedIn) for up to 2,000 people. Free per
   * the vendor; nothing is sent to anyone. Read the drafts with `detail` per person and event.
   */
  generate(input: OutreachGenerationInput): Promise<OutreachGeneration>;
  /** The latest drafts for one person and event; `found: false` until they are ready. Free. */
  detail(input: OutreachDetailInput): Promise<OutreachDetail>;
}

export function createOutreachApi(core: EisCore): OutreachApi {
  return {
    async generate(input) {
      const valid = parseInput('outreach.generate', OutreachGenerationInputSchema, input);
      return core.request({
        operation: 'outreach.generate',
        method: 'POST',
        path: '/external/personnel/generate-outreach-message',
        body: {
          personnel_ids: valid.personnelIds,
          event_id: valid.eventId,
          channels: valid.channels,
          linkedin_message_types: valid.linkedinMessageTypes,
          outreach_purpose: valid.outreachPurpose,
        },
        // free, and regenerating replaces the earlier drafts: a retry after a lost answer does no harm
        charging: false,
        schema: OutreachGenerationSchema,
      });
    },

    async detail(input) {
      const valid = parseInput('outreach.detail', OutreachDetailInputSchema, input);
      return core.request({
        operation: 'outreach.detail',
        method: 'GET',
        path: '/external/personnel/outreach',
        query: { personnel_id: valid.personnelId, event_id: valid.eventId },
        charging: false,
        schema: OutreachDetailSchema,
      });
    },
  };
}
