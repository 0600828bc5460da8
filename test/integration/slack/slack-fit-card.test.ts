import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIG_EVENT_ID } from '../../../simulator/server.ts';
import { ALICE, type Bot, startBot, visibleText } from '../../support/bot.ts';

describe('/events fit', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  it('acks with a working line that the fit card replaces, shown only to the one who asked', async () => {
    const event = bot.sim.events.find((e) => e.id === BIG_EVENT_ID);
    if (!event) throw new Error('seed has no big event');
    const before = bot.messages().length;

    const ack = await bot.command(`fit ${event.eventId}`);
    await bot.idle();

    expect(ack.status).toBe(200);
    expect(JSON.stringify(ack.json)).toContain('Working on');
    const added = bot.messages().slice(before);
    expect(added).toHaveLength(1);
    const [card] = added;
    expect(card?.visibleTo).toBe(ALICE.userId);
    const text = visibleText(card ?? { text: '', blocks: [] });
    expect(text).not.toContain('Working on');
    expect(text).toMatch(/\d\.\d \/ 10/);
    expect(text).toMatch(/Recommended|Consider|Not recommended/);
    expect(text).toContain('Profile match');
    expect(text).toContain('Share in channel');
    expect(card?.warnings).toEqual([]);
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
  });

  it('posts nothing public until "Share in channel"; then the same card for everyone, saying who shared it', async () => {
    const before = bot.messages().length;
    await bot.command('fit 26855');
    await bot.idle();
    const [privateCard] = bot.messages().slice(before);
    if (!privateCard) throw new Error('no answer');
    expect(
      bot
        .messages()
        .filter((message) => !message.visibleTo)
        .slice(-1)[0]?.ts ?? '',
    ).not.toBe(privateCard.ts);

    await bot.click(privateCard, 'share.channel');
    await bot.idle();

    const shared = bot.last();
    expect(shared.visibleTo).toBeUndefined();
    expect(visibleText(shared)).toContain(`Shared by <@${ALICE.userId}>`);
    expect(visibleText(shared)).not.toContain('Share in channel');
    expect(bot.messages().some((message) => message.ts === privateCard.ts)).toBe(false);
  });

  it('answers a button on a shared card in that card’s thread, for everyone', async () => {
    const shared = bot
      .messages()
      .filter((message) => !message.visibleTo && visibleText(message).includes('Shared by'))
      .at(-1);
    if (!shared) throw new Error('nothing shared yet');

    await bot.click(shared, 'fit.exhibitors');
    await bot.idle();

    const reply = bot.last();
    expect(reply.threadTs).toBe(shared.ts);
    expect(reply.visibleTo).toBeUndefined();
  });

  it('answers an unknown event with a clear message only the user sees, and no stack', async () => {
    await bot.command('fit 99999999', ALICE);
    await bot.idle();

    const answer = bot.last();
    expect(answer.visibleTo).toBe(ALICE.userId);
    expect(visibleText(answer)).not.toMatch(/\bat .*\.ts:\d+/);
    expect(visibleText(answer)).toContain('`99999999`');
    expect(visibleText(answer)).toContain('/events search');
  });

  it('says what the score rests on: the profile in the team’s Event Intelligence account, set in its web app, and each factor', async () => {
    // Act
    await bot.command('fit 26855');
    await bot.idle();
    const card = visibleText(bot.last());
    await bot.command('help fit');
    await bot.idle();
    const help = visibleText(bot.last());

    // Assess
    for (const text of [card, help]) {
      expect(text).toContain('company profile stored in your team’s Event Intelligence account');
      expect(text).toContain('set in the service’s web app, not in Slack');
      expect(text).toContain('the bot cannot read it');
    }
    expect(card).toMatch(
      /\*(Recommended|Consider|Not recommended)\* for the profile in your Event Intelligence account/,
    );
    expect(card).toMatch(
      /\*Profile match\* \d+(\.\d)?\/10\\nThe profile in your account fits this show (well|in part|poorly)/,
    );
    expect(card).toMatch(
      /\*Matched exhibitor density\* \d+(\.\d)?\/10\\n(Many|Some|Few) of its exhibitors match that profile/,
    );
    expect(card).toMatch(
      /\*Event scale\* \d+(\.\d)?\/10\\nA (large|mid-sized|small) show by exhibitor count/,
    );
    expect(help).toContain('profile match (how the show fits that profile)');
    expect(help).toContain('event scale (its size by exhibitor count)');
  });
});

describe('/events fit for a show whose name has an ampersand', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  it('shows the name as written in the header (plain text), with no HTML entity', async () => {
    // Prepare
    const event = bot.sim.events.find((e) => e.name.includes('&'));
    if (!event) throw new Error('the simulator has no show with & in its name');

    // Act
    await bot.command(`fit ${event.eventId}`);
    await bot.idle();

    // Assess
    const card = bot.last();
    const header = JSON.stringify(card.blocks[0]);
    expect(header).toContain(JSON.stringify(event.name));
    expect(header).not.toContain('&amp;');
  });
});
