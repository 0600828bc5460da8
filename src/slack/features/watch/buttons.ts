import * as z from 'zod';
import { EventIdSchema } from '../../../domain/ids.ts';

/** What a watch alert row's buttons carry: the show, the account's exhibitor record, its name. */
export const WatchRowValueSchema = z.object({
  eventId: EventIdSchema,
  exhibitorId: z
    .string()
    .regex(/^\d{1,20}$/)
    .optional(),
  /** The account as the channel wrote it (Mute runs `/events watch mute <label>`). */
  label: z.string().min(1).max(200),
});
export type WatchRowValue = z.infer<typeof WatchRowValueSchema>;

/** What a candidate's This one button carries: the account as the channel wrote it, and the exhibitor chosen. */
export const WatchChoiceValueSchema = z.object({
  label: z.string().min(1).max(200),
  exhibitorId: z.string().regex(/^\d{1,20}$/),
});
export type WatchChoiceValue = z.infer<typeof WatchChoiceValueSchema>;
