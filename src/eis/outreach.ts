import { call } from './call.ts';
import type { EisCore } from './core.ts';
import { rowOf } from './operations.ts';
import type { OutreachDetailInput, OutreachGenerationInput } from './requests.ts';
import type { OutreachDetail, OutreachGeneration } from './schemas.ts';

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
    // free, and regenerating replaces the earlier drafts: a retry after a lost answer does no harm
    generate: (input) =>
      call(core, rowOf('outreach.generate'), input, (valid) => ({
        body: {
          personnel_ids: valid.personnelIds,
          event_id: valid.eventId,
          channels: valid.channels,
          linkedin_message_types: valid.linkedinMessageTypes,
          outreach_purpose: valid.outreachPurpose,
        },
      })),
    detail: (input) =>
      call(core, rowOf('outreach.detail'), input, (valid) => ({
        query: { personnel_id: valid.personnelId, event_id: valid.eventId },
      })),
  };
}
