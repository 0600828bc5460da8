import { describe, expect, it } from 'vitest';
import type { PlanContent, ShowIdCache } from '../../../src/domain/ports/index.ts';
import { createShowIds, planWithPublicIds } from '../../../src/domain/show-ids.ts';
import { createMemoryLogger } from '../../../src/platform/log.ts';

/* The one conversion of a show's id: cached, and tolerant of a service that cannot say. */

/** A table of known pairs in memory, recording what it was asked. */
function memoryCache(known: Record<string, string> = {}) {
  const pairs = new Map(Object.entries(known));
  const cache: ShowIdCache & { asked: string[][] } = {
    asked: [],
    known: (ids) => {
      cache.asked.push([...ids]);
      return Promise.resolve(
        new Map(ids.flatMap((id) => (pairs.has(id) ? [[id, pairs.get(id) ?? id] as const] : []))),
      );
    },
    remember: (learned) => {
      for (const [id, publicId] of learned) pairs.set(id, publicId);
      return Promise.resolve();
    },
  };
  return { cache, pairs };
}

const SHOWS: Record<string, string> = { '8491': '27306', '27306': '27306' };

describe('a show’s public id', () => {
  it('asks the service once per id, then answers from memory or the table', async () => {
    const { cache, pairs } = memoryCache();
    const asked: string[] = [];
    const lookUp = (id: string) => {
      asked.push(id);
      return Promise.resolve(SHOWS[id] ?? null);
    };
    const showIds = createShowIds({ cache, lookUp, logger: createMemoryLogger() });

    expect(await showIds.publicIds(['8491', '27306', '8491'])).toEqual(
      new Map([
        ['8491', '27306'],
        ['27306', '27306'],
      ]),
    );
    expect(await showIds.publicIds(['8491'])).toEqual(new Map([['8491', '27306']]));
    expect(asked.sort()).toEqual(['27306', '8491']);
    expect(pairs.get('8491')).toBe('27306');

    // Another worker (a cold start) reads the table, not the service.
    const again = createShowIds({ cache, lookUp, logger: createMemoryLogger() });
    expect(await again.publicIds(['8491'])).toEqual(new Map([['8491', '27306']]));
    expect(asked).toHaveLength(2);
  });

  it('asks the service nothing for an id a read taught it while the table was being read', async () => {
    const { cache } = memoryCache();
    const asked: string[] = [];
    const lookUp = (id: string) => {
      asked.push(id);
      return Promise.resolve(SHOWS[id] ?? null);
    };
    const slowTable: ShowIdCache = {
      ...cache,
      known: async (ids) => {
        const stored = await cache.known(ids);
        showIds.learn(new Map([['8491', '27306']])); // a card's detail read ended meanwhile
        return stored;
      },
    };
    const showIds = createShowIds({ cache: slowTable, lookUp, logger: createMemoryLogger() });

    expect(await showIds.publicIds(['8491'])).toEqual(new Map([['8491', '27306']]));
    expect(asked).toEqual([]);
  });

  it('keeps an id the service knows no show by as given', async () => {
    const { cache, pairs } = memoryCache();
    const showIds = createShowIds({
      cache,
      lookUp: () => Promise.resolve(null),
      logger: createMemoryLogger(),
    });
    expect(await showIds.publicIds(['99999999'])).toEqual(new Map([['99999999', '99999999']]));
    expect(pairs.get('99999999')).toBe('99999999');
  });

  it('keeps the id as given when the service cannot say, says so in the log, and asks again next time', async () => {
    const { cache, pairs } = memoryCache();
    const logger = createMemoryLogger();
    let down = true;
    const lookUp = (id: string) =>
      down ? Promise.reject(new Error('service unavailable')) : Promise.resolve(SHOWS[id] ?? null);
    const showIds = createShowIds({ cache, lookUp, logger });

    expect(await showIds.publicIds(['8491'])).toEqual(new Map([['8491', '8491']]));
    expect(pairs.has('8491')).toBe(false);
    expect(logger.lines.join('\n')).toContain('kept as given');

    down = false;
    expect(await showIds.publicIds(['8491'])).toEqual(new Map([['8491', '27306']]));
  });

  it('still converts when the table cannot be read', async () => {
    const { cache } = memoryCache();
    cache.known = () => Promise.reject(new Error('throttled'));
    const showIds = createShowIds({
      cache,
      lookUp: (id) => Promise.resolve(SHOWS[id] ?? null),
      logger: createMemoryLogger(),
    });
    expect(await showIds.publicIds(['8491'])).toEqual(new Map([['8491', '27306']]));
  });
});

describe('a plan under its shows’ public ids', () => {
  const row = (eventId: string, addedAt: string) => ({
    eventId,
    name: 'Payments Summit',
    dateStart: null,
    dateEnd: null,
    city: null,
    addedBy: 'U0ALICE',
    addedAt,
  });
  const cost = (eventId: string, kind: 'booth' | 'travel', hundredths: number, setAt: string) => ({
    eventId,
    kind,
    hundredths,
    setBy: 'U0ALICE',
    setAt,
  });
  const ids = new Map(Object.entries(SHOWS));

  it('merges two rows of one show into the first added, and keeps every kind of cost, the later of one kind', () => {
    const plan: PlanContent = {
      shows: [
        row('30001', '2026-01-01T00:00:00.000Z'),
        row('27306', '2026-03-01T00:00:00.000Z'),
        row('8491', '2026-02-01T00:00:00.000Z'),
      ],
      budgets: {},
      costs: [
        cost('8491', 'booth', 100, '2026-02-01T00:00:00.000Z'),
        cost('27306', 'booth', 200, '2026-03-01T00:00:00.000Z'),
        cost('8491', 'travel', 300, '2026-02-01T00:00:00.000Z'),
      ],
    };

    const migrated = planWithPublicIds(plan, ids);

    expect(migrated?.shows.map((show) => [show.eventId, show.addedAt])).toEqual([
      ['30001', '2026-01-01T00:00:00.000Z'],
      ['27306', '2026-02-01T00:00:00.000Z'],
    ]);
    expect(migrated?.costs?.map((c) => [c.eventId, c.kind, c.hundredths])).toEqual([
      ['27306', 'booth', 200],
      ['27306', 'travel', 300],
    ]);
  });

  it('changes nothing when every id is public already', () => {
    const plan: PlanContent = { shows: [row('27306', '2026-01-01T00:00:00.000Z')], budgets: {} };
    expect(planWithPublicIds(plan, ids)).toBeUndefined();
  });
});
