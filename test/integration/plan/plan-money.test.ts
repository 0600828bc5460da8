import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appDmOf, type SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import type { Actor } from '../../../local/fake-slack/payloads.ts';
import { moneyOfCredits, quarterOfShow } from '../../../src/domain/plan/index.ts';
import { formatCredits } from '../../../src/slack/views/format.ts';
import { formatAmount } from '../../../src/slack/features/plan/money-views.ts';
import { ALICE, APPROVER, type Bot, CHANNEL, startBot, TEAM, visibleText } from '../../support/bot.ts';
import { showsForPlan } from '../../support/plan-shows.ts';

/*
 * A show's cost in money (issue 43, item 2) through the real handlers: the price of a credit, each
 * show's and quarter's cost (credits spent × the price plus costs beyond credits), money budgets
 * against it, on the card, `plan budget`, the canvas and the CSV; refusals that change nothing.
 */

const GUEST: Actor = { teamId: TEAM, userId: 'U0MONEYGUEST', channelId: CHANNEL };
/** A user of another organisation in the channel (Slack Connect). */
const OUTSIDER: Actor = { teamId: TEAM, userTeamId: 'T0PARTNER', userId: 'U0PARTNER', channelId: CHANNEL };
const EUR = { code: 'EUR', setBy: 'U0ALICE', setAt: new Date(0).toISOString() };
const eur = (hundredths: number) => formatAmount(hundredths, EUR);
const linesOf = (content: string) => content.replace(/\r\n$/, '').split('\r\n');

