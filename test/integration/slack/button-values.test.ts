import { afterEach, describe, expect, it } from 'vitest';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { CONFIRMATION_WORDS } from '../../../src/slack/kit/confirmation-card.ts';
import { OUT_OF_DATE } from '../../../src/slack/kit/command-buttons.ts';
import { ACTION_IDS } from '../../../src/slack/views/action-ids.ts';
import { ALICE, askFor, type Bot, CHANNEL, startBot, toldTo, visibleText } from '../../support/bot.ts';

const SHOW = '26855';

/** The confirmation cards waiting for a decision. */
const cards = (bot: Bot) =>
  bot
    .messages()
    .filter((message) => !message.visibleTo && visibleText(message).includes(CONFIRMATION_WORDS.heading));
const current = (bot: Bot, ts: string) => bot.find((message) => message.ts === ts);
const planned = async (bot: Bot) =>
  (await bot.store.plans.get(ALICE.teamId, CHANNEL))?.shows.map((show) => show.eventId) ?? [];

/** `message` as a client still showing an older card (or a forged one) would send it: `actionId`'s value replaced. */
function withValue(message: SlackMessage, actionId: string, value: unknown): SlackMessage {
  const copy = structuredClone(message);
  const clicked = buttonsOf(copy).find(({ button }) => button.action_id === actionId);
  if (!clicked) throw new Error(`no ${actionId} button on the message`);
  clicked.button.value = JSON.stringify(value);
  return copy;
}

describe("a button's value, through the real handlers", () => {
  let bot: Bot;
  afterEach(() => bot?.close());

  it('Start again carrying command text (an older card, or a forged one) is out of date and runs nothing', async () => {
    bot = await startBot();
    await bot.command(`plan add ${SHOW}`);
    await bot.idle();
    const card = await askFor(bot, `unlock ${SHOW}`);
    await bot.click(card, ACTION_IDS.confirmNo);
    await bot.idle();
    const cancelled = current(bot, card.ts);
    expect(await planned(bot)).toEqual([SHOW]);

    // Any command's text once ran as if typed; Start again now only asks for its charge again.
    await bot.click(
      withValue(cancelled, ACTION_IDS.confirmRestart, { text: `plan remove ${SHOW}` }),
      ACTION_IDS.confirmRestart,
    );
    await bot.idle();

    expect(toldTo(bot, ALICE.userId)).toContain(OUT_OF_DATE);
    expect(await planned(bot)).toEqual([SHOW]);
    expect(cards(bot)).toEqual([]);
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);

    // The card as posted still asks again, through a new confirmation.
    await bot.click(current(bot, card.ts), ACTION_IDS.confirmRestart);
    await bot.idle();
    expect(cards(bot)).toHaveLength(1);
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
  });

  it.each([
    ['Remove naming no show', { eventId: `${SHOW} ${SHOW}` }],
    ['Remove of an older shape', { text: `plan remove ${SHOW}` }],
    ['Remove with no value', null],
  ])('%s on the plan card is out of date and removes nothing', async (_case, value) => {
    bot = await startBot();
    await bot.command(`plan add ${SHOW}`);
    await bot.command('plan');
    await bot.idle();
    const planCard = bot.find((message) => visibleText(message).includes(ACTION_IDS.planRemove));

    await bot.click(withValue(planCard, ACTION_IDS.planRemove, value), ACTION_IDS.planRemove);
    await bot.idle();

    expect(toldTo(bot, ALICE.userId)).toContain(OUT_OF_DATE);
    expect(await planned(bot)).toEqual([SHOW]);
  });
});
