import { afterEach, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { KNOWN_PERSON_NAME } from '../../../simulator/server.ts';
import { ACTION_IDS } from '../../../src/slack/views/action-ids.ts';
import { ALICE, askFor, type Bot, startBot, unlockPoller, visibleText } from '../../support/bot.ts';
import { CONFIRMATION_WORDS } from '../../../src/slack/kit/confirmation-card.ts';

const current = (bot: Bot, ts: string) => visibleText(bot.find((message) => message.ts === ts));

/** Cards whose words a user reads, as the fake Slack holds them now. */
const cardIn = (bot: Bot, threadTs: string, words: string): SlackMessage | undefined =>
  bot.messages().find((m) => m.threadTs === threadTs && !m.visibleTo && visibleText(m).includes(words));

describe('money words on the cards, as a new user reads them', () => {
  let bot: Bot;
  afterEach(() => bot?.close());

  it('prices a phone unlock as charged per contact, found or not, and then says the contact not found was charged', async () => {
    // Prepare: a linked contact the service will find no phone number for.
    bot = await startBot();
    const person = bot.sim.seed.personnel.find((p) => p.linked && !p.phoneFindable);
    if (!person) throw new Error('no contact without a phone number in the seed');
    const balance = bot.sim.balance(bot.apiKey);

    // Act
    const card = await askFor(bot, `phones ${person.id}`);
    await bot.click(card, ACTION_IDS.confirmYes, ALICE);
    await bot.idle();
    bot.sim.completeTasks();
    await unlockPoller(bot)();

    // Assess: the price said a contact not found is charged; the outcome says it was, and what it cost.
    const before = visibleText(card);
    expect(before).toContain(
      'up to 150 credits (150 credits per contact, charged even if no phone number is found',
    );
    expect(before).not.toContain('charged only if something matches');
    const after = current(bot, card.ts);
    expect(after).toContain('No phone number found, 1 charged but not found');
    expect(after).toContain('Spent 150 credits');
    expect(bot.sim.balance(bot.apiKey)).toBe(balance - 150);
  });

  it('says the balance is not available right now when it cannot be read after the charge', async () => {
    // Prepare: a paid search that matches; the balance cannot be read once it is confirmed.
    bot = await startBot();
    const card = await askFor(bot, `who ${KNOWN_PERSON_NAME}`);
    bot.sim.injectFault({ kind: 'status', status: 400, route: 'GET /external/credits/balance', times: 5 });

    // Act
    await bot.click(card, ACTION_IDS.confirmYes, ALICE);
    await bot.idle();

    // Assess
    const after = current(bot, card.ts);
    expect(after).toContain('Spent 50 credits · Balance not available right now');
    expect(after).not.toMatch(/balance unavailable/i);
    expect(bot.sim.ledger(bot.apiKey)).toHaveLength(1);
  });

  it('says a cancelled LinkedIn activity card charged nothing and that the service publishes no price', async () => {
    // Prepare: an email unlock's results, whose LinkedIn activity button asks for a confirmation.
    bot = await startBot();
    const person = bot.sim.seed.personnel.find((p) => p.linked && p.emailFindable);
    if (!person) throw new Error('no contact with an email in the seed');
    const unlock = await askFor(bot, `emails ${person.id}`);
    await bot.click(unlock, ACTION_IDS.confirmYes, ALICE);
    await bot.idle();
    bot.sim.completeTasks();
    await unlockPoller(bot)();
    const results = structuredClone(cardIn(bot, unlock.ts, 'LinkedIn activity'));
    if (!results) throw new Error('no LinkedIn activity button under the email results');
    await bot.click(results, `${ACTION_IDS.followUpLinkedin}.all`, ALICE);
    await bot.idle();
    const card = structuredClone(cardIn(bot, unlock.ts, CONFIRMATION_WORDS.heading));
    if (!card) throw new Error('no LinkedIn confirmation card');

    // Act
    await bot.click(card, ACTION_IDS.confirmNo, ALICE);
    await bot.idle();

    // Assess
    const cancelled = current(bot, card.ts);
    expect(cancelled).toContain('Cancelled');
    expect(cancelled).toContain('Nothing was charged · The service publishes no price for this');
    expect(cancelled).not.toMatch(/Price was|price not published by the service; the credits spent/);
    expect(
      bot.sim.requests().filter((r) => r.path === '/external/personnel/unlock-linkedin-activity'),
    ).toEqual([]);
  });
});
