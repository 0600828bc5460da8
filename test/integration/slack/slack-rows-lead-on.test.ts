import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import { formatDateRange } from '../../../src/slack/views/format.ts';
import { ALICE, askFor, type Bot, startBot, visibleText } from '../../support/bot.ts';

/** Issue 26, item 5: every row leads on, and a confirmation card names the show it charges for. */

const BIG_EVENT = '26855';
const DETAIL_ROUTE = 'GET /external/events/{id}';

const valueOf = (button: { value?: string }): unknown => JSON.parse(button.value ?? 'null');

describe('rows that lead on, end to end', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  /** Runs a command and returns the message it produced. */
  async function run(text: string): Promise<SlackMessage> {
    await bot.command(text);
    await bot.idle();
    const message = bot.last();
    expect(message.warnings).toEqual([]);
    return structuredClone(message);
  }

  /** Clicks `actionId` on `message` (its first such button) and returns what the bot posted for it. */
  async function clickFor(message: SlackMessage, actionId: string): Promise<SlackMessage> {
    const before = bot.messages().length;
    await bot.click(message, actionId, ALICE);
    await bot.idle();
    const answer = bot.messages().slice(before).at(-1);
    if (!answer) throw new Error(`nothing answered ${actionId}`);
    expect(answer.warnings).toEqual([]);
    return answer;
  }

  const nameOf = (eventId: string) => bot.sim.events.find((event) => event.eventId === eventId)?.name ?? '';

  it('gives every search row Fit / Exhibitors / People / Add to plan for its own event, and each runs its command', async () => {
    // Prepare: a search with several matches, from the first ended show's start (a search without
    // dates lists the shows still ahead first, so its first page may hold no ended show)
    const today = new Date().toISOString().slice(0, 10);
    const from = bot.sim.events
      .filter((event) => event.dateEnd < today)
      .map((event) => event.dateStart)
      .sort()[0];
    const list = await run(`search fintech from:${from}`);
    const rowIds = [...visibleText(list).matchAll(/\* {2}`(\d+)`/g)].map((match) => match[1]);
    expect(rowIds.length).toBeGreaterThan(1);

    // Assess: one row of the four buttons under each row, carrying that row's event; a show already
    // over (the seed has some) has no Add to plan
    const isPast = (eventId: string | undefined) =>
      (bot.sim.events.find((event) => event.eventId === eventId)?.dateEnd ?? today) < today;
    expect(rowIds.some(isPast)).toBe(true);
    const labelsOf = (eventId: string | undefined) =>
      isPast(eventId) ? ['Fit', 'Exhibitors', 'People'] : ['Fit', 'Exhibitors', 'People', 'Add to plan'];
    const leads = buttonsOf(list).filter(({ button }) =>
      ['event.fit', 'fit.exhibitors', 'fit.people', 'plan.add'].includes(button.action_id),
    );
    expect(leads.map(({ button }) => button.text.text)).toEqual(rowIds.flatMap(labelsOf));
    expect(leads.map(({ button }) => valueOf(button))).toEqual(
      rowIds.flatMap((eventId) => labelsOf(eventId).map(() => ({ eventId }))),
    );
    const first = rowIds[0] ?? '';

    // Act + Assess: Fit gives the fit card of the first row's event, free
    const fit = await clickFor(list, 'event.fit');
    expect(visibleText(fit)).toMatch(/\d\.\d \/ 10/);
    expect(visibleText(fit)).toContain('Profile match');
    expect(visibleText(fit)).toContain(nameOf(first));

    // Exhibitors and People give that event's lists
    const exhibitors = await clickFor(list, 'fit.exhibitors');
    expect(exhibitors.blocks[0]).toMatchObject({ text: { text: `Exhibitors: ${nameOf(first)}` } });
    const people = await clickFor(list, 'fit.people');
    expect(people.blocks[0]).toMatchObject({ text: { text: `People: ${nameOf(first)}` } });

    // Add to plan puts the first row's show still ahead on the channel's plan
    const firstAhead = rowIds.find((eventId) => !isPast(eventId)) ?? '';
    const added = await clickFor(list, 'plan.add');
    expect(visibleText(added)).toContain(`Added *${nameOf(firstAhead)}*`);
    const plan = await run('plan');
    expect(visibleText(plan)).toContain(nameOf(firstAhead));
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
  });

  it('shows each exhibitor row of an event with its id and an Account button that opens its profile, free', async () => {
    // Prepare
    const list = await run(`exhibitors ${BIG_EVENT}`);
    const text = visibleText(list);
    const ids = [...text.matchAll(/Exhibitor ID `(\d+)`/g)].map((match) => match[1]);
    expect(ids).toHaveLength(10);
    const accounts = buttonsOf(list).filter(({ button }) => button.action_id === 'account.open');
    expect(accounts.map(({ button }) => valueOf(button))).toEqual(
      ids.map((exhibitorId) => ({ exhibitorId })),
    );
    const company = bot.sim.seed.exhibitors.find((exhibitor) => exhibitor.id === ids[0]);
    if (!company) throw new Error(`no exhibitor ${ids[0]}`);

    // Act: Account on the first row
    const profile = await clickFor(list, 'account.open');

    // Assess: that company's profile card, and nothing charged
    expect(profile.blocks[0]).toMatchObject({ type: 'header', text: { text: company.companyName } });
    expect(visibleText(profile)).toContain(`Exhibitor ID \`${company.id}\``);
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
  });
});

describe('a confirmation card names the event', () => {
  let bot: Bot;
  afterEach(() => bot?.close());

  it('names the event to unlock by name, dates and city beside its number, before and after Confirm', async () => {
    // Prepare
    bot = await startBot();
    const event = bot.sim.events.find((candidate) => candidate.eventId === BIG_EVENT);
    if (!event) throw new Error(`no event ${BIG_EVENT}`);
    const named = `Unlock ${event.name} (${formatDateRange(event.dateStart, event.dateEnd)}, ${event.city}), event ${BIG_EVENT}: every exhibitor and person`;

    // Act
    const card = await askFor(bot, `unlock ${BIG_EVENT}`);

    // Assess: the card, its notification text, and the card once charged
    expect(visibleText(card)).toContain(named);
    expect(card.text).toContain(named);
    expect(visibleText(card)).toContain('2,000 credits');
    await bot.click(card, 'confirm.yes', ALICE);
    await bot.idle();
    const settled = bot.find((message) => message.ts === card.ts);
    expect(visibleText(settled)).toContain(named);
    expect(bot.sim.ledger(bot.apiKey)).toHaveLength(1);
  });

  it('still shows the card, naming the event by number, when the event cannot be read', async () => {
    // Prepare: the event's detail read fails
    bot = await startBot();
    bot.sim.injectFault({ kind: 'status', status: 404, route: DETAIL_ROUTE, times: 5 });

    // Act
    const card = await askFor(bot, `unlock ${BIG_EVENT}`);

    // Assess
    expect(visibleText(card)).toContain(
      `Unlock event ${BIG_EVENT}: every exhibitor and person, past the 50-record preview`,
    );
    expect(visibleText(card)).toContain('2,000 credits');
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
  });
});
