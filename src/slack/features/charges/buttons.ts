import * as z from 'zod';

/** Confirm / Cancel on a confirmation card. */
export const ConfirmationValueSchema = z.object({ confirmationId: z.string().min(1).max(200) });

/**
 * The command a button runs again: a paid search's Previous / Next, Restart on an expired or cancelled
 * card. Shared: Share in channel carries it too (the command a private answer came from, run again in
 * the channel when shared; `views/share.ts`).
 */
export const CommandValueSchema = z.object({ text: z.string().min(1).max(5000) });

/** Export CSV on the spend card: the period it shows, as a word `/events spend` reads. */
export const SpendExportValueSchema = z.object({ period: z.string().min(1).max(20) });
export type SpendExportValue = z.infer<typeof SpendExportValueSchema>;
