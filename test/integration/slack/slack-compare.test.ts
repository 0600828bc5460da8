import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import { KNOWN_COMPANY_NAME } from '../../../simulator/server.ts';
import type { SeededEvent } from '../../../simulator/seed.ts';
import { ALICE, type Bot, CHANNEL, startBot, visibleText } from '../../support/bot.ts';

/*
 * `/events compare` and Compare… on lists, through the real handlers: the fake Slack, DynamoDB Local
 * and the service simulator.
 */

const picked = (ids: readonly string[]) => ({
  shows: { value: { type: 'checkboxes', selected_options: ids.map((value) => ({ value })) } },
});

/** The text of the card's section that starts with `*title*`. */
const factOf = (card: SlackMessage, title: string): string => {
  const texts = card.blocks.flatMap((block) => {
    const text = (block as { text?: { text?: string } }).text?.text;
    return typeof text === 'string' ? [text] : [];
  });
  return texts.find((text) => text.startsWith(`*${title}*`)) ?? '';
};

describe('/events compare', () => {
  let bot: Bot;
  let shows: SeededEvent[];
  beforeAll(async () => {
    bot = await startBot();
    const upcoming = bot.sim.events.filter((event) => event.dateStart > bot.sim.today);
    shows = upcoming.slice(0, 3);
    if (shows.length < 3) throw new Error('the seed has fewer than three upcoming shows');
  });
  afterAll(() => bot.close());

  it('answers three shows with one card holding the three, each with its fit score and band, spending nothing', async () => {
    // Prepare
    const before = bot.messages().length;

    // Act
    const ack = await bot.command(`compare ${shows.map((show) => show.eventId).join(' ')}`);
    await bot.idle();

    // Assess
    expect(JSON.stringify(ack.json)).toContain('Working on');
    const added = bot.messages().slice(before);
    expect(added).toHaveLength(1);
    const [card] = added;
    if (!card) throw new Error('no card');
    expect(card.visibleTo).toBe(ALICE.userId);
    expect(card.warnings).toEqual([]);
    expect(card.text).toMatch(/^Compare: /);
    const fit = factOf(card, 'Fit for your profile');
    for (const show of shows) {
      expect(fit).toContain(`*${show.name.slice(0, 39)}`);
      expect(fit).toContain(`*${show.fit.score.toFixed(1)} / 10*`);
      expect(fit).toContain(`Profile match ${show.fit.breakdown.profile_match.toFixed(1)}/10`);
      expect(factOf(card, 'Exhibitors')).toContain(show.exhibitorCount.toLocaleString('en-US'));
      expect(factOf(card, 'Where')).toContain(show.country);
    }
    expect(fit).toMatch(/Recommended|Consider|Not recommended/);
    expect(factOf(card, 'Unlock (event contacts)')).toMatch(/2,000 credits/);
    // Each show leads on: Fit, Exhibitors, People, Add to plan, for its own id
    const planButtons = buttonsOf(card).filter(({ button }) => button.action_id === 'plan.add');
    expect(planButtons.map(({ button }) => JSON.parse(button.value ?? '{}') as unknown)).toEqual(
      shows.map((show) => ({ eventId: show.eventId })),
    );
    expect(buttonsOf(card).filter(({ button }) => button.action_id === 'event.fit')).toHaveLength(3);
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
  });

  it('shares a compare card in the channel for everyone with Share in channel', async () => {
    // Prepare
    await bot.command(`compare ${shows.map((show) => show.eventId).join(' ')}`);
    await bot.idle();
    const privateCard = bot.last();

    // Act
    await bot.click(privateCard, 'share.channel');
    await bot.idle();

    // Assess
    const shared = bot.last();
    expect(shared.visibleTo).toBeUndefined();
    expect(shared.text).toBe(privateCard.text);
    expect(visibleText(shared)).toContain(`Shared by <@${ALICE.userId}>`);
  });

  it('compares the ids the issue was filed with instead of offering a paid `company` search', async () => {
    // Act
    const ack = await bot.command('compare 27317 27053 27251');
    await bot.idle();

    // Assess: no did-you-mean; a compare card, each unknown show saying it was not compared
    expect(JSON.stringify(ack.json)).not.toContain('company');
    const card = bot.last();
    expect(card.text).toMatch(/^Compare: /);
    expect(visibleText(card)).not.toContain('Did you mean');
  });

  it('still compares the shows it finds when one id is unknown, saying which one it could not', async () => {
    // Act
    await bot.command(`compare ${shows[0]?.eventId ?? ''} 99999999 ${shows[1]?.eventId ?? ''}`);
    await bot.idle();

    // Assess
    const card = bot.last();
    expect(card.warnings).toEqual([]);
    expect(visibleText(card)).toContain('`99999999`: not compared, the service has no show with this id');
    expect(card.blocks[0]).toMatchObject({ type: 'header', text: { text: 'Compare 2 shows' } });
    expect(visibleText(card)).toContain('1 id was not compared');
    const fit = factOf(card, 'Fit for your profile');
    expect(fit).toContain(`*${shows[0]?.fit.score.toFixed(1) ?? ''} / 10*`);
    expect(fit).toContain(`*${shows[1]?.fit.score.toFixed(1) ?? ''} / 10*`);
    expect(fit).not.toContain('99999999');
  });

  it.each([
    ['one id', '26855', /Give 2 to 5 event ids/],
    ['six ids', '1001 1002 1003 1004 1005 1006', /at most 5 shows; you gave 6/],
    ['a repeated id', '26855 26856 26855', /`26855` is given twice/],
    ['a word that is no id', '26855 fintech', /`fintech` is not an event id/],
  ])('refuses %s at once with the usage, asking the service nothing', async (_case, ids, problem) => {
    // Prepare
    const requests = bot.sim.requests().length;
    const messages = bot.messages().length;

    // Act
    const ack = await bot.command(`compare ${ids}`);
    await bot.idle();

    // Assess
    const answer = JSON.stringify(ack.json);
    expect(answer).toMatch(problem);
    expect(answer).toContain('`/events compare 26855 26888 26965`');
    expect(answer).not.toContain('Working on');
    expect(bot.sim.requests()).toHaveLength(requests);
    // The refusal is the only answer: nothing comes after it
    const added = bot.messages().slice(messages);
    expect(added).toHaveLength(1);
    expect(added[0]?.text).toMatch(problem);
  });

  it("names the channel's watched accounts exhibiting at each show", async () => {
    // Prepare: the channel watches a company; two of its shows and one it is not at
    const company = bot.sim.seed.exhibitors.find((exhibitor) => exhibitor.companyName === KNOWN_COMPANY_NAME);
    if (!company) throw new Error('the seed has no known company');
    await bot.command(`watch add ${KNOWN_COMPANY_NAME}`);
    await bot.idle();
    const told = (await bot.store.watchLists.allAccounts(ALICE.teamId, CHANNEL)).flatMap(
      (account) => account.told ?? [],
    );
    const at = told[0];
    const elsewhere = bot.sim.events.find((event) => !company.eventIds.includes(event.id));
    if (!at || !elsewhere) throw new Error('no show to compare');

    // Act
    await bot.command(`compare ${at.eventId} ${elsewhere.eventId}`);
    await bot.idle();

    // Assess
    const watched = factOf(bot.last(), "This channel's watched accounts exhibiting");
    const [, atLine, elsewhereLine] = watched.split('\n');
    expect(atLine).toContain(KNOWN_COMPANY_NAME);
    expect(elsewhereLine).toContain('None of the watched accounts');
  });
});

