import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_IDS } from '../../../src/slack/views/action-ids.ts';
import { ALICE, type Bot, startBot, visibleText } from '../../support/bot.ts';

describe('a quick unlock task, followed by the worker that submitted it', () => {
  let bot: Bot;
  beforeAll(async () => {
    // The simulator finishes a task 3 s after it is submitted; four polls a second apart cover it.
    bot = await startBot({ earlyPolls: { count: 4, everyMs: 1_000 } });
  });
  afterAll(() => bot.close());

  it('posts the result in the card’s thread without waiting for the scheduled poller', async () => {
    // Prepare
    const person = bot.sim.seed.personnel.find((p) => p.linked && p.emailFindable);
    if (!person) throw new Error('the seed has no person with a findable email');
    await bot.command(`emails ${person.id}`);
    await bot.idle();
    const card = bot.last();

    // Act: confirm; the worker's job ends once its early polls are done.
    await bot.click(card, ACTION_IDS.confirmYes, ALICE);
    await bot.idle();

    // Assess
    const replies = bot.messages().filter((m) => m.threadTs === card.ts);
    expect(replies).toHaveLength(1);
    expect(visibleText(replies[0] ?? { text: '', blocks: [] })).toContain(person.fullName);
    expect(visibleText(bot.find((m) => m.ts === card.ts))).toMatch(/Done/);
  });
});
