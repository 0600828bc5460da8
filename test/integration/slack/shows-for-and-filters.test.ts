import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { ALICE, type Bot, startBot, visibleText } from '../../support/bot.ts';

const BIG_EVENT = '26855';
const SHOWS_ROUTE = '/external/profile-matching/actions/apply-recommended-events/paged';

describe('shows for a profile, and every list filter as key:value words', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  /** Runs a command and returns the message it produced, with the service requests it made. */
  async function run(text: string) {
    const before = bot.sim.requests().length;
    await bot.command(text);
    await bot.idle();
    const message = bot.messages().at(-1);
    if (!message) throw new Error(`no answer to ${text}`);
    expect(message.warnings).toEqual([]);
    return { message: structuredClone(message), requests: bot.sim.requests().slice(before) };
  }

  /** Clicks a paging button; the message as it now stands, and the requests the click made. */
  async function page(message: SlackMessage, actionId: string) {
    const before = bot.sim.requests().length;
    await bot.click(message, actionId, ALICE);
    await bot.idle();
    const updated = structuredClone(bot.find((candidate) => candidate.ts === message.ts));
    expect(updated.warnings).toEqual([]);
    return { message: updated, requests: bot.sim.requests().slice(before) };
  }

  const pagingLabels = (message: SlackMessage) =>
    buttonsOf(message)
      .filter(({ button }) => button.action_id.startsWith('list.page'))
      .map(({ button }) => button.text.text);

  const requestTo = (requests: ReturnType<Bot['sim']['requests']>, path: string) => {
    const found = requests.find((request) => request.path === path);
    if (!found) throw new Error(`no request to ${path}`);
    return found;
  };

  it('shows-for lists recommended shows with their rank, match score and reason, paged for free', async () => {
    // Act
    const first = await run('shows-for payment teams in retail');

    // Assess
    const text = visibleText(first.message);
    expect(text).toContain('Shows for payment teams in retail');
    expect(text).toMatch(/#1 · Match \*\d+\.\d\/10\*/);
    expect(text).toMatch(/\d+ matching exhibitors · \d+ matching people/);
    expect(text).toMatch(/Page 1 of \d+ · rows 1–10 of \d+/);
    expect(first.message.visibleTo).toBe(ALICE.userId);
    expect(requestTo(first.requests, SHOWS_ROUTE).body).toMatchObject({
      target_audience: 'payment teams in retail',
      page: 1,
    });
    // Nothing was charged
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
    expect(pagingLabels(first.message)).toEqual(['Next →']);

    // Act: the next page
    const second = await page(first.message, 'list.page.next');

    // Assess
    expect(visibleText(second.message)).toMatch(/#11 · Match/);
    expect(requestTo(second.requests, SHOWS_ROUTE).body).toMatchObject({
      target_audience: 'payment teams in retail',
      page: 2,
    });
    expect(pagingLabels(second.message)).toContain('← Previous');
  });

  it('shows-for shows each show’s reason as the service gave it, and says so where it gave none', async () => {
    // Prepare: the service's own answer for the same profile, asked directly. A profile its words find
    // a few shows for: the service explains those, and leaves some of the others without a reason.
    const answer = await fetch(`${bot.sim.url}${SHOWS_ROUTE}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bot.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ target_audience: 'dentists', page: 1, pageSize: 10 }),
    });
    const { items } = (await answer.json()) as { items: { relevanceReason?: string | null }[] };
    const reasons = items.map((item) => item.relevanceReason).filter((reason) => typeof reason === 'string');
    const without = items.length - reasons.length;
    // The service's reasons differ from show to show, and some shows come without one.
    expect(new Set(reasons).size).toBeGreaterThan(1);
    expect(without).toBeGreaterThan(0);

    // Act
    const { message } = await run('shows-for dentists');

    // Assess
    const text = visibleText(message);
    // (as Slack mrkdwn: `&`, `<`, `>` escaped)
    const mrkdwn = (words: string) =>
      words.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    for (const reason of reasons) expect(text).toContain(`Why: ${mrkdwn(reason)}`);
    expect(text.split('No reason given by the service.').length - 1).toBe(without);
    expect(text.split('Why: ').length - 1).toBe(reasons.length);
  });

  it('shows-for gives each show Fit / Exhibitors / People / Add to plan, and Fit answers for that show for free', async () => {
    // Act
    const { message } = await run('shows-for payment teams in retail');

    // Assess: one row of the four buttons per show, in the list's order
    const rows = new Map<string, string[]>();
    for (const { blockId, button } of buttonsOf(message)) {
      if (blockId.startsWith('event-')) rows.set(blockId, [...(rows.get(blockId) ?? []), button.text.text]);
    }
    expect(rows.size).toBe(10);
    for (const labels of rows.values())
      expect(labels).toEqual(['Fit', 'Exhibitors', 'People', 'Add to plan']);
    const firstId = [...rows.keys()][0]?.slice('event-'.length);
    const first = bot.sim.events.find((event) => event.eventId === firstId);
    if (!first) throw new Error('the first row names no seeded event');

    // Act: Fit on the first show
    await bot.click(message, 'event.fit', ALICE);
    await bot.idle();

    // Assess
    const fit = visibleText(bot.last());
    expect(fit).toContain(first.name);
    expect(fit).toContain('Profile match');
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
  });

  it('shows-for takes a company website and passes every filter to the service, page after page', async () => {
    // Act
    const { message, requests } = await run(
      'shows-for acme.example country:Germany from:2020-01-01 to:2035-12-31 category:Fintech,Payments level:Director title:CFO attendees-min:10',
    );

    // Assess
    expect(requestTo(requests, SHOWS_ROUTE).body).toMatchObject({
      company_url: 'https://acme.example/',
      country: 'Germany',
      dateStartFrom: '2020-01-01',
      dateStartTo: '2035-12-31',
      category: ['Fintech', 'Payments'],
      target_management_level: ['Director'],
      target_job_titles: ['CFO'],
      attendeeCountMin: 10,
    });
    const text = visibleText(message);
    expect(text).toContain('Shows for https://acme.example/');
    expect(text).toContain('country:Germany');
  });

  it('shows-for says what is wrong with a filter, and needs a company or an audience', async () => {
    // Act
    const typo = await run('shows-for acme.example contry:Germany');
    const empty = await run('shows-for country:Germany');

    // Assess
    expect(visibleText(typo.message)).toContain('Did you mean `country:`?');
    expect(typo.requests.filter((request) => request.path === SHOWS_ROUTE)).toEqual([]);
    expect(visibleText(empty.message)).toContain('Give a company website or a description of your audience');
  });

  it('exhibitors take country, category, industry, title, level and department, kept by Next', async () => {
    // Act
    const first = await run(
      `exhibitors ${BIG_EVENT} country:Germany category:SaaS industry:Fintech,Retail title:CFO level:Director department:Finance`,
    );

    // Assess
    const expected = {
      event_id: BIG_EVENT,
      country: 'Germany',
      category: 'SaaS',
      industry: ['Fintech', 'Retail'],
      jobTitle: 'CFO',
      managementLevel: 'Director',
      department: 'Finance',
    };
    expect(requestTo(first.requests, '/external/exhibitors/list').query).toMatchObject(expected);
    expect(visibleText(first.message)).toContain('title:CFO');
  });

  it('exhibitor filters stay on Next', async () => {
    // Prepare: a filter wide enough for more than one page
    const first = await run(`exhibitors ${BIG_EVENT} level:Director`);
    expect(pagingLabels(first.message)).toContain('Next →');

    // Act
    const second = await page(first.message, 'list.page.next');

    // Assess
    expect(requestTo(second.requests, '/external/exhibitors/list').query).toMatchObject({
      managementLevel: 'Director',
      page: '2',
    });
  });

  it('people take exhibitor, department, level and source, and show only what matches', async () => {
    // Prepare: a person of the event seen by the service as a visitor
    const visitor = bot.sim.seed.personnel.find(
      (person) => person.sourceType.includes('visitors') && person.eventId === eventIdOf(BIG_EVENT),
    );
    if (!visitor) throw new Error('no visitor in the seed');

    // Act
    const { message, requests } = await run(
      `people ${BIG_EVENT} department:${visitor.department} level:${visitor.seniorityLevel} source:visitors`,
    );

    // Assess
    expect(requestTo(requests, '/external/personnel/list').query).toMatchObject({
      department: visitor.department,
      level: visitor.seniorityLevel,
      sourceType: 'visitors',
    });
    const rows = visibleText(message);
    expect(rows).toContain('Visitor');
    expect(rows).not.toMatch(/· Exhibitor ·|· Social Signals ·/);

    // Act: one exhibitor's people
    const withExhibitor = bot.sim.seed.personnel.find(
      (person) => person.exhibitorId !== null && person.eventId === eventIdOf(BIG_EVENT),
    );
    const byExhibitor = await run(`people ${BIG_EVENT} exhibitor:${withExhibitor?.exhibitorId ?? ''}`);

    // Assess
    expect(requestTo(byExhibitor.requests, '/external/personnel/list').query).toMatchObject({
      exhibitor_id: withExhibitor?.exhibitorId,
    });
    expect(visibleText(byExhibitor.message)).toContain(withExhibitor?.fullName ?? '?');
  });

  it('people refuse a source the service does not know', async () => {
    const { message, requests } = await run(`people ${BIG_EVENT} source:newsletter`);

    expect(visibleText(message)).toContain('is not a source');
    expect(requests.filter((request) => request.path === '/external/personnel/list')).toEqual([]);
  });

  it('recommend takes keywords, country, category, industry, name and employee bounds', async () => {
    const { message, requests } = await run(
      `recommend ${BIG_EVENT} payments country:Germany category:SaaS industry:Fintech name:Acme Analytics employees-min:10 employees-max:5000`,
    );

    expect(requestTo(requests, '/external/profile-matching/recommendations/exhibitors').query).toMatchObject({
      event_id: BIG_EVENT,
      searchQuery: 'payments',
      location: 'Germany',
      category: 'SaaS',
      industry: 'Fintech',
      exhibitorName: 'Acme Analytics',
      employeesMin: '10',
      employeesMax: '5000',
    });
    expect(visibleText(message)).toContain('Recommended exhibitors');
  });

  it('recommend refuses employee bounds the wrong way round', async () => {
    const { message } = await run(`recommend ${BIG_EVENT} employees-min:500 employees-max:10`);

    expect(visibleText(message)).toContain('`employees-min:` is above `employees-max:`');
  });

  /** The internal id of a public event id (personnel records carry the internal one). */
  function eventIdOf(publicId: string): string {
    const event = bot.sim.events.find((candidate) => candidate.eventId === publicId);
    if (!event) throw new Error(`no event ${publicId}`);
    return event.id;
  }
});
