import { afterEach, describe, expect, it } from 'vitest';
import { slashCommandBody } from '../../../local/fake-slack/payloads.ts';
import { RECONCILE_AFTER_SECONDS } from '../../../src/domain/ports/index.ts';
import {
  ALICE,
  APPROVER,
  type Bot,
  CHANNEL,
  confirmationIdOf,
  startBot,
  toldTo,
  visibleText,
} from '../../support/bot.ts';
import { CONFIRMATION_WORDS, mayConfirmWords } from '../../../src/slack/kit/confirmation-card.ts';

const BIG_EVENT = '26855';
const cards = (bot: Bot) =>
  bot
    .messages()
    .filter((message) => !message.visibleTo && visibleText(message).includes(CONFIRMATION_WORDS.heading));
const current = (bot: Bot, ts: string) => bot.find((message) => message.ts === ts);

describe('the money path through Slack', () => {
  let bot: Bot;
  afterEach(() => bot?.close());

  it('posts one card for a slash command delivered twice (same trigger_id), and charges once', async () => {
    bot = await startBot();
    const body = slashCommandBody(ALICE, `unlock ${BIG_EVENT}`, bot.slack.responseUrl(CHANNEL, ALICE.userId));

    const answers = [await bot.post(body), await bot.post(body)];
    await bot.idle();

    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(cards(bot)).toHaveLength(1);
    const [card] = cards(bot);
    if (!card) throw new Error('no card');
    await Promise.all([bot.click(card, 'confirm.yes'), bot.click(card, 'confirm.yes')]);
    await bot.idle();
    expect(bot.sim.ledger(bot.apiKey)).toHaveLength(1);
  });

  it('takes the buttons off the card as soon as Confirm is claimed', async () => {
    bot = await startBot({ latencyMs: 300 });
    await bot.command(`unlock ${BIG_EVENT}`);
    await bot.idle();
    const card = structuredClone(bot.last());

    await bot.click(card, 'confirm.yes');
    const during = visibleText(current(bot, card.ts));
    await bot.idle();

    expect(during).not.toContain('confirm.yes');
    expect(during).toContain('Charging');
    expect(visibleText(current(bot, card.ts))).toContain('Done');
  });

  it('needs an approver other than the requester at or above APPROVAL_THRESHOLD, and says so on the card', async () => {
    bot = await startBot({ approvalThreshold: 1000 });
    await bot.command(`unlock ${BIG_EVENT}`);
    await bot.idle();
    const card = structuredClone(bot.last());
    expect(visibleText(card)).toContain(mayConfirmWords({ approvers: [APPROVER.userId] }));

    await bot.click(card, 'confirm.yes', ALICE);
    await bot.idle();
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
    expect(toldTo(bot, ALICE.userId)).toContain('need an approver other than the requester');

    await bot.click(card, 'confirm.yes', APPROVER);
    await bot.idle();
    expect(bot.sim.ledger(bot.apiKey)).toHaveLength(1);
    expect(visibleText(current(bot, card.ts))).toContain(`Confirmed by <@${APPROVER.userId}>`);
  });

  it('lets the requester confirm their own charge below the threshold', async () => {
    bot = await startBot({ approvalThreshold: 1000 });
    await bot.command('emails 100001');
    await bot.idle();
    const card = structuredClone(bot.last());
    expect(visibleText(card)).not.toContain(CONFIRMATION_WORDS.needsApprover);

    await bot.click(card, 'confirm.yes', ALICE);
    await bot.idle();

    expect(bot.sim.ledger(bot.apiKey)).toHaveLength(1);
  });

  it('closes an expired card on the next reconciler run: no live Confirm button, and a late click charges nothing', async () => {
    bot = await startBot();
    await bot.command(`unlock ${BIG_EVENT}`);
    await bot.idle();
    const card = structuredClone(bot.last());

    const report = await bot.reconcile(16 * 60_000);

    expect(report).toMatchObject({ expired: 1, cardsShown: 1 });
    const swept = visibleText(current(bot, card.ts));
    expect(swept).toMatch(/Expired/);
    expect(swept).not.toContain('confirm.yes');
    await bot.click(card, 'confirm.yes');
    await bot.idle();
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
    expect(toldTo(bot, ALICE.userId)).toMatch(/expired; nothing was charged/);

    await bot.click(current(bot, card.ts), 'confirm.restart');
    await bot.idle();
    const again = cards(bot);
    expect(again).toHaveLength(1);
    expect(again[0]?.ts).not.toBe(card.ts);
    expect(visibleText(again[0] ?? card)).toContain('confirm.yes');
  });

  it('settles a claim whose worker never started: nothing charged, said on the card', async () => {
    bot = await startBot();
    await bot.command(`unlock ${BIG_EVENT}`);
    await bot.idle();
    const card = structuredClone(bot.last());
    const id = confirmationIdOf(card);
    await bot.store.confirmations.claim(id, { by: ALICE.userId });

    await bot.reconcile((RECONCILE_AFTER_SECONDS.claimed + 1) * 1000);

    expect((await bot.store.confirmations.get(id))?.status).toBe('failed');
    const text = visibleText(current(bot, card.ts));
    expect(text).toContain('Nothing was charged');
    expect(text).not.toContain('confirm.yes');
    expect(bot.sim.ledger(bot.apiKey)).toEqual([]);
  });
});
