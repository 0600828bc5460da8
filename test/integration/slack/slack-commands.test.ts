import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_COMPANY_NAME } from '../../../simulator/server.ts';
import { ALICE, type Bot, startBot, visibleText } from '../../support/bot.ts';

const BIG_EVENT = '26855';

describe('/events subcommands, end to end', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  /** Runs a command and returns the message it produced. */
  async function run(text: string) {
    const before = bot.messages().length;
    const ack = await bot.command(text);
    await bot.idle();
    expect(ack.status).toBe(200);
    const produced = bot.messages().slice(before);
    expect(produced.length, `no answer to ${text}`).toBeGreaterThan(0);
    const message = produced[produced.length - 1];
    if (!message) throw new Error('no message');
    expect(message.warnings).toEqual([]);
    return { ack, message, text: visibleText(message) };
  }

  it('help lists every subcommand with an example, at once and only to the user', async () => {
    const ack = await bot.command('help');

    const text = JSON.stringify(ack.json);
    expect(ack.status).toBe(200);
    expect(text).toContain('ephemeral');
    for (const word of [
      'search',
      'show',
      'fit',
      'exhibitors',
      'people',
      'recommend',
      'similar',
      'person-events',
    ]) {
      expect(text).toContain(`/events ${word}`);
    }
    for (const word of ['credits', 'who', 'company', 'exhibitor', 'unlock', 'visitors', 'full-access']) {
      expect(text).toContain(`/events ${word}`);
    }
    expect(text).toContain('/events emails');
    expect(text).toContain('/events phones');
  });

  it('answers an unknown word with what was wrong and the help', async () => {
    const ack = await bot.command('teleport 26855');

    const text = JSON.stringify(ack.json);
    expect(text).toContain('teleport');
    expect(text).toContain('/events fit');
  });

  it('answers a missing argument with the usage and an example', async () => {
    const ack = await bot.command('exhibitors');

    const text = JSON.stringify(ack.json);
    expect(text).toContain('event id is missing');
    expect(text).toContain('/events exhibitors 26855');
  });

  it('search lists matching events with paging', async () => {
    const { message, text } = await run('search country:Germany');

    expect(message.visibleTo).toBe(ALICE.userId);
    const expected = bot.sim.events.filter((event) => event.country === 'Germany');
    expect(expected.length).toBeGreaterThan(0);
    for (const event of expected.slice(0, 3)) expect(text).toContain(event.eventId);
  });

  it('show gives the event with its facts and next steps', async () => {
    const event = bot.sim.events.find((e) => e.eventId === BIG_EVENT);

    const { text } = await run(`show ${BIG_EVENT}`);

    expect(text).toContain(event?.name ?? 'missing');
    expect(text).toContain('event.fit');
  });

  it('exhibitors tells the preview truth and pages within it', async () => {
    const { message, text } = await run(`exhibitors ${BIG_EVENT}`);

    expect(text).toContain('Page 1 of 5 · rows 1–10 of 340 (50 free, 290 locked)');
    expect(text).toContain('2,000');
    const firstPage = text;

    await bot.click(structuredClone(message), 'list.page.next', ALICE);
    await bot.idle();

    const paged = visibleText(bot.find((m) => m.ts === message.ts));
    expect(paged).not.toEqual(firstPage);
    expect(paged).toContain('Page 2 of 5 · rows 11–20');
  });

  it('people lists personnel with a button to unlock their emails', async () => {
    const { text } = await run(`people ${BIG_EVENT}`);

    expect(text).toContain('people.emails');
    expect(text).toMatch(/\(50 free, [\d,]+ locked\)/);
  });

  it('recommend lists recommended exhibitors', async () => {
    const { text } = await run(`recommend ${BIG_EVENT}`);

    expect(text.toLowerCase()).toContain('recommend');
  });

  it('similar searches exhibitors from a company website or an audience, for free', async () => {
    const [first] = bot.sim.seed.exhibitors;
    const industryWord = first?.industry.toLowerCase().match(/[a-z]{4,}/)?.[0];
    if (!first || !industryWord) throw new Error('the seed has no exhibitor with an industry');

    const byWebsite = await run(`similar https://www.${industryWord}-partners.example`);
    const byAudience = await run(`similar ${first.industry} teams`);

    expect(byWebsite.text).toContain(first.companyName);
    expect(byAudience.text).toContain(first.companyName);
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
  });

  it('person-events lists the events of one person, soonest first', async () => {
    const person = bot.sim.seed.personnel.find((p) => p.id === '100001');
    const soonest = bot.sim.seed.events
      .filter((event) => person?.attendance.some((a) => a.eventId === event.id))
      .sort((a, b) => a.dateStart.localeCompare(b.dateStart))[0];
    if (!person || !soonest) throw new Error('the seed has no events for person 100001');

    const { text } = await run('person-events 100001');

    expect(text).toContain(person.fullName);
    expect(text).toContain(soonest.name);
  });

  it('credits shows the balance only to the user', async () => {
    const { message, text } = await run('credits');

    expect(message.visibleTo).toBe(ALICE.userId);
    expect(text).toContain(bot.sim.balance(bot.apiKey).toLocaleString('en-US'));
  });

  it('files is not a command: the vendor keeps agent files off its customer API', async () => {
    const { message, text } = await run('files');

    expect(message.visibleTo).toBe(ALICE.userId);
    expect(text).toContain('files');
    expect(text).toContain('/events help');
  });

  it('visitors, full-access and phones ask for a confirmation with their price', async () => {
    const unlock = await run(`unlock ${BIG_EVENT}`);
    await bot.click(structuredClone(unlock.message), 'confirm.yes');
    await bot.idle();

    const visitors = await run(`visitors ${BIG_EVENT}`);
    const phones = await run('phones 100001 100002');
    const fullAccess = await run('full-access 8453');

    expect(visitors.text).toContain('3,000 credits');
    expect(phones.text).toContain('300 credits');
    expect(fullAccess.text).toMatch(/[0-9],?[0-9]{3} credits/);
    expect(bot.sim.ledger(bot.apiKey)).toHaveLength(1);
  });

  it('asks Slack who the bot is once per cold start, not on every request', async () => {
    await run('credits');
    await run(`fit ${BIG_EVENT}`);

    expect(bot.slack.calls.filter((call) => call.method === 'auth.test')).toHaveLength(1);
  });

  it('tells the user how to invite the bot when it cannot post a card in the channel', async () => {
    const outsider = { ...ALICE, channelId: 'C0OTHER' };
    bot.slack.failNext('chat.postMessage', 'not_in_channel');

    await bot.command(`company ${KNOWN_COMPANY_NAME}`, outsider);
    await bot.idle();

    const answer = bot.last('C0OTHER');
    expect(answer.visibleTo).toBe(ALICE.userId);
    expect(answer.text).toContain('/invite');
  });
});
