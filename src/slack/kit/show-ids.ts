import type { ShowIds } from '../../domain/show-ids.ts';
import { EisNotFoundError } from '../../eis/errors.ts';
import type { WorkerDeps } from './worker-deps.ts';

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

/**
 * A show as the service knows it now (a free detail read), under its public id (the detail names it);
 * null when the service knows no show by that id. What the plan adds and an outcome is logged for.
 */
export async function readShow(events: Pick<WorkerDeps['eis']['events'], 'detail'>, eventId: string) {
  try {
    const detail = await events.detail(eventId);
    return {
      eventId: detail.eventId,
      name: detail.name ?? null,
      dateStart: detail.dateStart ?? null,
      dateEnd: detail.dateEnd ?? null,
      city: detail.city ?? null,
    };
  } catch (error) {
    if (error instanceof EisNotFoundError) return null;
    throw error;
  }
}
