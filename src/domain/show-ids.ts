import type { Logger } from '../platform/log.ts';
import type { PlanContent, PlanEdit, PlanRepository } from './ports/plans.ts';
import type { LedgerEntry, Plan, PlanShow, PlanShowCost } from './ports/records.ts';
import type { ShowIdCache } from './ports/show-ids.ts';

/**
 * One id per show. The service takes a show's public `eventId` and its internal `id` alike (27306 and
 * 8491 are one show), so the bot turns every id it is given into the public one at its edge (commands,
 * buttons, unfurls, the workflow step) and keys the plan, the ledger, the watch, compare and budgets on
 * that. Records stored before under an internal id read as the same show (`plansWithPublicIds`,
 * `ledgerWithPublicIds`). See src/eis/ASSUMPTIONS.md, "One id per show".
 */

export interface ShowIdDeps {
  cache: ShowIdCache;
  /** The show's public id, as the service says; null when it knows no show by that id. Throws when it cannot say. */
  lookUp: (id: string) => Promise<string | null>;
  logger: Logger;
}

export interface ShowIds {
  /** Each id's public id; an id the service could not say about now is kept as given (and logged). */
  publicIds(ids: readonly string[]): Promise<Map<string, string>>;
  /**
   * What a read made anyway said (an event's detail names the show's public id): kept in this
   * process's memory, so converting those ids asks the service nothing.
   */
  learn(pairs: ReadonlyMap<string, string>): void;
}

/** Enough for a busy worker's shows; beyond it the oldest goes (the table still has it). */
export const SHOW_IDS_KEPT = 5_000;

/**
 * The one conversion: this process's memory first, then the table, then one free event-detail read
 * per id never seen (a show's two ids never change). When the service cannot say (it fails, or is
 * slow), the id is kept as given, not remembered, and asked again next time.
 */
export function createShowIds({ cache, lookUp, logger }: ShowIdDeps): ShowIds {
  const memory = new Map<string, string>();
  const keep = (id: string, publicId: string) => {
    memory.set(id, publicId);
    const oldest = memory.size > SHOW_IDS_KEPT ? memory.keys().next().value : undefined;
    if (oldest !== undefined) memory.delete(oldest);
  };
  return {
    learn(pairs) {
      for (const [id, publicId] of pairs) keep(id, publicId);
    },
    async publicIds(ids) {
      const wanted = [...new Set(ids)];
      const result = new Map<string, string>();
      const unseen = wanted.filter((id) => {
        const known = memory.get(id);
        if (known !== undefined) result.set(id, known);
        return known === undefined;
      });
      if (unseen.length === 0) return result;
      const stored = await cache.known(unseen).catch((error: unknown) => {
        logger.warn('show ids could not be read from the table', { error });
        return new Map<string, string>();
      });
      const learned = new Map<string, string>();
      await Promise.all(
        unseen.map(async (id) => {
          // A read that finished while the table was read may have taught the id meanwhile.
          const publicId = stored.get(id) ?? memory.get(id) ?? (await lookUpKept(id));
          if (publicId === undefined) return result.set(id, id);
          if (!stored.has(id)) learned.set(id, publicId);
          keep(id, publicId);
          return result.set(id, publicId);
        }),
      );
      if (learned.size > 0)
        await cache
          .remember(learned)
          .catch((error: unknown) => logger.warn('show ids could not be stored', { error }));
      return result;
    },
  };

  async function lookUpKept(id: string): Promise<string | undefined> {
    try {
      return (await lookUp(id)) ?? id;
    } catch (error) {
      logger.warn('the service could not say which show this id is: kept as given', { eventId: id, error });
      return undefined;
    }
  }
}

/** One show's public id (`showIds` absent: kept as given). */
export async function publicShowId(showIds: ShowIds | undefined, id: string): Promise<string> {
  if (!showIds) return id;
  return (await showIds.publicIds([id])).get(id) ?? id;
}

const publicOf = (ids: ReadonlyMap<string, string>, id: string) => ids.get(id) ?? id;

