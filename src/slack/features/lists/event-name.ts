import type { EisClient } from '../../../eis/index.ts';
import type { Names } from './definition.ts';

/** The event's name for a list title (a free read); the title shows the id when it fails. */
export async function eventName(query: { eventId: string }, eis: EisClient): Promise<Names> {
  const event = await eis.events.detail(query.eventId).catch(() => null);
  return { eventId: event?.name?.trim() || event?.nickname?.trim() || undefined };
}
