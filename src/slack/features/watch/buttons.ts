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

/** Previous / Next of a watch page: which page of `watch shows` (its filters) or of `watch list`. */
export const WatchPageValueSchema = z.object({
  view: z.enum(['shows', 'list']),
  page: z.number().int().min(1).max(1000),
  /** The filters as the parser kept them (re-read by it when the button runs the words). */
  region: z.string().min(1).max(40).optional(),
  when: z.string().min(1).max(20).optional(),
});
export type WatchPageValue = z.infer<typeof WatchPageValueSchema>;

/** The `/events` words a page button runs (the parser checks them again, as if typed). */
export function watchPageWords(value: WatchPageValue): string {
  if (value.view === 'list') return `watch list ${value.page}`;
  const filters = [value.region && `region:${value.region}`, value.when && `when:${value.when}`];
  return ['watch shows', String(value.page), ...filters].filter(Boolean).join(' ');
}