const planIdsOf = (content: PlanContent) => [
  ...content.shows.map((show) => show.eventId),
  ...(content.costs ?? []).map((cost) => cost.eventId),
];

/**
 * A plan's shows and costs under their public ids; undefined when they already are. Two rows of one
 * show become one (the first added, as it was added); of two costs of one kind, the later set stays,
 * as a second `plan cost` would have replaced the first.
 */
export function planWithPublicIds(
  content: PlanContent,
  ids: ReadonlyMap<string, string>,
): PlanContent | undefined {
  if (planIdsOf(content).every((id) => publicOf(ids, id) === id)) return undefined;
  const shows = new Map<string, PlanShow>();
  const byAdded = [...content.shows].sort((a, b) => a.addedAt.localeCompare(b.addedAt));
  for (const show of byAdded) {
    const eventId = publicOf(ids, show.eventId);
    if (!shows.has(eventId)) shows.set(eventId, { ...show, eventId });
  }
  const costs = new Map<string, PlanShowCost>();
  const bySet = [...(content.costs ?? [])].sort((a, b) => a.setAt.localeCompare(b.setAt));
  for (const cost of bySet) {
    const eventId = publicOf(ids, cost.eventId);
    costs.set(`${eventId} ${cost.kind}`, { ...cost, eventId });
  }
  // The plan's order stays: each show where its first row was.
  const order = content.shows.map((show) => publicOf(ids, show.eventId));
  return {
    ...content,
    shows: [...shows.values()].sort((a, b) => order.indexOf(a.eventId) - order.indexOf(b.eventId)),
    ...(content.costs ? { costs: [...costs.values()] } : {}),
  };
}

/**
 * The plans as stored, each read under its shows' public ids. A plan still holding an internal id is
 * written back under the public ones the first time it is read (a lazy migration: a conditional
 * write of the plan's own revision, so a change in between is kept, and the next read tries again).
 */
export function plansWithPublicIds<P extends Pick<PlanRepository, 'get' | 'forTeam' | 'update'>>(
  plans: P,
  showIds: ShowIds,
): P {
  const idsOf = async (content: PlanContent) => showIds.publicIds(planIdsOf(content));
  const migrated = async (plan: Plan | null): Promise<Plan | null> => {
    if (!plan) return plan;
    const ids = await idsOf(plan);
    if (!planWithPublicIds(plan, ids)) return plan;
    const { plan: written } = await plans.update(plan.teamId, plan.channelId, (current) => {
      const next = planWithPublicIds(current, ids);
      return next ? { next, result: null } : { result: null };
    });
    const stored = written ?? plan;
    // A show added in between, under an id not looked up yet, still reads under its public one.
    return { ...stored, ...planWithPublicIds(stored, await idsOf(stored)) };
  };
  const update = async <T>(
    teamId: string,
    channelId: string,
    edit: (current: PlanContent) => PlanEdit<T>,
  ): Promise<{ result: T; plan: Plan | null }> => {
    const ids = await idsOf((await plans.get(teamId, channelId)) ?? { shows: [], budgets: {} });
    return plans.update(teamId, channelId, (current) => edit(planWithPublicIds(current, ids) ?? current));
  };
  return {
    ...plans,
    get: async (teamId: string, channelId: string) => migrated(await plans.get(teamId, channelId)),
    forTeam: async (teamId: string) =>
      (await Promise.all((await plans.forTeam(teamId)).map(migrated))).filter((plan) => plan !== null),
    update,
  };
}

/** Ledger entries with their show under its public id (entries are never rewritten: they are read so). */
export async function entriesWithPublicIds<E extends Pick<LedgerEntry, 'eventId'>>(
  entries: readonly E[],
  showIds: ShowIds,
): Promise<E[]> {
  const named = entries.flatMap((entry) => (entry.eventId === undefined ? [] : [entry.eventId]));
  if (named.length === 0) return [...entries];
  const ids = await showIds.publicIds(named);
  return entries.map((entry) =>
    entry.eventId === undefined || publicOf(ids, entry.eventId) === entry.eventId
      ? entry
      : { ...entry, eventId: publicOf(ids, entry.eventId) },
  );
}
