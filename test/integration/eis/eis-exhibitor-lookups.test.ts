import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createEisClient,
  EisBadInputError,
  type EisClient,
  listEventExhibitorMatches,
  listExhibitorEventsAll,
  searchExhibitorsByDomain,
} from '../../../src/eis/index.ts';
import {
  BIG_EVENT_ID,
  KNOWN_COMPANY_NAME,
  type Simulator,
  startSimulator,
} from '../../../simulator/server.ts';

/*
 * The free look-ups account watch is built on, against the simulator over real HTTP: every page
 * walked, the preview window respected, 429s waited out, and the service's data changing under them.
 */

const EVENTS_ROUTE = '/external/exhibitors/events';
const LIST_ROUTE = '/external/exhibitors/list';

let sim: Simulator;
let client: EisClient;
let key: string;
let sleeps: number[];

beforeEach(async () => {
  // A simulator per test: these tests change its data.
  sim = await startSimulator();
  key = `sk_test_${randomUUID().replaceAll('-', '')}`;
  sim.addKey(key);
  sleeps = [];
  client = createEisClient({
    baseUrl: sim.url,
    apiKey: key,
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
  });
});
afterEach(async () => {
  await client.close();
  await sim.close();
});

function knownCompany() {
  const company = sim.seed.exhibitors.find((x) => x.companyName === KNOWN_COMPANY_NAME);
  if (!company) throw new Error('seed has no known company');
  return company;
}

const publicIdOf = (internalId: string) => sim.events.find((e) => e.id === internalId)?.eventId;
const requestsTo = (path: string) => sim.requests().filter((r) => r.path === path);

describe('account watch look-ups: a known exhibitor’s events', () => {
  it('lists every event where the company exhibits, walking every page, for free', async () => {
    // Prepare
    const company = knownCompany();
    const expected = company.eventIds.map(publicIdOf).sort();
    expect(expected.length).toBeGreaterThan(2);

    // Act
    const events = await listExhibitorEventsAll(client.exhibitors, company.id, { pageSize: 2 });

    // Assess
    expect(events.map((e) => e.eventId).sort()).toEqual(expected);
    expect(requestsTo(EVENTS_ROUTE)).toHaveLength(Math.ceil(expected.length / 2));
    expect(requestsTo(EVENTS_ROUTE).every((r) => r.query.attendance_scope === 'exhibitor')).toBe(true);
    expect(sim.ledger(key)).toEqual([]);
  });

  it('waits out a 429’s Retry-After and still returns every page', async () => {
    // Prepare
    const company = knownCompany();
    sim.injectFault({ kind: 'status', status: 429, route: `GET ${EVENTS_ROUTE}`, retryAfterSeconds: 2 });

    // Act
    const events = await listExhibitorEventsAll(client.exhibitors, company.id, { pageSize: 2 });

    // Assess
    expect(sleeps).toEqual([2000]);
    expect(events).toHaveLength(company.eventIds.length);
  });

  it('shows a new appearance, a dropped one and a postponed show as soon as the service has them', async () => {
    // Prepare
    const company = knownCompany();
    const before = await listExhibitorEventsAll(client.exhibitors, company.id);
    const kept = before.find((e) => (e.dateStart ?? '') > sim.today);
    const dropped = before.filter((e) => (e.dateStart ?? '') > sim.today).at(-1);
    if (!kept || !dropped || kept === dropped) throw new Error('the company needs two upcoming events');

    // Act
    const appeared = sim.newExhibitorAppears();
    sim.changeData({ kind: 'drop', exhibitor: company.id, event: dropped.eventId });
    sim.changeData({ kind: 'postpone', event: kept.eventId, days: 30 });
    const after = await listExhibitorEventsAll(client.exhibitors, company.id);

    // Assess
    const ids = after.map((e) => e.eventId);
    expect(appeared?.event.eventId).toBeDefined();
    expect(before.map((e) => e.eventId)).not.toContain(appeared?.event.eventId);
    expect(ids).toContain(appeared?.event.eventId);
    expect(ids).not.toContain(dropped.eventId);
    expect(after.find((e) => e.eventId === kept.eventId)?.dateStart).not.toBe(kept.dateStart);
    expect(sim.ledger(key)).toEqual([]);
  });
});

describe('account watch look-ups: one event’s exhibitors by name', () => {
  it('finds the company on the event it was just added to, and not before', async () => {
    // Prepare
    const company = knownCompany();
    const next = sim.events
      .filter((e) => e.dateStart > sim.today && e.exhibitorCount > 0 && !e.exhibitorIds.includes(company.id))
      .sort((a, b) => a.dateStart.localeCompare(b.dateStart) || a.id.localeCompare(b.id))[0];
    if (!next) throw new Error('no upcoming event without the company');
    const before = await listEventExhibitorMatches(client.exhibitors, next.eventId, KNOWN_COMPANY_NAME);

    // Act
    const appeared = sim.newExhibitorAppears();
    const after = await listEventExhibitorMatches(client.exhibitors, next.eventId, KNOWN_COMPANY_NAME);

    // Assess
    expect(appeared?.event.eventId).toBe(next.eventId);
    expect(before.exhibitors.map((x) => x.id)).not.toContain(company.id);
    expect(after.exhibitors.map((x) => x.id)).toContain(company.id);
    expect(after.hiddenCount).toBe(0);
    expect(sim.ledger(key)).toEqual([]);
  });

  it('returns a locked event’s first 50 matches in one call and says how many more it hides', async () => {
    // Prepare: a keyword almost every exhibitor of the big event matches
    const big = sim.events.find((e) => e.id === BIG_EVENT_ID);
    if (!big) throw new Error('no big event');

    // Act
    const found = await listEventExhibitorMatches(client.exhibitors, big.eventId, 'e');

    // Assess
    expect(found.exhibitors).toHaveLength(50);
    expect(found.hiddenCount).toBeGreaterThan(0);
    expect(requestsTo(LIST_ROUTE)).toHaveLength(1);
    expect(sim.ledger(key)).toEqual([]);
  });
});

describe('account watch look-ups: a company by its domain', () => {
  it('finds the company that owns the domain first, for free', async () => {
    // Prepare
    const company = knownCompany();

    // Act
    const found = await searchExhibitorsByDomain(client.exhibitors, `www.${company.domain.toUpperCase()}`);

    // Assess
    expect(found[0]).toMatchObject({
      id: company.id,
      companyName: KNOWN_COMPANY_NAME,
      domain: company.domain,
    });
    expect(requestsTo('/external/exhibitors/search')[0]?.body).toMatchObject({
      company_url: `https://www.${company.domain}`,
    });
    expect(sim.ledger(key)).toEqual([]);
  });

  it('refuses something that is not a domain before calling the service', async () => {
    // Act
    const refused = searchExhibitorsByDomain(client.exhibitors, 'https://globex.com/about');

    // Assess
    await expect(refused).rejects.toBeInstanceOf(EisBadInputError);
    expect(requestsTo('/external/exhibitors/search')).toEqual([]);
  });
});
