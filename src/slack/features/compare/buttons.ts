import * as z from 'zod';
import { EventIdSchema } from '../../../domain/ids.ts';

/** A show offered in the Compare… modal: its id, and its name as the list showed it. */
export const PickableShowSchema = z.object({ eventId: EventIdSchema, name: z.string().max(200) });
export type PickableShow = z.infer<typeof PickableShowSchema>;

/** Compare… on a list card: the shows of the page it was pressed on (at most a checkbox group's 10). */
export const CompareValueSchema = z.object({ shows: z.array(PickableShowSchema).min(1).max(10) });
export type CompareValue = z.infer<typeof CompareValueSchema>;

/** What the Compare… modal keeps between opening and submission: where the list was, and how. */
export const CompareMetadataSchema = z.object({
  channelId: z.string().min(1),
  /** The list card's response URL, for a private list: the card comes back privately. */
  responseUrl: z.string().optional(),
  /** The list was ephemeral (only the user saw it). */
  private: z.boolean(),
});
export type CompareMetadata = z.infer<typeof CompareMetadataSchema>;
