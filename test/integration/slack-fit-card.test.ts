import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIG_EVENT_ID } from '../../src/simulator/server.ts';
import { ALICE, type Bot, startBot, visibleText } from '../support/bot.ts';

describe('/events fit', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  it('acks at once with a working line, then posts the fit card in the channel', async () => {
    const event = bot.sim.events.find((e) => e.id === BIG_EVENT_ID);
    if (!event) throw new Error('seed has no big event');

    const ack = await bot.command(`fit ${event.eventId}`);
    await bot.idle();

    expect(ack.status).toBe(200);
    expect(JSON.stringify(ack.json)).toContain('Working on');
    const card = bot.last();
    expect(card.visibleTo).toBeUndefined();
    const text = visibleText(card);
    expect(text).toMatch(/\d\.\d \/ 10/);
    expect(text).toMatch(/Recommended|Consider|Not recommended/);
    expect(text).toContain('Profile match');
    expect(card.warnings).toEqual([]);
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
  });

  it('answers an unknown event with a clear message only the user sees, and no stack', async () => {
    await bot.command('fit 99999999', ALICE);
    await bot.idle();

    const answer = bot.last();
    expect(answer.visibleTo).toBe(ALICE.userId);
    expect(visibleText(answer)).not.toMatch(/\bat .*\.ts:\d+/);
    expect(visibleText(answer).toLowerCase()).toContain('not');
  });
});