describe('Compare… on a list of shows', () => {
  let bot: Bot;
  let list: SlackMessage;
  let pageIds: string[];
  beforeAll(async () => {
    bot = await startBot();
    await bot.command('search expo');
    await bot.idle();
    list = bot.last();
    const button = buttonsOf(list).find(({ button }) => button.action_id === 'compare.open');
    pageIds = (
      JSON.parse(button?.button.value ?? '{"shows":[]}') as { shows: { eventId: string }[] }
    ).shows.map((show) => show.eventId);
  });
  afterAll(() => bot.close());

  it("opens a modal listing the page's shows as checkboxes", async () => {
    // Act
    await bot.click(list, 'compare.open');

    // Assess
    const modal = bot.slack.modal(ALICE.userId);
    expect(modal?.view.callback_id).toBe('modal.compare');
    expect(modal?.warnings).toEqual([]);
    const options = JSON.stringify(modal?.view.blocks);
    expect(pageIds.length).toBeGreaterThanOrEqual(6);
    for (const id of pageIds) expect(options).toContain(`"value":"${id}"`);
  });

  it.each([
    ['one show', 1, 'Pick at least 2 shows to compare.'],
    ['six shows', 6, 'Pick at most 5 shows: you picked 6.'],
  ])('refuses %s in the modal, with a field error, and runs nothing', async (_case, count, error) => {
    // Prepare
    await bot.click(list, 'compare.open');
    const requests = bot.sim.requests().length;
    const messages = bot.messages().length;

    // Act
    const answer = await bot.slack.submitView({
      user: ALICE.userId,
      values: picked(pageIds.slice(0, count)),
    });
    await bot.idle();

    // Assess
    expect(JSON.parse(answer.body)).toMatchObject({ response_action: 'errors' });
    expect(bot.slack.modal(ALICE.userId)?.errors).toEqual({ shows: error });
    expect(bot.sim.requests()).toHaveLength(requests);
    expect(bot.messages()).toHaveLength(messages);
  });

  it('answers a private list with the compare card, privately, under it', async () => {
    // Prepare
    await bot.click(list, 'compare.open');
    const chosen = pageIds.slice(0, 3);

    // Act
    await bot.slack.submitView({ user: ALICE.userId, values: picked(chosen) });
    await bot.idle();

    // Assess
    expect(bot.slack.modal(ALICE.userId)).toBeUndefined();
    const card = bot.last();
    expect(card.visibleTo).toBe(ALICE.userId);
    expect(card.warnings).toEqual([]);
    expect(card.text).toMatch(/^Compare: /);
    // Add to plan for each show still ahead (a past one offers none)
    const today = new Date().toISOString().slice(0, 10);
    const ahead = chosen.filter(
      (id) => (bot.sim.events.find((e) => e.eventId === id)?.dateEnd ?? today) >= today,
    );
    expect(ahead.length).toBeGreaterThan(0);
    const planned = buttonsOf(card).filter(({ button }) => button.action_id === 'plan.add');
    expect(
      planned.map(({ button }) => (JSON.parse(button.value ?? '{}') as { eventId: string }).eventId),
    ).toEqual(ahead);
    expect(bot.messages().some((message) => message.ts === list.ts)).toBe(true);
  });

  it("offers Compare… under the shows-for list too, with the page's shows", async () => {
    // Act
    await bot.command('shows-for payment teams in retail');
    await bot.idle();

    // Assess
    const card = bot.last();
    const compare = buttonsOf(card).find(({ button }) => button.action_id === 'compare.open');
    const value = JSON.parse(compare?.button.value ?? '{"shows":[]}') as { shows: { eventId: string }[] };
    const rowIds = buttonsOf(card)
      .filter(({ blockId }) => blockId.startsWith('event-'))
      .map(({ blockId }) => blockId.slice('event-'.length));
    expect(value.shows.map((show) => show.eventId)).toEqual([...new Set(rowIds)]);
  });

  it('posts the compare card for everyone when the list was shared in the channel', async () => {
    // Prepare: the list shared for everyone
    await bot.click(list, 'share.channel');
    await bot.idle();
    const shared = bot.last();
    expect(shared.visibleTo).toBeUndefined();
    await bot.click(shared, 'compare.open');

    // Act
    await bot.slack.submitView({ user: ALICE.userId, values: picked(pageIds.slice(1, 3)) });
    await bot.idle();

    // Assess
    const card = bot.last();
    expect(card.visibleTo).toBeUndefined();
    expect(card.text).toMatch(/^Compare: /);
    expect(visibleText(card)).toContain(`Shared by <@${ALICE.userId}>`);
  });
});
