import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appDmOf, type SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import { monthPeriod } from '../../../src/domain/periods.ts';
import { ALICE, askFor, BOB, type Bot, CHANNEL, startBot, TEAM, visibleText } from '../../support/bot.ts';

/* `/events spend <period>`: what the workspace spent, by person, show and action, and its CSV. */

const ALICE_EVENT = '26855';
const BOB_EVENT = '26877';
const linesOf = (content: string) => content.replace(/\r\n$/, '').split('\r\n');

describe('spend by period', () => {
  let bot: Bot;
  let month: ReturnType<typeof monthPeriod>;
  let spendCard: SlackMessage;
  const nameOf = (eventId: string) => bot.sim.events.find((event) => event.eventId === eventId)?.name ?? '';
  const creditsOf = async (userId: string) =>
    (await bot.store.ledger.listForPeriod(TEAM, month)).entries
      .filter((entry) => entry.requestedBy === userId)
      .reduce((sum, entry) => sum + entry.credits, 0);

  beforeAll(async () => {
    bot = await startBot({
      balance: 50_000,
      users: {
        [ALICE.userId]: { name: 'Alice Adams', tz: 'Europe/Berlin' },
        [BOB.userId]: { name: 'Bob Brown', tz: 'Europe/Berlin' },
      },
      channelNames: { [CHANNEL]: 'field-marketing' },
    });
    // Two people each confirm an unlock of their own.
    const aliceCard = await askFor(bot, `unlock ${ALICE_EVENT}`);
    await bot.click(aliceCard, 'confirm.yes');
    await bot.idle();
    await bot.command(`unlock ${BOB_EVENT}`, BOB);
    await bot.idle();
    const bobCard = structuredClone(bot.last());
    await bot.click(bobCard, 'confirm.yes', BOB);
    await bot.idle();
    // The month the charges were booked in (UTC), and a charge of the month before it.
    const [first] = await bot.store.ledger.listSince(TEAM, new Date(Date.now() - 3_600_000));
    const at = new Date(first?.at ?? Date.now());
    month = monthPeriod(at.getUTCFullYear(), at.getUTCMonth());
    await bot.store.ledger.record({
      teamId: TEAM,
      channelId: CHANNEL,
      requestedBy: ALICE.userId,
      confirmedBy: ALICE.userId,
      action: 'event-unlock',
      credits: 777,
      eventId: '99999',
      at: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 0, 12)),
    });
  });
  afterAll(() => bot.close());

  it('shows a month’s spend by person, by show and by action, leaving out other months', async () => {
    // Prepare
    const alice = await creditsOf(ALICE.userId);
    const bob = await creditsOf(BOB.userId);
    expect(alice).toBeGreaterThan(0);
    expect(bob).toBeGreaterThan(0);

    // Act
    await bot.command(`spend ${month.key}`);
    await bot.idle();

    // Assess
    spendCard = structuredClone(bot.last());
    const text = visibleText(spendCard);
    expect(spendCard.visibleTo).toBe(ALICE.userId);
    expect(spendCard.text).toBe(
      `Credits spent in ${month.label} (UTC): ${(alice + bob).toLocaleString('en-US')} credits.`,
    );
    expect(text).toContain(`<@${ALICE.userId}> · *${alice.toLocaleString('en-US')} credits* · 1 charge`);
    expect(text).toContain(`<@${BOB.userId}> · *${bob.toLocaleString('en-US')} credits* · 1 charge`);
    expect(text).toContain(`${nameOf(ALICE_EVENT)} \`${ALICE_EVENT}\``);
    expect(text).toContain(`${nameOf(BOB_EVENT)} \`${BOB_EVENT}\``);
    expect(text).toContain(`Event unlock · *${(alice + bob).toLocaleString('en-US')} credits* · 2 charges`);
    expect(text).not.toContain('99999');
    expect(text).not.toContain('daily cap');
  });

  it('reads `this month` as the current month', async () => {
    // Act
    await bot.command('spend this month');
    await bot.idle();

    // Assess
    expect(bot.last().text).toBe(spendCard.text);
  });

  it('refuses a period it does not read, saying which it does, and reads nothing', async () => {
    // Act
    const before = bot.messages().length;
    const ack = await bot.command('spend this year');
    await bot.idle();

    // Assess
    const answer = JSON.stringify(ack.json);
    expect(answer).toContain('`this year` is not a period.');
    expect(answer).toContain('`today` (the default), `week`, `month` or `quarter`');
    expect(answer).toContain('a month as `2027-03` or a quarter as `Q2-2027`, all in UTC');
    expect(
      bot
        .messages()
        .slice(before)
        .every((message) => message.visibleTo === ALICE.userId),
    ).toBe(true);
  });

  it('sends one CSV row per ledger entry of the month to the requester’s DM, spending nothing', async () => {
    // Prepare
    const balance = bot.sim.balance(bot.apiKey);
    expect(buttonsOf(spendCard).map(({ button }) => button.text.text)).toContain('Export CSV');

    // Act
    await bot.click(spendCard, 'spend.export');
    await bot.idle();

    // Assess
    const [upload] = bot.slack.messages(appDmOf(ALICE.userId)).filter((m) => (m.files ?? []).length > 0);
    const [header, ...rows] = linesOf(upload?.files?.[0]?.content ?? '');
    expect(header).toBe(
      'when,asked_by,asked_by_id,confirmed_by,confirmed_by_id,action,credits,event_id,event_name,channel,channel_id,status',
    );
    expect(rows).toHaveLength(2);
    const alice = await creditsOf(ALICE.userId);
    const asAlice = `Alice Adams,${ALICE.userId}`;
    expect(rows).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^${month.key}-\\d\\dT[^,]+Z,${asAlice},${asAlice},Event unlock,${alice},${ALICE_EVENT},${nameOf(ALICE_EVENT)},#field-marketing,${CHANNEL},charged$`,
        ),
      ),
    );
    expect(
      rows.some((row) => row.includes(`,Bob Brown,${BOB.userId},Bob Brown,${BOB.userId},Event unlock,`)),
    ).toBe(true);
    expect(upload?.text).toContain(`2 ledger entries in ${month.label} (UTC)`);
    expect(bot.slack.messages(CHANNEL).filter((m) => (m.files ?? []).length > 0)).toEqual([]);
    expect(visibleText(bot.last())).toContain('direct messages with the app');
    expect(bot.sim.balance(bot.apiKey)).toBe(balance);
  });

  it('writes the ids where Slack does not give a name, and still exports', async () => {
    // Prepare
    bot.slack.failNext('conversations.info', 'channel_not_found');
    const before = bot.slack.messages(appDmOf(ALICE.userId)).filter((m) => (m.files ?? []).length > 0);

    // Act
    await bot.click(spendCard, 'spend.export');
    await bot.idle();

    // Assess
    const uploads = bot.slack.messages(appDmOf(ALICE.userId)).filter((m) => (m.files ?? []).length > 0);
    expect(uploads).toHaveLength(before.length + 1);
    const rows = linesOf(uploads.at(-1)?.files?.[0]?.content ?? '').slice(1);
    expect(rows.every((row) => row.endsWith(`,${CHANNEL},${CHANNEL},charged`))).toBe(true);
    expect(rows.some((row) => row.includes(`,Alice Adams,${ALICE.userId},`))).toBe(true);
  });

  it('counts one exported entry in the singular', async () => {
    // Prepare: the month before, which holds the one entry recorded above
    const at = new Date(`${month.from}T12:00:00Z`);
    at.setUTCDate(0);
    const before = monthPeriod(at.getUTCFullYear(), at.getUTCMonth());
    await bot.command(`spend ${before.key}`);
    await bot.idle();

    // Act
    await bot.click(structuredClone(bot.last()), 'spend.export');
    await bot.idle();

    // Assess
    const upload = bot.slack
      .messages(appDmOf(ALICE.userId))
      .filter((m) => (m.files ?? []).length > 0)
      .at(-1);
    expect(upload?.text).toContain(`CSV of 1 ledger entry in ${before.label} (UTC)`);
  });
});
