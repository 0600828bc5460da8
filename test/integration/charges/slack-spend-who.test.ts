import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appDmOf, type SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { keys } from '../../../src/store/keys.ts';
import { mayConfirmWords } from '../../../src/slack/kit/confirmation-card.ts';
import { SPEND_CSV_HEADER } from '../../../src/slack/features/charges/spend-jobs.ts';
import {
  ALICE,
  APPROVER,
  askFor,
  BOB,
  type Bot,
  CHANNEL,
  startBot,
  TEAM,
  visibleText,
} from '../../support/bot.ts';

/*
 * Spend names who asked and who confirmed (issue 34, item 2): Alice asks for an unlock that needs an
 * approver, the approver confirms; the spend, its CSV and Alice's Home credit Alice and name the approver.
 */

const EVENT = '26855';
const OLD_EVENT = '99999';
const OWN_PERSON = '100003';
const linesOf = (content: string) => content.replace(/\r\n$/, '').split('\r\n');

describe('spend by who asked, with who confirmed', () => {
  let bot: Bot;
  let card: SlackMessage;
  let spendCard: SlackMessage;

  beforeAll(async () => {
    bot = await startBot({ balance: 50_000, approvalThreshold: 1000 });
    card = await askFor(bot, `unlock ${EVENT}`);
    await bot.click(card, 'confirm.yes', APPROVER);
    await bot.idle();
    // Alice's second charge is under the threshold: she confirms it herself.
    const own = await askFor(bot, `emails ${OWN_PERSON}`);
    await bot.click(own, 'confirm.yes');
    await bot.idle();
    // An entry as written before both people were kept: one `userId`, who confirmed.
    const at = new Date(Date.now() - 60_000).toISOString();
    await bot.table.client.send(
      new PutCommand({
        TableName: bot.table.tableName,
        Item: {
          ...keys.ledgerEntry(TEAM, at, 'old-entry'),
          type: 'ledger-entry',
          id: 'old-entry',
          teamId: TEAM,
          channelId: CHANNEL,
          userId: BOB.userId,
          action: 'event-unlock',
          credits: 777,
          eventId: OLD_EVENT,
          status: 'charged',
          at,
          expiresAt: Math.floor(Date.now() / 1000) + 86_400,
        },
      }),
    );
    await bot.command('spend');
    await bot.idle();
    spendCard = structuredClone(bot.last());
  });
  afterAll(() => bot.close());

  it('named who may confirm on the card before anyone clicked', () => {
    expect(bot.sim.ledger(bot.apiKey)).toHaveLength(2);
    expect(visibleText(card)).toContain(mayConfirmWords({ approvers: [APPROVER.userId] }));
    expect(visibleText(card)).toContain(`Needs an approver: <@${APPROVER.userId}>.`);
  });

  it('names who may confirm under the threshold: the requester or an approver', async () => {
    const small = await askFor(bot, 'emails 100001');

    expect(visibleText(small)).toContain(
      `<@${ALICE.userId}> or an approver (<@${APPROVER.userId}>) can confirm.`,
    );
  });

  it('credits the spend to who asked and names each confirmer with their count', async () => {
    const text = visibleText(spendCard);
    const own = (await bot.store.ledger.listKept(TEAM)).entries.find((e) => e.action === 'email-unlock');
    const credits = (2000 + (own?.credits ?? 0)).toLocaleString('en-US');

    expect(text).toContain('*By who asked*');
    expect(text).toContain(
      `<@${ALICE.userId}> · *${credits} credits* · 2 charges · 1 confirmed by <@${APPROVER.userId}>, 1 by <@${ALICE.userId}>`,
    );
    expect(text).not.toContain(`(confirmed by`);
    expect(text).toContain(`<@${ALICE.userId}> · Event unlock`);
    expect(text).toContain(`confirmed by <@${APPROVER.userId}>`);
    expect(text).not.toContain(`<@${APPROVER.userId}> · *`);
    // The entry written before: asked and confirmed by its one user, who needs no confirmer named.
    expect(text).toContain(`<@${BOB.userId}> · *777 credits* · 1 charge`);
    expect(text).not.toContain(`<@${BOB.userId}> · *777 credits* · 1 charge · `);
  });

  it('exports both people in the CSV, an old entry with its one user in both columns', async () => {
    await bot.click(spendCard, 'spend.export');
    await bot.idle();

    const [upload] = bot.slack.messages(appDmOf(ALICE.userId)).filter((m) => (m.files ?? []).length > 0);
    const [header, ...rows] = linesOf(upload?.files?.[0]?.content ?? '');
    expect(header).toBe(SPEND_CSV_HEADER.join(','));
    const person = (id: string) => `[^,]*,${id}`;
    expect(rows).toContainEqual(
      expect.stringMatching(
        new RegExp(`,${person(ALICE.userId)},${person(APPROVER.userId)},Event unlock,2000,${EVENT},`),
      ),
    );
    expect(rows).toContainEqual(
      expect.stringMatching(
        new RegExp(`,${person(BOB.userId)},${person(BOB.userId)},Event unlock,777,${OLD_EVENT},`),
      ),
    );
  });

  it('lists the charge on the Home of who asked, with who confirmed it', async () => {
    await bot.slack.openHome(ALICE.userId);
    await bot.idle();
    const home = JSON.stringify(bot.slack.home(ALICE.userId)?.view ?? null);

    expect(home).toContain('Your charges today');
    expect(home).not.toContain('You have spent no credits today.');
    expect(home).toContain(`Event unlock`);
    expect(home).toContain(`*2,000 credits* · settled · confirmed by <@${APPROVER.userId}>`);
  });
});
