import * as z from 'zod';
import { type ButtonCommands, runs } from '../../kit/command-buttons.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { OUTCOME_ID_PATTERN } from './outcome-reading.ts';

/** What an outcome card's Delete button carries: the entry's id (it runs `/events outcome delete <id>`). */
export const OutcomeValueSchema = z.object({ id: z.string().regex(OUTCOME_ID_PATTERN) });
export type OutcomeValue = z.infer<typeof OutcomeValueSchema>;

/** Delete, on an outcome's card: `/events outcome delete <id>`, held to that command's audience. */
export const OUTCOME_BUTTONS = {
  [ACTION_IDS.outcomeDelete]: (value) => {
    const { id } = OutcomeValueSchema.parse(value);
    return runs({ name: 'outcome-delete', id }, `outcome delete ${id}`);
  },
} satisfies ButtonCommands;
