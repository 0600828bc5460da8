import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import { appDmOf, type SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { ALICE, askFor, type Bot, CHANNEL, startBot, visibleText } from '../../support/bot.ts';
import { CONFIRMATION_WORDS } from '../../../src/slack/kit/confirmation-card.ts';

// Account research (issue 14, item 1) through the real handler: `/events account`, `contacts`,
// `linkedin` and `brief`, as someone in Slack would use them.

const ACME_ID = '4100';
const ACME = 'Acme Analytics';
const BIG_EVENT = '26855';

describe('account research, end to end', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  /** Runs `/events <text>` and returns its answer (not the "working…" line) and the service calls made. */
  async function run(text: string) {
    const before = bot.messages().length;
    const calls = bot.sim.requests().length;
    const ack = await bot.command(text);
    await bot.idle();
    expect(ack.status).toBe(200);
    const answers = bot
      .messages()
      .slice(before)
      .filter((message) => !message.text.startsWith(':hourglass'));
    const answer = answers.at(-1);
    if (!answer) throw new Error(`no answer to /events ${text}: ${JSON.stringify(ack.json)}`);
    expect(answer.warnings).toEqual([]);
    return { answer: structuredClone(answer), ack, serviceCalls: bot.sim.requests().slice(calls) };
  }

  /** The event ids of a card's per-event button rows, top to bottom. */
  const eventRowIds = (message: SlackMessage) =>
    buttonsOf(message)
      .filter(({ button }) => button.action_id === 'fit.people')
      .map(({ button }) => (JSON.parse(button.value ?? '{}') as { eventId: string }).eventId);

  describe('/events account', () => {
    it('shows the company profile and its events, the soonest upcoming first, only to the asker', async () => {
      // Prepare: what the seed says Acme exhibits at, upcoming ones by start date
      const today = bot.sim.today;
      const acme = bot.sim.seed.exhibitors.find((exhibitor) => exhibitor.id === ACME_ID);
      expect(acme?.companyName).toBe(ACME);
      const upcoming = bot.sim.events
        .filter((event) => acme?.eventIds.includes(event.id) && event.dateEnd >= today)
        .sort((a, b) => a.dateStart.localeCompare(b.dateStart));
      const soonest = upcoming[0];
      if (!soonest) throw new Error('the seed has no upcoming event for Acme');

      // Act
      const { answer } = await run(`account ${ACME_ID}`);

      // Assess
      expect(answer.visibleTo).toBe(ALICE.userId);
      expect(answer.blocks[0]).toMatchObject({ type: 'header', text: { text: ACME } });
      const rows = eventRowIds(answer);
      expect(rows[0]).toBe(soonest.eventId);
      expect(rows.slice(0, upcoming.length)).toEqual(upcoming.slice(0, rows.length).map((e) => e.eventId));
      expect(visibleText(answer)).toContain(soonest.name);
      const labels = buttonsOf(answer).map(({ button }) => button.text.text);
      expect(labels).toEqual(expect.arrayContaining(['Fit', 'Exhibitors', 'People', 'Share in channel']));
      expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
    });

    it("opens an event's people from its row", async () => {
      const { answer } = await run(`account ${ACME_ID}`);
      const [first] = eventRowIds(answer);
      const name = bot.sim.events.find((event) => event.eventId === first)?.name;

      await bot.click(answer, 'fit.people', ALICE);
      await bot.idle();

      const people = bot.last();
      expect(people.blocks[0]).toMatchObject({ type: 'header', text: { text: `People: ${name}` } });
    });

    it('shares the card in the channel for everyone', async () => {
      const { answer } = await run(`account ${ACME_ID}`);

      await bot.click(answer, 'share.channel', ALICE);
      await bot.idle();

      const shared = bot.last();
      expect(shared.visibleTo).toBeUndefined();
      expect(shared.blocks[0]).toMatchObject({ type: 'header', text: { text: ACME } });
      expect(visibleText(shared)).toContain(`Shared by <@${ALICE.userId}>`);
    });

    it('asks for a confirmation before a paid name look-up, and charges nothing yet', async () => {
      const { answer } = await run(`account ${ACME}`);

      expect(answer.visibleTo).toBeUndefined();
      expect(answer.channel).toBe(CHANNEL);
      expect(visibleText(answer)).toContain(CONFIRMATION_WORDS.heading);
      expect(visibleText(answer)).toContain(ACME);
      expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
    });

    it('says plainly when the exhibitor id is unknown', async () => {
      const { answer } = await run('account 999999');

      expect(answer.visibleTo).toBe(ALICE.userId);
      expect(answer.text).toContain('found nothing for `999999`');
    });
  });

  describe('/events contacts', () => {
    it('lists the people at a company with that title, with the email and phone unlock buttons', async () => {
      // Prepare
      const expected = bot.sim.seed.personnel.filter(
        (person) => person.companyName === ACME && person.title.toLowerCase().includes('vp'),
      );
      expect(expected.length).toBeGreaterThan(0);

      // Act
      const { answer, serviceCalls } = await run(`contacts ${ACME} title:VP`);

      // Assess
      expect(answer.visibleTo).toBe(ALICE.userId);
      const text = visibleText(answer);
      for (const person of expected.slice(0, 10)) expect(text).toContain(person.fullName);
      const others = bot.sim.seed.personnel.filter(
        (person) => person.companyName === ACME && !person.title.toLowerCase().includes('vp'),
      );
      for (const person of others) expect(text).not.toContain(person.fullName);
      const search = serviceCalls.find((call) => call.path === '/external/contacts/search');
      expect(search?.query).toMatchObject({ company_name: ACME, role: 'VP' });
      const ids = buttonsOf(answer).map(({ button }) => button.action_id);
      expect(ids).toEqual(expect.arrayContaining(['people.emails', 'people.phones', 'share.channel']));
    });

    it('unlocks the emails shown through the confirmation card', async () => {
      const { answer } = await run(`contacts ${ACME} title:VP`);

      await bot.click(answer, 'people.emails', ALICE);
      await bot.idle();

      const card = bot.last();
      expect(visibleText(card)).toContain(CONFIRMATION_WORDS.heading);
      expect(visibleText(card)).toContain('email');
      expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
    });

    it('pages through more contacts than one card holds, and exports them all in one CSV, for free', async () => {
      // Prepare: the company with the most people in the seed, more than one page of them
      const counts = new Map<string, number>();
      for (const { companyName } of bot.sim.seed.personnel)
        if (companyName) counts.set(companyName, (counts.get(companyName) ?? 0) + 1);
      const [company] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
      if (!company) throw new Error('no company with people in the seed');
      const staff = bot.sim.seed.personnel.filter((person) =>
        person.companyName?.toLowerCase().includes(company.toLowerCase()),
      );
      expect(staff.length).toBeGreaterThan(10);
      const balance = bot.sim.balance(bot.apiKey);
      const { answer: first } = await run(`contacts ${company}`);
      expect(visibleText(first)).toContain(`Page 1 of 2 · rows 1–10 of ${staff.length}`);

      // Act: Next
      await bot.click(first, 'list.page.next', ALICE);
      await bot.idle();

      // Assess: page 2 in place of page 1, still with its unlock buttons
      const second = structuredClone(bot.find((message) => message.ts === first.ts));
      expect(second.warnings).toEqual([]);
      expect(visibleText(second)).toContain(`Page 2 of 2 · rows 11–${staff.length} of ${staff.length}`);
      const labels = buttonsOf(second).map(({ button }) => button.text.text);
      expect(labels).toEqual(expect.arrayContaining(['← Previous', 'Export CSV']));
      expect(labels).not.toContain('Next →');
      expect(buttonsOf(second).map(({ button }) => button.action_id)).toContain('people.emails');

      // Act: Export CSV from the private card (its file goes to Alice's direct messages)
      await bot.click(second, 'list.export', ALICE);
      await bot.idle();

      // Assess: one file of every contact, emails as locked as the search shows them, nothing spent
      const uploads = bot.slack.messages(appDmOf(ALICE.userId)).filter((message) => message.files?.length);
      expect(uploads).toHaveLength(1);
      const csv = uploads[0]?.files?.[0]?.content ?? '';
      const lines = csv.replace(/\r\n$/, '').split('\r\n');
      expect(lines[0]).toBe('personnel_id,name,title,company,source,email,email_status,phone,phone_status');
      expect(new Set(lines.slice(1).map((line) => line.split(',')[0]))).toEqual(
        new Set(staff.map((person) => person.id)),
      );
      for (const person of staff) if (person.email) expect(csv).not.toContain(person.email);
      expect(uploads[0]?.text).toContain(`CSV of ${staff.length} contacts`);
      expect(bot.sim.balance(bot.apiKey)).toBe(balance);
    });

    it('refuses a filter the service does not have, saying which ones it has, without calling it', async () => {
      const calls = bot.sim.requests().length;
      const ack = await bot.command(`contacts ${ACME} level:VP`);
      await bot.idle();

      const said = JSON.stringify(ack.json);
      expect(said).toContain('no `level:` filter');
      expect(said).toContain('`title:`');
      expect(bot.sim.requests().slice(calls)).toEqual([]);
    });
  });

  describe('/events linkedin', () => {
    it("names the person and lists their events from the profile's address", async () => {
      const jane = bot.sim.seed.personnel.find((person) => person.id === '100001');
      if (!jane) throw new Error('no person 100001');
      const event = bot.sim.events.find((candidate) => candidate.id === jane.attendance[0]?.eventId);

      const { answer } = await run(`linkedin <${jane.linkedinUrl}>`);

      expect(answer.visibleTo).toBe(ALICE.userId);
      expect(answer.blocks[0]).toMatchObject({ type: 'header', text: { text: jane.fullName } });
      expect(event && visibleText(answer)).toContain(event?.name);
      expect(eventRowIds(answer)).toContain(event?.eventId);
    });

    it('refuses an address that is not a LinkedIn profile', async () => {
      const ack = await bot.command('linkedin https://example.com/jane');

      expect(JSON.stringify(ack.json)).toContain('is not a LinkedIn profile address');
    });
  });

  describe('/events brief', () => {
    it("shows the event's summary with its coverage counts and next steps", async () => {
      const event = bot.sim.events.find((candidate) => candidate.eventId === BIG_EVENT);
      if (!event) throw new Error(`no event ${BIG_EVENT}`);

      const { answer, serviceCalls } = await run(`brief ${BIG_EVENT}`);

      expect(answer.visibleTo).toBe(ALICE.userId);
      expect(answer.blocks[0]).toMatchObject({ type: 'header', text: { text: event.name } });
      const text = visibleText(answer);
      expect(text).toContain(event.attendeeCount.toLocaleString('en-US'));
      expect(text).toContain(event.topics[0]);
      expect(serviceCalls.map((call) => call.path)).toEqual(['/external/events/brief']);
      const ids = buttonsOf(answer).map(({ button }) => button.action_id);
      expect(ids).toEqual(expect.arrayContaining(['event.fit', 'fit.exhibitors', 'fit.people']));
    });
  });
});

