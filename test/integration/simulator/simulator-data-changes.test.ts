import { afterEach, describe, expect, it } from 'vitest';
import {
  DEV_API_KEY,
  KNOWN_COMPANY_NAME,
  type Simulator,
  type SimulatorOptions,
  startSimulator,
} from '../../../simulator/server.ts';

/*
 * The simulator's data changing over time (account watch): an exhibitor appears at an event, now or on
 * a schedule, drops out of one, or an event is postponed; every exhibitor endpoint then agrees.
 */

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(options: SimulatorOptions = {}) {
  sim = await startSimulator(options);
  return sim;
}

type Json = Record<string, unknown> & { items?: Record<string, unknown>[] };

async function call(s: Simulator, method: string, path: string, body?: unknown, key = DEV_API_KEY) {
  const response = await fetch(`${s.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

function companyOf(s: Simulator, name = KNOWN_COMPANY_NAME) {
  const company = s.seed.exhibitors.find((x) => x.companyName === name);
  if (!company) throw new Error(`seed has no ${name}`);
  return company;
}

/** The soonest upcoming event with exhibitors that the company is not at. */
function upcomingWithout(s: Simulator, companyId: string) {
  const event = s.events
    .filter((e) => e.dateStart > s.today && e.exhibitorCount > 0 && !e.exhibitorIds.includes(companyId))
    .sort((a, b) => a.dateStart.localeCompare(b.dateStart) || a.id.localeCompare(b.id))[0];
  if (!event) throw new Error('no such event');
  return event;
}

const eventIdsOf = (page: Json) => (page.items ?? []).map((item) => item.eventId);

describe('simulator: exhibitors appear over time', () => {
  it('adds a scheduled appearance once its time has come, with the company’s people on the event', async () => {
    // Prepare
    let clock = Date.parse('2026-12-01T09:00:00Z');
    const probe = await start();
    const company = companyOf(probe);
    const event = upcomingWithout(probe, company.id);
    await probe.close();
    const s = await start({
      now: () => clock,
      scheduledChanges: [
        { afterMs: 60_000, change: { kind: 'appear', exhibitor: company.id, event: event.id } },
      ],
    });
    const eventsPath = `/external/exhibitors/events?exhibitor_id=${company.id}&attendance_scope=exhibitor`;
    const peoplePath = `/external/personnel/list?event_id=${event.eventId}&exhibitor_id=${company.id}`;
    const before = await call(s, 'GET', eventsPath);

    // Act
    clock += 60_000;
    const after = await call(s, 'GET', eventsPath);
    const people = await call(s, 'GET', peoplePath);

    // Assess
    expect(eventIdsOf(before.body)).not.toContain(event.eventId);
    expect(eventIdsOf(after.body)).toContain(event.eventId);
    expect(people.body.items).toHaveLength(2);
    expect(people.body.items?.every((p) => p.companyName === KNOWN_COMPANY_NAME)).toBe(true);
  });

  it('adds the known company to its next upcoming event through the control call, seen by every exhibitor endpoint', async () => {
    // Prepare
    const s = await start();
    const company = companyOf(s);
    const next = upcomingWithout(s, company.id);
    const count = next.exhibitorCount;

    // Act
    const answer = await call(s, 'POST', '/__sim/exhibitors/appear', {});

    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body.result).toMatchObject({
      kind: 'appear',
      changed: true,
      exhibitor: { id: company.id, companyName: KNOWN_COMPANY_NAME },
      event: { eventId: next.eventId, name: next.name, dateStart: next.dateStart },
    });
    const list = await call(
      s,
      'GET',
      `/external/exhibitors/list?event_id=${next.eventId}&keyword=${encodeURIComponent(KNOWN_COMPANY_NAME)}`,
    );
    expect(list.body.items?.map((x) => x.id)).toContain(company.id);
    const profile = await call(s, 'GET', `/external/exhibitors/profile?exhibitor_id=${company.id}`);
    expect(profile.body.matched_event_ids).toContain(next.eventId);
    const detail = await call(s, 'GET', `/external/events/${next.eventId}`);
    expect((detail.body.event as Json).exhibitorCount).toBe(count + 1);
  });

  it('schedules an appearance asked for with afterSeconds, and changes nothing until then', async () => {
    // Prepare
    let clock = Date.parse('2026-12-01T09:00:00Z');
    const s = await start({ now: () => clock });
    const company = companyOf(s);
    const event = upcomingWithout(s, company.id);
    const path = `/external/exhibitors/events?exhibitor_id=${company.id}`;

    // Act
    const answer = await call(s, 'POST', '/__sim/exhibitors/appear', {
      event: event.eventId,
      afterSeconds: 30,
    });
    const early = await call(s, 'GET', path);
    clock += 30_000;
    const late = await call(s, 'GET', path);

    // Assess
    expect(answer.body).toMatchObject({ ok: true, at: '2026-12-01T09:00:30.000Z' });
    expect(eventIdsOf(early.body)).not.toContain(event.eventId);
    expect(eventIdsOf(late.body)).toContain(event.eventId);
  });

  it('drops an exhibitor from an event and postpones another event through the control calls', async () => {
    // Prepare
    const s = await start();
    const company = companyOf(s);
    const [dropped, postponed] = company.eventIds
      .map((id) => s.events.find((e) => e.id === id))
      .filter((e) => e !== undefined && e.dateStart > s.today);
    if (!dropped || !postponed) throw new Error('the company needs two upcoming events');
    const start0 = postponed.dateStart;

    // Act
    const drop = await call(s, 'POST', '/__sim/exhibitors/drop', {
      exhibitor: KNOWN_COMPANY_NAME,
      event: dropped.eventId,
    });
    const later = await call(s, 'POST', '/__sim/events/postpone', { event: postponed.eventId, days: 14 });
    const events = await call(s, 'GET', `/external/exhibitors/events?exhibitor_id=${company.id}`);

    // Assess
    expect(drop.body.result).toMatchObject({ kind: 'drop', changed: true });
    expect(later.body.result).toMatchObject({ kind: 'postpone', event: { eventId: postponed.eventId } });
    expect(eventIdsOf(events.body)).not.toContain(dropped.eventId);
    const moved = events.body.items?.find((e) => e.eventId === postponed.eventId);
    expect(moved?.dateStart).not.toBe(start0);
    expect(Date.parse(String(moved?.dateStart)) - Date.parse(start0)).toBe(14 * 86_400_000);
    const people = await call(
      s,
      'GET',
      `/external/personnel/list?event_id=${dropped.eventId}&exhibitor_id=${company.id}`,
    );
    expect(people.body.items).toEqual([]);
  });

  it('refuses unknown events, bad days and callers without a key, and changes nothing', async () => {
    // Prepare
    const s = await start();
    const company = companyOf(s);
    const eventsBefore = [...company.eventIds];

    // Act
    const unknown = await call(s, 'POST', '/__sim/exhibitors/appear', { event: '999999' });
    const badDays = await call(s, 'POST', '/__sim/events/postpone', { event: company.eventIds[0], days: 0 });
    const noKey = await call(s, 'POST', '/__sim/exhibitors/appear', {}, 'sk_nobody');

    // Assess
    expect(unknown).toMatchObject({ status: 404, body: { errorKey: 'NOT_FOUND' } });
    expect(badDays).toMatchObject({ status: 400, body: { errorKey: 'INVALID_REQUEST' } });
    expect(noKey.status).toBe(401);
    expect(company.eventIds).toEqual(eventsBefore);
  });
});
