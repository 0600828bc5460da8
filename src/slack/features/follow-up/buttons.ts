import * as z from 'zod';
import { EventIdSchema, PersonnelIdSchema } from '../../../domain/ids.ts';

/** Draft outreach / LinkedIn activity under an unlock's results; `names` label the thread replies. */
export const FollowUpValueSchema = z.object({
  personnelIds: z.array(PersonnelIdSchema).min(1).max(100),
  names: z.record(z.string(), z.string().max(200)).optional(),
  /** The unlock's thread (the clicked reply's parent), where every answer goes. */
  threadTs: z.string().max(50).optional(),
  /** The event whose people list the unlock started from: the drafts are written for it. */
  eventId: EventIdSchema.optional(),
});
export type FollowUpValue = z.infer<typeof FollowUpValueSchema>;
