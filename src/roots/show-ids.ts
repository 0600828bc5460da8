import { createShowIds, entriesWithPublicIds, plansWithPublicIds, type ShowIds } from '../domain/show-ids.ts';
import { EisBadInputError, EisNotFoundError } from '../eis/errors.ts';
import type { EisClient } from '../eis/index.ts';
import type { Store } from '../store/index.ts';
import type { Runtime } from './runtime.ts';

/**
 * A workspace's one conversion of show ids (`src/domain/show-ids.ts`), over its service key: the
 * table's pairs of its account, else the event's detail (free; `detail`, else the runtime's client).
 * An id the service knows no show by (404, or refused as malformed) is its own public id; any other
 * failure leaves the id as given.
 */
export function showIdsOf(
  { store, eis, logger }: Runtime,
  accountId: string,
  detail: (id: string) => Promise<{ eventId: string }> = (id) => eis.events.detail(id),
): ShowIds {
  return createShowIds({
    cache: store.showIds(accountId),
    lookUp: async (id) => {
      try {
        return (await detail(id)).eventId;
      } catch (error) {
        if (error instanceof EisNotFoundError || error instanceof EisBadInputError) return null;
        throw error;
      }
    },
    logger,
  });
}

/**
 * The worker's client, its event-detail reads shared with the conversion of show ids: reads of one id
 * under way at once are one (the conversion's and a card's), and every detail read teaches the
 * conversion the show's two ids, so converting an id the worker has read asks the service nothing.
 * Nothing is kept once a read is done: a card still reads its show afresh.
 */
export function eisSharingShowReads<E extends Pick<EisClient, 'events'>>(eis: E, showIds: ShowIds): E {
  const underWay = new Map<string, ReturnType<EisClient['events']['detail']>>();
  const detail: EisClient['events']['detail'] = (id) => {
    const known = underWay.get(id);
    if (known) return known;
    const reading = eis.events.detail(id).then((event) => {
      showIds.learn(
        new Map([
          [id, event.eventId],
          [event.eventId, event.eventId],
        ]),
      );
      return event;
    });
    underWay.set(id, reading);
    const done = () => {
      if (underWay.get(id) === reading) underWay.delete(id);
    };
    reading.then(done, done);
    return reading;
  };
  return { ...eis, events: { ...eis.events, detail } };
}

/**
 * The store as the worker reads it: plans and ledger entries under their shows' public ids, whatever
 * id they were stored under (a plan is migrated on its first read; the ledger is only read so).
 */
export function storeWithPublicShowIds(store: Store, showIds: ShowIds): Store {
  const { ledger } = store;
  const kept = async <R extends { entries: Awaited<ReturnType<typeof ledger.listKept>>['entries'] }>(
    read: R,
  ) => ({
    ...read,
    entries: await entriesWithPublicIds(read.entries, showIds),
  });
  return {
    ...store,
    plans: plansWithPublicIds(store.plans, showIds),
    ledger: {
      ...ledger,
      listKept: async (...args) => kept(await ledger.listKept(...args)),
      listForPeriod: async (...args) => kept(await ledger.listForPeriod(...args)),
      listForDay: async (...args) => entriesWithPublicIds(await ledger.listForDay(...args), showIds),
      listSince: async (...args) => entriesWithPublicIds(await ledger.listSince(...args), showIds),
    },
  };
}
