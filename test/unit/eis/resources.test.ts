import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { EisBadInputError, type EisClient } from '../../../src/eis/index.ts';
import {
  caught,
  clientFor,
  eventItem,
  exhibitorItem,
  fakeService,
  page,
  personnelItem,
} from '../../support/fake-service.ts';

function clientWithoutNetwork() {
  let calls = 0;
  const dispatcher = {
    request() {
      calls += 1;
      return Promise.reject(new Error('no HTTP call expected'));
    },
    async close() {},
  } as unknown as Dispatcher;
  const { client } = clientFor(fakeService(), { dispatcher });
  return { client, calls: () => calls };
}

const long = 'x'.repeat(101);

const badCalls: Array<[string, (client: EisClient) => Promise<unknown>]> = [
  ['events.detail with an empty id', (c) => c.events.detail('')],
  ['events.fitScore with a 101-character id', (c) => c.events.fitScore(long)],
  ['events.unlock with an empty id', (c) => c.events.unlock('')],
  ['events.unlockVisitors with a 101-character id', (c) => c.events.unlockVisitors(long)],
  ['events.unlockFullAccess with an empty id', (c) => c.events.unlockFullAccess('')],
  ['events.rank with no ids', (c) => c.events.rank({ eventIds: [] })],
  ['events.list with pageSize 101', (c) => c.events.list({ pageSize: 101 })],
  ['events.list with page 0', (c) => c.events.list({ page: 0 })],
  ['events.list with a bad date', (c) => c.events.list({ dateStartFrom: '2026-13-45' })],
  ['exhibitors.list without an event id', (c) => c.exhibitors.list({ eventId: '' })],
  ['exhibitors.searchByContext with neither field', (c) => c.exhibitors.searchByContext({})],
  [
    'exhibitors.searchByContext with a bad URL',
    (c) => c.exhibitors.searchByContext({ companyUrl: 'not a url' }),
  ],
  [
    'exhibitors.searchByCompanyName with a blank name',
    (c) => c.exhibitors.searchByCompanyName({ companyName: ' ' }),
  ],
  [
    'exhibitors.searchEvents with pageSize 500',
    (c) => c.exhibitors.searchEvents({ companyName: 'A', pageSize: 500 }),
  ],
  ['personnel.list with pageSize 51', (c) => c.personnel.list({ eventId: '1', pageSize: 51 })],
  [
    'personnel.list with a non-numeric exhibitor id',
    (c) => c.personnel.list({ eventId: '1', exhibitorId: 'abc' }),
  ],
  ['personnel.events with a non-numeric id', (c) => c.personnel.events('12a')],
  [
    'personnel.eventsByName with a 201-character name',
    (c) => c.personnel.eventsByName({ personName: 'n'.repeat(201) }),
  ],
  ['contacts.unlockEmails with no ids', (c) => c.contacts.unlockEmails([])],
  ['contacts.unlockEmails with a non-numeric id', (c) => c.contacts.unlockEmails(['12', 'x1'])],
  [
    'contacts.unlockPhones with 2001 ids',
    (c) => c.contacts.unlockPhones(Array.from({ length: 2001 }, (_, i) => `${i}`)),
  ],
  ['contacts.emailTask with a non-numeric id', (c) => c.contacts.emailTask('../1')],
  ['contacts.phoneTask with an empty id', (c) => c.contacts.phoneTask('')],
  [
    'recommendations.exhibitors with min above max',
    (c) => c.recommendations.exhibitors({ eventId: '1', employeesMin: 9, employeesMax: 1 }),
  ],
  ['agentFiles.list with page -1', (c) => c.agentFiles.list(-1)],
  ['actions.precheck with an empty action', (c) => c.actions.precheck({ actionType: '', params: {} })],
];

describe('eis resources: input validation', () => {
  it.each(badCalls)('refuses %s before any HTTP call', async (_name, call) => {
    // Prepare
    const { client, calls } = clientWithoutNetwork();

    // Act
    const error = await caught(call(client));

    // Assess
    expect(error).toBeInstanceOf(EisBadInputError);
    expect(calls()).toBe(0);
  });
});

describe('eis resources: wire names', () => {
  it('sends personnel filters under their wire names, sourceType as one comma-separated value', async () => {
    // Prepare
    const service = fakeService();
    service.on('GET', '/external/personnel/list', { status: 200, body: page([personnelItem()]) });
    const { client } = clientFor(service);

    // Act
    await client.personnel.list({
      eventId: '101',
      exhibitorId: '4182',
      searchQuery: 'marketing',
      sourceType: ['exhibitor', 'visitors'],
    });

    // Assess
    const query = service.requests[0]?.query;
    expect(Object.fromEntries(query ?? [])).toEqual({
      event_id: '101',
      exhibitor_id: '4182',
      search_query: 'marketing',
      sourceType: 'exhibitor,visitors',
    });
  });

  it('sends events.list filters under their wire names', async () => {
    // Prepare
    const service = fakeService();
    service.on('GET', '/external/events/list', { status: 200, body: page([eventItem()]) });
    const { client } = clientFor(service);

    // Act
    await client.events.list({ dateStartFrom: '2026-01-01', eventType: ['Expo', 'Summit'], hasVisitors: 1 });

    // Assess
    const query = service.requests[0]?.query;
    expect(query?.get('date_start_from')).toBe('2026-01-01');
    expect(query?.getAll('event_type')).toEqual(['Expo', 'Summit']);
    expect(query?.get('has_visitors')).toBe('1');
  });

  it('sends contact unlocks as personnel_ids with the optional event_id', async () => {
    // Prepare
    const service = fakeService();
    service.on('POST', '/external/contacts/unlock', {
      status: 201,
      body: { status: 'accepted', task_id: '9', job_id: '9' },
    });
    const { client } = clientFor(service);

    // Act
    const submission = await client.contacts.unlockEmails(['1', '2'], { eventId: '101' });

    // Assess
    expect(service.requests[0]?.body).toEqual({ personnel_ids: ['1', '2'], event_id: '101' });
    expect(submission.taskId).toBe('9');
  });

  it('sends the company context search body in snake case', async () => {
    // Prepare
    const service = fakeService();
    service.on('POST', '/external/exhibitors/search', { status: 201, body: page([exhibitorItem()]) });
    const { client } = clientFor(service);

    // Act
    const result = await client.exhibitors.searchByContext({
      companyUrl: 'https://acme.example',
      pageSize: 5,
    });

    // Assess
    expect(service.requests[0]?.body).toEqual({ company_url: 'https://acme.example', pageSize: 5 });
    expect(result.items[0]?.companyName).toBe('Acme');
  });

  it('returns the event of the detail response', async () => {
    // Prepare
    const service = fakeService();
    service.on('GET', '/external/events/ev-101', {
      status: 200,
      body: { event: eventItem({ attendeeCount: 900 }) },
    });
    const { client } = clientFor(service);

    // Act
    const event = await client.events.detail('ev-101');

    // Assess
    expect(event).toMatchObject({ eventId: 'ev-101', attendeeCount: 900 });
  });
});
