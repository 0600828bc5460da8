import * as z from 'zod';
import { commandTextOf } from '../../kit/charge-words.ts';
import { type ButtonCommands, runs } from '../../kit/command-buttons.ts';
import { AskAgainValueSchema } from '../../kit/job-values.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { commandAsking, spendPeriodOf } from './commands.ts';

/** Confirm / Cancel on a confirmation card. */
export const ConfirmationValueSchema = z.object({ confirmationId: z.string().min(1).max(200) });

/** Export CSV on the spend card: the period it shows, as a word `/events spend` reads. */
export const SpendExportValueSchema = z.object({ period: z.string().min(1).max(20) });
export type SpendExportValue = z.infer<typeof SpendExportValueSchema>;

/** Start again, and a paid search's Previous / Next: the charge asked for again, by its command. */
function askAgain(value: unknown) {
  const { askAgain } = AskAgainValueSchema.parse(value);
  return runs(commandAsking(askAgain), commandTextOf(askAgain));
}

/**
 * The charges room's buttons that stand for `/events` commands: each asks again, through a new
 * confirmation card (every page of a paid search charges), and the spend card's Export CSV (free).
 */
export const CHARGE_BUTTONS = {
  [ACTION_IDS.searchPagePrevious]: askAgain,
  [ACTION_IDS.searchPageNext]: askAgain,
  [ACTION_IDS.confirmRestart]: askAgain,
  [ACTION_IDS.spendExport]: (value) => {
    const period = spendPeriodOf(SpendExportValueSchema.parse(value).period);
    if (!period) throw new Error('the spend card names no period');
    return runs({ name: 'spend', period, export: true }, `spend ${period} export`);
  },
} satisfies ButtonCommands;
