import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createEisClient,
  type EisClient,
  type ExhibitorListPage,
  traceIdOf,
} from '../../../src/eis/index.ts';
import {
  BIG_EVENT_ID,
  KNOWN_COMPANY_NAME,
  KNOWN_PERSON_NAME,
  type Simulator,
  startSimulator,
} from '../../../simulator/server.ts';

/*
 * The client against the simulator over real HTTP: one or more tests per operation, with the
 * normalisations (sourceType, credits spent) and the page iterator.
 */

let sim: Simulator;
const clients: EisClient[] = [];

beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await sim.close();
});
afterEach(async () => {
  sim.clearFaults();
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A fresh account per test, so balances and ledgers do not leak between tests. */
function newAccount(account: { balance?: number; subscribed?: boolean } = {}) {
  const key = `sk_test_${randomUUID().replaceAll('-', '')}`;
  sim.addKey(key, account);
  const client = createEisClient({ baseUrl: sim.url, apiKey: key, sleep: async () => {} });
  clients.push(client);
  return { key, client };
}

/** An upcoming event with visitor data and personnel, other than the big one. */
function eventWithVisitors() {
  const event = sim.events.find((e) => e.hasVisitors && e.id !== BIG_EVENT_ID && e.personnelCount > 0);
  if (!event) throw new Error('seed has no event with visitors');
  return event;
}

describe('eis client: credits and actions', () => {
  it('reads the credit balance', async () => {
    // Prepare
    const { client } = newAccount({ balance: 12_345 });

    // Act
    const balance = await client.credits.balance();

    // Assess
    expect(balance.totalBalance).toBe(12_345);
    expect(balance).toHaveProperty('addonExpireAt');
    expect(traceIdOf(balance)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('prechecks an event unlock without charging', async () => {
    // Prepare
    const { key, client } = newAccount();

    // Act
    const precheck = await client.actions.precheck({
      actionType: 'unlock_event_contacts',
      params: { event_id: BIG_EVENT_ID },
    });

    // Assess
    expect(precheck).toMatchObject({ ok: true, action_type: 'unlock_event_contacts', allowed: true });
    expect(precheck.credits).toBe(2000);
    expect(sim.ledger(key)).toEqual([]);
  });
});

describe('eis client: events', () => {
  it('lists events a page at a time', async () => {
    // Prepare
    const { client } = newAccount();

    // Act
    const page = await client.events.list({ pageSize: 5 });

    // Assess
    expect(page.items).toHaveLength(5);
    expect(page.hasMore).toBe(true);
    expect(page.items[0]).toHaveProperty('eventId');
  });

  it('gets the detail of one event by its public id', async () => {
    // Prepare
    const { client } = newAccount();
    const seeded = sim.events.find((e) => e.id === BIG_EVENT_ID);

    // Act
    const event = await client.events.detail(seeded?.eventId ?? BIG_EVENT_ID);

    // Assess
    expect(event.id).toBe(BIG_EVENT_ID);
    expect(event.name).toBe(seeded?.name);
  });

  it('scores the fit of one event on 0 to 10 without charging', async () => {
    // Prepare
    const { key, client } = newAccount();

    // Act
    const fit = await client.events.fitScore(BIG_EVENT_ID);

    // Assess
    expect(fit.score).toBeGreaterThanOrEqual(0);
    expect(fit.score).toBeLessThanOrEqual(10);
    expect(['recommended', 'consider', 'not_recommended']).toContain(fit.recommendation);
    expect(sim.ledger(key)).toEqual([]);
  });

  it('ranks a set of events', async () => {
    // Prepare
    const { client } = newAccount();
    const ids = sim.events.slice(0, 3).map((e) => e.id);

    // Act
    const ranked = await client.events.rank({ eventIds: ids });

    // Assess
    expect(ranked.items.map((item) => item.rank)).toEqual([1, 2, 3]);
    expect(ranked.items.map((item) => item.event_id).sort()).toEqual([...ids].sort());
  });

  it('unlocks an event once: creditsUsed becomes creditsSpent, a second unlock is free', async () => {
    // Prepare
    const { key, client } = newAccount();

    // Act
    const first = await client.events.unlock(BIG_EVENT_ID);
    const second = await client.events.unlock(BIG_EVENT_ID);

    // Assess
    expect(first).toMatchObject({ success: true, alreadyUnlocked: false, creditsSpent: 2000 });
    expect(first).not.toHaveProperty('creditsUsed');
    expect(second).toMatchObject({ alreadyUnlocked: true, creditsSpent: 0 });
    expect(sim.ledger(key)).toHaveLength(1);
  });

  it('unlocks the visitor layer after base access, reporting creditsSpent', async () => {
    // Prepare
    const { client } = newAccount();
    const event = eventWithVisitors();
    await client.events.unlock(event.id);

    // Act
    const result = await client.events.unlockVisitors(event.id);

    // Assess
    expect(result).toMatchObject({ success: true, creditsSpent: 3000 });
  });

  it('unlocks full access at once: totalCreditsUsed becomes creditsSpent', async () => {
    // Prepare
    const { key, client } = newAccount();
    const event = eventWithVisitors();

    // Act
    const result = await client.events.unlockFullAccess(event.id);

    // Assess
    expect(result).toMatchObject({ eventUnlocked: true, visitorUnlocked: true, creditsSpent: 5000 });
    expect(result).not.toHaveProperty('totalCreditsUsed');
    expect(sim.balance(key)).toBe(20_000 - 5000);
  });
});

describe('eis client: exhibitors', () => {
  it('lists the exhibitors of a locked event in preview mode', async () => {
    // Prepare
    const { client } = newAccount();

    // Act
    const page = await client.exhibitors.list({ eventId: BIG_EVENT_ID, pageSize: 10 });

    // Assess
    expect(page.items).toHaveLength(10);
    expect(page.semantics?.accessMode).toBe('preview');
    expect(page.items[0]?.matched_event_ids).toBeInstanceOf(Array);
  });

  it('searches exhibitors from a target audience for free', async () => {
    // Prepare
    const { key, client } = newAccount();

    // Act
    const page = await client.exhibitors.searchByContext({
      targetAudience: 'software analytics',
      pageSize: 5,
    });

    // Assess
    expect(page.items.length).toBeGreaterThan(0);
    expect(sim.ledger(key)).toEqual([]);
  });

  it('searches exhibitors by company name, charging 50 credits for a non-empty result', async () => {
    // Prepare
    const { key, client } = newAccount();

    // Act
    const page = await client.exhibitors.searchByCompanyName({ companyName: KNOWN_COMPANY_NAME });

    // Assess
    expect(page.items.some((item) => item.companyName === KNOWN_COMPANY_NAME)).toBe(true);
    expect(sim.ledger(key).map((entry) => entry.credits)).toEqual([50]);
  });

  it('finds the events of a company, with the matched exhibitors', async () => {
    // Prepare
    const { client } = newAccount();

    // Act
    const page = await client.exhibitors.searchEvents({ companyName: KNOWN_COMPANY_NAME });

    // Assess
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items[0]?.matchedExhibitors[0]?.companyName).toBe(KNOWN_COMPANY_NAME);
  });

  it('finds nothing for an unknown company, free of charge', async () => {
    // Prepare
    const { key, client } = newAccount();

    // Act
    const page = await client.exhibitors.searchEvents({ companyName: 'No Such Company Zzyzx' });

    // Assess
    expect(page.items).toEqual([]);
    expect(sim.ledger(key)).toEqual([]);
  });
});

describe('eis client: personnel', () => {
  it('lists the personnel of an event with sourceType normalised to an array', async () => {
    // Prepare
    const { client } = newAccount();

    // Act
    const page = await client.personnel.list({ eventId: BIG_EVENT_ID, pageSize: 50 });

    // Assess
    expect(page.items.length).toBeGreaterThan(0);
    for (const person of page.items) expect(Array.isArray(person.sourceType)).toBe(true);
    expect(page.semantics?.previewLimit).toBe(50);
  });

  it('filters personnel by several source types', async () => {
    // Prepare
    const { client } = newAccount();

    // Act
    const page = await client.personnel.list({ eventId: BIG_EVENT_ID, sourceType: ['visitors', 'social'] });

    // Assess
    for (const person of page.items) {
      expect(person.sourceType.some((source) => source === 'visitors' || source === 'social')).toBe(true);
    }
  });

  it('reads one person by id, for free', async () => {
    // Prepare
    const { key, client } = newAccount();
    const person = sim.seed.personnel[0];

    // Act
    const profile = await client.personnel.profile(person?.id ?? '0');

    // Assess
    expect(profile).toMatchObject({
      id: person?.id,
      fullName: person?.fullName,
      contactUnlockStatus: 'locked',
    });
    expect(Array.isArray(profile.sourceType)).toBe(true);
    expect(sim.ledger(key)).toEqual([]);
  });

  it('lists the events related to one person', async () => {
    // Prepare
    const { client } = newAccount();
    const person = sim.seed.personnel.find((p) => p.attendance.length > 0);

    // Act
    const page = await client.personnel.events(person?.id ?? '0');

    // Assess
    expect(page.items.length).toBeGreaterThan(0);
  });

  it('finds the events of a person by exact name, charging 50 credits', async () => {
    // Prepare
    const { key, client } = newAccount();

    // Act
    const page = await client.personnel.eventsByName({ personName: KNOWN_PERSON_NAME });

    // Assess
    expect(page.items.length).toBeGreaterThan(0);
    expect(sim.ledger(key).map((entry) => entry.credits)).toEqual([50]);
  });
});

describe('eis client: contacts', () => {
  function linkedPeople(count: number) {
    return sim.seed.personnel
      .filter((p) => p.linked && p.emailFindable && p.phoneFindable)
      .slice(0, count)
      .map((p) => p.id);
  }

  it('unlocks emails as a task and reads the emails once it completes', async () => {
    // Prepare
    const { client } = newAccount();
    const ids = linkedPeople(2);

    // Act
    const submission = await client.contacts.unlockEmails(ids);
    const running = await client.contacts.emailTask(submission.taskId ?? '');
    sim.completeTasks('completed');
    const done = await client.contacts.emailTask(submission.taskId ?? '');

    // Assess
    expect(submission).toMatchObject({ status: 'accepted', creditsSpent: null });
    expect(['pending', 'processing']).toContain(running.taskStatus);
    expect(done.taskStatus).toBe('completed');
    expect(done.items.every((item) => item.status === 'unlocked' && item.email)).toBe(true);
  });

  it('unlocks phones as a task and reports a failed task', async () => {
    // Prepare
    const { key, client } = newAccount();
    const ids = linkedPeople(3).slice(2);

    // Act
    const submission = await client.contacts.unlockPhones(ids);
    sim.completeTasks('failed');
    const task = await client.contacts.phoneTask(submission.taskId ?? '');

    // Assess
    expect(sim.ledger(key).map((entry) => entry.credits)).toEqual([150]);
    expect(task.taskStatus).toBe('failed');
    expect(task.items[0]).toMatchObject({ status: 'failed', phone: null });
  });
});

describe('eis client: recommendations and agent files', () => {
  it('recommends exhibitors for an event', async () => {
    // Prepare
    const { client } = newAccount();

    // Act
    const page = await client.recommendations.exhibitors({ eventId: BIG_EVENT_ID, pageSize: 5 });

    // Assess
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items[0]).toHaveProperty('companyName');
  });

  it('lists agent files newest first', async () => {
    // Prepare
    const { client } = newAccount();

    // Act
    const page = await client.agentFiles.list();

    // Assess
    const created = page.items.map((file) => Number(file.createdAt));
    expect(page.items.length).toBeGreaterThan(0);
    expect(created).toEqual([...created].sort((a, b) => b - a));
  });
});

describe('eis client: page iterator', () => {
  it('walks the exhibitors of the big locked event and stops at the preview window', async () => {
    // Prepare
    const { client } = newAccount();
    const before = sim.requests().length;
    const pages: ExhibitorListPage[] = [];

    // Act
    for await (const page of client.iteratePages((n) =>
      client.exhibitors.list({ eventId: BIG_EVENT_ID, page: n, pageSize: 20 }),
    )) {
      pages.push(page);
    }

    // Assess
    const items = pages.flatMap((page) => page.items);
    const last = pages.at(-1)?.semantics;
    expect(items).toHaveLength(50);
    expect(last?.counts?.actualTotal).toBeGreaterThan(50);
    const requestedPages = sim
      .requests()
      .slice(before)
      .map((request) => Number(request.query.page));
    expect(Math.max(...requestedPages)).toBeLessThanOrEqual(last?.pageState?.maxAccessiblePage ?? 0);
  });

  it('yields nothing from a page past the preview window', async () => {
    // Prepare
    const { client } = newAccount();
    let yielded = 0;

    // Act
    for await (const _page of client.iteratePages(
      (n) => client.personnel.list({ eventId: BIG_EVENT_ID, page: n, pageSize: 20 }),
      { firstPage: 4 },
    )) {
      yielded += 1;
    }

    // Assess
    expect(yielded).toBe(0);
  });

  it('walks every page of an unlocked event', async () => {
    // Prepare
    const { client } = newAccount();
    await client.events.unlock(BIG_EVENT_ID);
    let count = 0;
    let actualTotal = 0;

    // Act
    for await (const page of client.iteratePages((n) =>
      client.exhibitors.list({ eventId: BIG_EVENT_ID, page: n, pageSize: 100 }),
    )) {
      count += page.items.length;
      actualTotal = page.semantics?.counts?.actualTotal ?? 0;
    }

    // Assess
    expect(count).toBe(actualTotal);
    expect(count).toBeGreaterThan(50);
  });
});
