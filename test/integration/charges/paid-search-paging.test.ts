import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAID_SEARCH_PAGE_SIZE } from '../../../src/domain/prices.ts';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { KNOWN_PERSON_NAME } from '../../../simulator/server.ts';
import { ALICE, askFor, type Bot, startBot, visibleText } from '../../support/bot.ts';

const BIG_EVENT = '26855';
const SEARCH_ROUTE = '/external/exhibitors/search-by-company-name';
const OTHER_PAGES = 'Any other page is a new search: confirmed first, and charged up to 50 credits again';

describe('paid searches page through confirmations; contact unlocks carry their event', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot({ balance: 20_000 });
  });
  afterAll(() => bot.close());

  /** The card's buttons but each exhibitor record's own Account button. */
  const labelsOf = (message: SlackMessage) =>
    buttonsOf(message)
      .filter(({ button }) => button.action_id !== 'account.open')
      .map(({ button }) => button.text.text);
  const threadOf = (card: SlackMessage) => bot.messages().filter((message) => message.threadTs === card.ts);
  const searchRequests = () => bot.sim.requests().filter((request) => request.path === SEARCH_ROUTE);
  const lastRequest = (path: string) =>
    bot.sim
      .requests()
      .filter((request) => request.path === path)
      .at(-1);

  /** Confirms a card and returns the results posted in its thread. */
  async function confirm(card: SlackMessage): Promise<SlackMessage> {
    await bot.click(card, 'confirm.yes');
    await bot.idle();
    const results = threadOf(card).at(-1);
    if (!results) throw new Error('no results in the thread');
    expect(results.warnings).toEqual([]);
    return structuredClone(results);
  }

  it('posts a paid search’s first page with Next, saying that another page charges again', async () => {
    // Prepare: a name that many exhibitor records contain, more than one page of them
    const name = 'a';
    const matches = bot.sim.seed.exhibitors.filter((x) => x.companyName.toLowerCase().includes(name));
    expect(matches.length).toBeGreaterThan(40);
    const card = await askFor(bot, `exhibitor ${name}`);

    // Act
    const first = await confirm(card);

    // Assess
    expect(bot.sim.ledger(bot.apiKey).map((entry) => entry.credits)).toEqual([50]);
    const text = visibleText(first);
    expect(text).toMatch(/Page 1 of \d+ · rows 1–40 of /);
    expect(text).not.toMatch(/…and \d+ more/);
    expect(labelsOf(first)).toEqual(['Next →']);
    expect(text).toContain(OTHER_PAGES);
  });

  it('Next asks for a confirmation first, charges once more on Confirm, and the next page has Previous and Next', async () => {
    // Prepare
    const card = await askFor(bot, 'exhibitor a');
    const first = await confirm(card);
    const spentBefore = bot.sim.ledger(bot.apiKey).length;
    const requestsBefore = searchRequests().length;

    // Act: Next
    await bot.click(first, 'search.page.next', ALICE);
    await bot.idle();

    // Assess: nothing charged, nothing searched: a confirmation card for page 2
    expect(bot.sim.ledger(bot.apiKey)).toHaveLength(spentBefore);
    expect(searchRequests()).toHaveLength(requestsBefore);
    const nextCard = structuredClone(bot.last());
    const cardText = visibleText(nextCard);
    expect(cardText).toContain('confirm.yes');
    expect(cardText).toContain('Find exhibitor records for the company “a”, page 2');
    expect(cardText).toContain(`*Page 2.* ${OTHER_PAGES}`);

    // Act: Confirm
    const second = await confirm(nextCard);

    // Assess
    expect(bot.sim.ledger(bot.apiKey)).toHaveLength(spentBefore + 1);
    expect(searchRequests().at(-1)?.body).toMatchObject({ company_name: 'a', page: 2, pageSize: 40 });
    expect(visibleText(second)).toMatch(/Page 2 of \d+ · rows 41–80 of /);
    expect(labelsOf(second)).toEqual(['← Previous', 'Next →']);
    expect(visibleText(second)).toContain(OTHER_PAGES);

    // Act: Previous is also a search of its own, confirmed first
    await bot.click(second, 'search.page.previous', ALICE);
    await bot.idle();

    // Assess
    expect(visibleText(bot.last())).toContain('Find exhibitor records for the company “a”');
    expect(visibleText(bot.last())).not.toContain('page 2');
    expect(bot.sim.ledger(bot.apiKey)).toHaveLength(spentBefore + 1);
  });

  it('a `who` search: each card names its page and says any other page is charged again, and its precheck is told the page', async () => {
    // Prepare: the simulator's Jane Smith at every upcoming event, more than one page of them
    const upcoming = bot.sim.seed.events.filter((event) => event.dateStart >= bot.sim.today);
    expect(upcoming.length).toBeGreaterThan(PAID_SEARCH_PAGE_SIZE);
    const jane = bot.sim.seed.personnel.find((person) => person.fullName === KNOWN_PERSON_NAME);
    if (!jane) throw new Error('no Jane Smith in the seed');
    jane.attendance.push(
      ...upcoming.map((event) => ({ eventId: event.id, identity: ['exhibitor_employee' as const] })),
    );
    const charged = bot.sim.ledger(bot.apiKey).length;
    const spent = () => bot.sim.ledger(bot.apiKey).slice(charged);
    const paging = (page: number) => ({ page, page_size: PAID_SEARCH_PAGE_SIZE });

    // Act
    const card = await askFor(bot, `who ${KNOWN_PERSON_NAME}`);

    // Assess: before any charge, the card says page 1 and that other pages charge again
    expect(visibleText(card)).toContain(`*Page 1.* ${OTHER_PAGES}`);
    expect(spent()).toEqual([]);
    expect(lastRequest('/external/actions/precheck')?.body).toMatchObject({
      action_type: 'search_personnel_events_by_name',
      params: { person_name: KNOWN_PERSON_NAME, ...paging(1) },
    });

    // Act: Confirm
    const first = await confirm(card);

    // Assess
    expect(lastRequest('/external/personnel/events/by-name')?.query).toMatchObject({
      page: '1',
      pageSize: String(PAID_SEARCH_PAGE_SIZE),
    });
    expect(visibleText(first)).toMatch(/Page 1 of 2 · rows 1–40 of \d+/);
    expect(labelsOf(first)).toEqual(['Next →']);

    // Act: Next
    await bot.click(first, 'search.page.next', ALICE);
    await bot.idle();

    // Assess: a new card for page 2, quoted by a precheck that named page 2; nothing charged yet
    const nextCard = structuredClone(bot.last());
    expect(visibleText(nextCard)).toContain(`Find the events of people named “${KNOWN_PERSON_NAME}”, page 2`);
    expect(visibleText(nextCard)).toContain(`*Page 2.* ${OTHER_PAGES}`);
    expect(lastRequest('/external/actions/precheck')?.body).toMatchObject({
      params: { person_name: KNOWN_PERSON_NAME, ...paging(2) },
    });
    expect(spent()).toHaveLength(1);

    // Act: Confirm
    const second = await confirm(nextCard);

    // Assess: the rows of page 2, and two charges in all
    expect(visibleText(second)).toMatch(/Page 2 of 2 · rows 41–\d+ of \d+/);
    expect(labelsOf(second)).toEqual(['← Previous']);
    expect(spent().map((entry) => entry.credits)).toEqual([50, 50]);
  });

  it('says a search with one page of results has no other page to pay for', async () => {
    // Prepare: a name only one exhibitor record has
    const only = bot.sim.seed.exhibitors.find(
      (x) =>
        bot.sim.seed.exhibitors.filter((y) =>
          y.companyName.toLowerCase().includes(x.companyName.toLowerCase()),
        ).length === 1,
    );
    if (!only) throw new Error('no unique company name in the seed');
    const card = await askFor(bot, `exhibitor ${only.companyName}`);

    // Act
    const results = await confirm(card);

    // Assess
    expect(labelsOf(results).filter((label) => /Previous|Next/.test(label))).toEqual([]);
    expect(visibleText(results)).toContain('no further page to pay for');
  });

  it('a company search pages the same way (`company … page:2` as typed)', async () => {
    // Act
    const card = await askFor(bot, 'company a page:2');

    // Assess
    expect(visibleText(card)).toContain('Find the events where “a” exhibits, page 2');
    const results = await confirm(card);
    expect(
      bot.sim
        .requests()
        .filter((request) => request.path === '/external/exhibitors/search-events')
        .at(-1)?.body,
    ).toMatchObject({ company_name: 'a', page: 2 });
    expect(labelsOf(results)).toContain('← Previous');
  });

  it('sends the event id with a contact unlock started from the event’s people list', async () => {
    // Prepare: the people list of an event
    await bot.command(`people ${BIG_EVENT}`);
    await bot.idle();
    const list = structuredClone(bot.last());

    // Act: Unlock emails…, then Confirm
    await bot.click(list, 'people.emails', ALICE);
    await bot.idle();
    const card = structuredClone(bot.last());
    expect(visibleText(card)).toContain('confirm.yes');
    await bot.click(card, 'confirm.yes');
    await bot.idle();

    // Assess
    const unlock = bot.sim
      .requests()
      .filter((request) => request.path === '/external/contacts/unlock')
      .at(-1);
    expect(unlock?.body).toMatchObject({ event_id: BIG_EVENT });
  });

  it('sends no event id for an unlock typed by ids, and `event:` as a word sends it', async () => {
    // Act
    const card = await askFor(bot, 'phones 100001');
    await bot.click(card, 'confirm.yes');
    await bot.idle();
    const typed = bot.sim
      .requests()
      .filter((request) => request.path === '/external/contacts/unlock-phone')
      .at(-1);
    const withEvent = await askFor(bot, `phones 100002 event:${BIG_EVENT}`);
    await bot.click(withEvent, 'confirm.yes');
    await bot.idle();
    const fromEvent = bot.sim
      .requests()
      .filter((request) => request.path === '/external/contacts/unlock-phone')
      .at(-1);

    // Assess
    expect(typed?.body).not.toHaveProperty('event_id');
    expect(fromEvent?.body).toMatchObject({ event_id: BIG_EVENT });
  });
});