describe('a show’s cost in money', () => {
  let bot: Bot;
  let a: { eventId: string; name: string; dateStart: string };
  let b: { eventId: string; name: string; dateStart: string };
  let quarter: { key: string; label: string };

  const repliesTo = (userId: string): SlackMessage[] =>
    bot.messages().filter((m) => m.visibleTo === userId && m.user !== userId);
  async function say(text: string, actor: Actor = ALICE): Promise<string> {
    await bot.command(text, actor);
    await bot.idle();
    return visibleText(repliesTo(actor.userId).at(-1) ?? { text: '', blocks: [] });
  }
  const stored = () => bot.store.plans.get(TEAM, CHANNEL);
  const canvas = () => bot.slack.canvases(CHANNEL)[0]?.markdown ?? '';
  const spentOn = async (eventId: string) =>
    (await bot.store.ledger.listKept(TEAM)).entries
      .filter((entry) => entry.eventId === eventId)
      .reduce((sum, entry) => sum + entry.credits, 0);

  beforeAll(async () => {
    bot = await startBot({
      balance: 100_000,
      users: {
        [ALICE.userId]: { name: 'alice', tz: 'UTC', teamId: TEAM },
        [GUEST.userId]: { name: 'guest', tz: 'UTC', teamId: TEAM, isGuest: true },
        [OUTSIDER.userId]: { name: 'partner', tz: 'UTC', teamId: 'T0PARTNER' },
      },
    });
    const [first, second] = showsForPlan(bot.sim.events, bot.sim.today);
    if (!first || !second) throw new Error('the simulator has too few shows in one quarter');
    [a, b] = [first, second].map((e) => ({ eventId: e.eventId, name: e.name, dateStart: e.dateStart })) as [
      typeof a,
      typeof b,
    ];
    const of = quarterOfShow(a);
    if (!of) throw new Error('the show has no quarter');
    quarter = { key: of.key, label: of.label };
    await say(`plan add ${a.eventId}`);
    await say(`plan add ${b.eventId}`);
    await say('plan currency EUR');
    await say(`plan cost ${a.eventId} 1000 booth`);
    // Credits spent on the first show: its unlock, confirmed.
    await bot.command(`unlock ${a.eventId}`, ALICE);
    await bot.idle();
    await bot.click(structuredClone(bot.last()), 'confirm.yes');
    await bot.idle();
  });
  afterAll(() => bot.close());

  it('says the money cost of credits is not set until a price is, and invents no figure', async () => {
    const spent = await spentOn(a.eventId);
    expect(spent).toBeGreaterThan(0);

    const card = await say('plan');

    expect(card).toContain(
      `Cost: ${formatCredits(spent)} spent (money cost of credits not set), plus ${eur(100_000)} beyond credits`,
    );
    expect(card).toContain('The money cost of credits is not set');
    expect(await say('plan credit-price')).toContain('The money cost of credits is not set');
  });

  it('prices credits at the approver’s rate: each show’s and the quarter’s cost, on the card, the canvas', async () => {
    const spent = await spentOn(a.eventId);
    const ofCredits = moneyOfCredits(spent, 1200);

    const answer = await say('plan credit-price 0.12', APPROVER);

    expect(answer).toContain('A credit costs 0.12 EUR per credit now');
    expect((await stored())?.creditPrice).toMatchObject({
      tenThousandths: 1200,
      code: 'EUR',
      setBy: APPROVER.userId,
    });
    const show = `Cost: ${eur(ofCredits + 100_000)} (${formatCredits(spent)} spent × 0.12 EUR = ${eur(ofCredits)}, plus ${eur(100_000)} beyond credits)`;
    expect(answer).toContain(show);
    expect(answer).toContain(
      `Cost: ${eur(0)} (${formatCredits(0)} spent × 0.12 EUR = ${eur(0)}, plus ${eur(0)} beyond credits)`,
    );
    expect(answer).toContain(`${quarter.label} cost: ${eur(ofCredits + 100_000)} (`);
    expect(answer).toContain('; no money budget.');
    expect(canvas()).toContain(`- ${show}`);
    expect(await say('plan credit-price', GUEST)).toContain(
      'A credit costs 0.12 EUR per credit in this plan',
    );
  });

  it('reads every figure again from the stored price: a new price changes what the card says', async () => {
    const spent = await spentOn(a.eventId);

    const answer = await say('plan credit-price 0.0125 EUR', APPROVER);

    const ofCredits = moneyOfCredits(spent, 125);
    expect(answer).toContain(`(${formatCredits(spent)} spent × 0.0125 EUR = ${eur(ofCredits)}, plus`);
    expect(answer).toContain(`Cost: ${eur(ofCredits + 100_000)}`);
  });

  it('keeps a money budget beside the credits budget, each against its actual, on `plan budget` and the CSV', async () => {
    const spent = await spentOn(a.eventId);
    const cost = moneyOfCredits(spent, 125) + 100_000;
    await say(`plan budget 20000 ${quarter.key}`, APPROVER);

    const set = await say(`plan budget 50000 EUR ${quarter.key}`, APPROVER);
    const budgets = await say('plan budget');

    expect(set).toContain(`The money budget for ${quarter.label} is ${eur(5_000_000)}`);
    const plan = await stored();
    expect(plan?.budgets[quarter.key]?.credits).toBe(20_000);
    expect(plan?.moneyBudgets?.[quarter.key]).toMatchObject({ hundredths: 5_000_000, code: 'EUR' });
    expect(budgets).toContain(
      `budget ${formatCredits(20_000)}, spent on these shows ${formatCredits(spent)}`,
    );
    expect(budgets).toContain(
      `${quarter.label} cost: ${eur(cost)} (${formatCredits(spent)} spent × 0.0125 EUR`,
    );
    expect(budgets).toContain(`money budget ${eur(5_000_000)}, ${eur(5_000_000 - cost)} left.`);
    expect(canvas()).toContain(`money budget ${eur(5_000_000)}, ${eur(5_000_000 - cost)} left.`);

    await say('plan export');
    const [upload] = bot.slack.messages(appDmOf(ALICE.userId)).filter((m) => (m.files ?? []).length > 0);
    const [header = '', ...rows] = linesOf(upload?.files?.[0]?.content ?? '');
    const columns = header.split(',');
    const cell = (row: string | undefined, column: string) => row?.split(',')[columns.indexOf(column)];
    const quarterRow = rows.find((row) => row.startsWith(`quarter,${quarter.key},`));
    const showRow = rows.find((row) => row.startsWith(`show,${quarter.key},${a.eventId},`));
    expect(cell(quarterRow, 'budget_money')).toBe('50000');
    expect(cell(quarterRow, 'cost_total')).toBe(String(cost / 100));
    expect(cell(quarterRow, 'budget_money_left')).toBe(String((5_000_000 - cost) / 100));
    expect(cell(showRow, 'spent_credits')).toBe(String(spent));
    expect(cell(showRow, 'credit_price')).toBe('0.0125');
    expect(cell(showRow, 'cost_total')).toBe(String(cost / 100));
  });

  it.each([
    ['a negative price', 'plan credit-price -0.12', 'is below 0', 'plan credit-price 0.12'],
    [
      'a price with 5 decimals',
      'plan credit-price 0.12345',
      'has more than 4 decimals',
      'plan credit-price 0.12',
    ],
    ['a malformed price', 'plan credit-price 12c', 'is not a price', 'plan credit-price 0.12'],
    [
      'a price in another currency',
      'plan credit-price 0.12 USD',
      'amounts in another currency are refused',
      'plan credit-price 0.12',
    ],
    [
      'a budget in another currency',
      'plan budget 50000 USD {quarter}',
      'amounts in another currency are refused',
      'plan budget 50000 EUR Q2-2027',
    ],
    [
      'a budget in a made-up currency',
      'plan budget 50000 XQZ {quarter}',
      '`XQZ` is not a currency code',
      'plan budget 50000 EUR Q2-2027',
    ],
    [
      'a money budget with 3 decimals',
      'plan budget 500.125 EUR {quarter}',
      'has more than 2 decimals',
      'plan budget 50000 EUR Q2-2027',
    ],
  ])('refuses %s with the usage, and changes nothing', async (_case, text, problem, usage) => {
    const before = await stored();

    const answer = await say(text.replace('{quarter}', quarter.key), APPROVER);

    expect(answer).toContain(problem);
    expect(answer).toContain(usage);
    const after = await stored();
    expect(after?.revision).toBe(before?.revision);
    expect(after?.creditPrice).toEqual(before?.creditPrice);
    expect(after?.moneyBudgets).toEqual(before?.moneyBudgets);
  });

  it.each([
    ['a member who is no approver', ALICE],
    ['a guest', GUEST],
    ['an outside user', OUTSIDER],
  ])('refuses %s setting the price or a money budget, and changes nothing', async (_who, actor) => {
    const before = await stored();

    const price = await say('plan credit-price 5', actor);
    const budget = await say(`plan budget 1 EUR ${quarter.key}`, actor);

    for (const answer of [price, budget]) expect(answer).toMatch(/Only .* may use .*Nothing was done\./);
    expect((await stored())?.revision).toBe(before?.revision);
  });

  it('converts nothing when the plan’s currency changes: the price and money budget stop counting until set again', async () => {
    const answer = await say('plan currency USD');
    const card = await say('plan');

    expect(answer).toContain('This plan’s costs are in USD now.');
    expect(card).toContain(
      'The price of a credit was set in EUR, not in the plan’s USD: credits are not priced',
    );
    expect(card).toContain('set in another currency than the plan’s USD: not compared');
    expect(card).not.toContain('× 0.0125 EUR =');
    expect((await stored())?.creditPrice).toMatchObject({ tenThousandths: 125, code: 'EUR' });
  });
});
