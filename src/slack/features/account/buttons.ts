import * as z from 'zod';

/** An exhibitor id, numeric as `/events account` takes it (Open on a company-name search's records). */
export const ExhibitorValueSchema = z.object({ exhibitorId: z.string().regex(/^\d{1,20}$/) });
