import * as z from 'zod';

/** Confirm / Cancel on a confirmation card. */
export const ConfirmationValueSchema = z.object({ confirmationId: z.string().min(1).max(200) });

/** Export CSV on the spend card: the period it shows, as a word `/events spend` reads. */
export const SpendExportValueSchema = z.object({ period: z.string().min(1).max(20) });
export type SpendExportValue = z.infer<typeof SpendExportValueSchema>;