describe('account by company name, end to end', () => {
  // Its own bot: the name search charges, and the tests above expect an untouched ledger.
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  it('lists the exhibitor records of the name once confirmed, each with its id and an Account button that opens its profile for free', async () => {
    // Prepare: the name search, confirmed
    const records = bot.sim.seed.exhibitors.filter((exhibitor) =>
      exhibitor.companyName.toLowerCase().includes(ACME.toLowerCase()),
    );
    expect(records.map(({ id }) => id)).toEqual([ACME_ID]);
    const card = await askFor(bot, `account ${ACME}`);
    await bot.click(card, 'confirm.yes', ALICE);
    await bot.idle();
    const results = structuredClone(bot.messages().findLast((message) => message.threadTs === card.ts));
    if (!results) throw new Error('no results in the thread');
    expect(results.warnings).toEqual([]);
    expect(visibleText(results)).toContain(`Exhibitor ID \`${ACME_ID}\``);
    const accounts = buttonsOf(results).filter(({ button }) => button.action_id === 'account.open');
    expect(accounts.map(({ button }) => button.value)).toEqual([JSON.stringify({ exhibitorId: ACME_ID })]);
    const charges = bot.sim.ledger(bot.apiKey).length;
    expect(charges).toBe(1);

    // Act: Account on the record
    await bot.click(results, 'account.open', ALICE);
    await bot.idle();

    // Assess: the profile card, in the same thread, for everyone, and no further charge
    const profile = bot.last();
    expect(profile.threadTs).toBe(card.ts);
    expect(profile.visibleTo).toBeUndefined();
    expect(profile.blocks[0]).toMatchObject({ type: 'header', text: { text: ACME } });
    expect(visibleText(profile)).toContain(`Exhibitor ID \`${ACME_ID}\``);
    expect(bot.sim.ledger(bot.apiKey)).toHaveLength(charges);
  });
});
