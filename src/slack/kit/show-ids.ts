import type { ShowIds } from '../../domain/show-ids.ts';

const stringsOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];

/**
 * The edge of "one id per show": what a command, button, link or workflow step names, under each show's
 * public id (`src/domain/show-ids.ts`), before anything reads, stores or charges it. Without `showIds`
 * (or when the service cannot say) the ids stay as given.
 */
export async function withPublicShowIds<T extends object>(
  showIds: ShowIds | undefined,
  named: T,
): Promise<T> {
  const eventId = 'eventId' in named && typeof named.eventId === 'string' ? named.eventId : undefined;
  const eventIds =
    'eventIds' in named && Array.isArray(named.eventIds) ? stringsOf(named.eventIds) : undefined;
  const ids = [...(eventId === undefined ? [] : [eventId]), ...(eventIds ?? [])];
  if (!showIds || ids.length === 0) return named;
  const publicIds = await showIds.publicIds(ids);
  const publicOf = (id: string) => publicIds.get(id) ?? id;
  return {
    ...named,
    ...(eventId === undefined ? {} : { eventId: publicOf(eventId) }),
    ...(eventIds === undefined ? {} : { eventIds: eventIds.map(publicOf) }),
  };
}
