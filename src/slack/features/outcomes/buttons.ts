import * as z from 'zod';
import { OUTCOME_ID_PATTERN } from './outcome-reading.ts';

/** What an outcome card's Delete button carries: the entry's id (it runs `/events outcome delete <id>`). */
export const OutcomeValueSchema = z.object({ id: z.string().regex(OUTCOME_ID_PATTERN) });
export type OutcomeValue = z.infer<typeof OutcomeValueSchema>;
