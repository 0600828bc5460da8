import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appDmOf, type SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import { quarterOfShow } from '../../../src/domain/plan/index.ts';
import { ALICE, type Bot, CHANNEL, startBot, visibleText } from '../../support/bot.ts';
import { showsForPlan } from '../../support/plan-shows.ts';

/* A plan's costs beyond credits through the real handlers: by command and by the Costs… form, on the card, the canvas and the CSV. */

const linesOf = (content: string) => content.replace(/\r\n$/, '').split('\r\n');

describe('the plan’s costs beyond credits', () => {
  let bot: Bot;
  let a: { eventId: string; name: string; dateStart: string };
  let b: { eventId: string; name: string; dateStart: string };

  async function say(text: string): Promise<SlackMessage> {
    await bot.command(text);
    await bot.idle();
    return structuredClone(bot.last());
  }
  const stored = () => bot.store.plans.get(ALICE.teamId, CHANNEL);
  const canvas = () => bot.slack.canvases(CHANNEL)[0]?.markdown ?? '';
  const costsButtonOf = (card: SlackMessage, eventId: string) =>
    buttonsOf(card).find(
      ({ button }) =>
        button.action_id === 'plan.costs' &&
        (JSON.parse(button.value ?? '{}') as { eventId?: string }).eventId === eventId,
    );

  beforeAll(async () => {
    bot = await startBot({ balance: 100_000, channelNames: { [CHANNEL]: 'events' } });
    // Two shows still ahead with something to unlock, in one quarter (a past show cannot be planned).
    const [first, second] = showsForPlan(bot.sim.events, bot.sim.today);
    if (!first || !second) throw new Error('the simulator has too few shows in one quarter');
    [a, b] = [first, second].map((e) => ({ eventId: e.eventId, name: e.name, dateStart: e.dateStart })) as [
      typeof a,
      typeof b,
    ];
    await say(`plan add ${a.eventId}`);
    await say(`plan add ${b.eventId}`);
  });
  afterAll(() => bot.close());

  it('starts with no currency, then takes one for the whole plan', async () => {
    expect(visibleText(await say('plan currency'))).toContain('This plan has no currency yet');

    const answer = visibleText(await say('plan currency eur'));

    expect(answer).toContain('This plan’s costs are in EUR now.');
    expect((await stored())?.currency).toMatchObject({ code: 'EUR', setBy: ALICE.userId });
  });

  it('sets a cost by command: on the card per show and per quarter beside the credits, in the canvas, stored with who and when', async () => {
    const quarter = quarterOfShow(a);
    const before = Date.now();

    const answer = visibleText(await say(`plan cost ${a.eventId} 12,000 booth`));

    expect(answer).toContain(`Costs of *${a.name}*: booth 12,000 EUR.`);
    expect(answer).toContain('Costs: booth 12,000 EUR');
    expect(answer).toContain(`${quarter?.label}: 2 shows, unlocking 2 would cost 4,000 credits`);
    expect(answer).toContain(`${quarter?.label} costs: booth 12,000 EUR.`);
    expect(answer).toContain('Costs are in EUR.');
    expect(answer).toContain('Fit against the company profile in your team’s Event Intelligence account');
    expect(canvas()).toContain('- Costs: booth 12,000 EUR');
    expect(canvas()).toContain(`- ${quarter?.label} costs: booth 12,000 EUR.`);
    const [cost, ...others] = (await stored())?.costs ?? [];
    expect(others).toEqual([]);
    expect(cost).toMatchObject({
      eventId: a.eventId,
      kind: 'booth',
      hundredths: 1_200_000,
      setBy: ALICE.userId,
    });
    expect(Date.parse(cost?.setAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
  });

  it('sets costs by the Costs… form on the card’s row, and reports every bad field at once', async () => {
    const card = await say('plan');
    const quarter = quarterOfShow(b);
    expect(costsButtonOf(card, b.eventId)).toBeDefined();

    // Every field wrong at once: each says what is wrong, nothing is stored.
    await bot.click(card, 'plan.costs', ALICE, 'Costs');
    expect(bot.slack.modal(ALICE.userId)?.view.callback_id).toBe('modal.plan-costs');
    const revision = (await stored())?.revision;
    const refused = await bot.slack.submitForm({
      user: ALICE.userId,
      inputs: { booth: { value: '-5' }, sponsorship: { value: 'lots' }, travel: { value: '1.234' } },
    });
    await bot.idle();
    expect(JSON.parse(refused?.body ?? '{}')).toMatchObject({ response_action: 'errors' });
    expect(Object.keys(bot.slack.modal(ALICE.userId)?.errors ?? {}).sort()).toEqual([
      'booth',
      'sponsorship',
      'travel',
    ]);
    expect((await stored())?.revision).toBe(revision);
    await bot.slack.closeView({ user: ALICE.userId });

    // The second show's row: travel and other.
    const button = costsButtonOf(card, b.eventId);
    const row = {
      ...card,
      blocks: card.blocks.filter((block) =>
        buttonsOf({ blocks: [block] }).some((c) => c.button.value === button?.button.value),
      ),
    };
    await bot.click(row, 'plan.costs');
    await bot.slack.submitForm({
      user: ALICE.userId,
      inputs: { travel: { value: '3000.50' }, other: { value: '500' } },
    });
    await bot.idle();

    const after = visibleText(bot.last());
    expect(after).toContain(
      `Costs of *${b.name}*: travel 3,000.50 EUR, other 500 EUR (3,500.50 EUR in all).`,
    );
    expect(after).toContain(
      `${quarter?.label} costs: booth 12,000 EUR, travel 3,000.50 EUR, other 500 EUR (15,500.50 EUR in all).`,
    );
    expect(canvas()).toContain('- Costs: travel 3,000.50 EUR, other 500 EUR (3,500.50 EUR in all)');
    const costs = (await stored())?.costs ?? [];
    expect(costs.filter((c) => c.eventId === b.eventId).map((c) => [c.kind, c.hundredths, c.setBy])).toEqual([
      ['travel', 300_050, ALICE.userId],
      ['other', 50_000, ALICE.userId],
    ]);
    // The first show's booth was not in the form's change: kept.
    expect(costs.some((c) => c.eventId === a.eventId && c.kind === 'booth')).toBe(true);
  });

  it('exports the plan as a CSV with the credits, the costs per show, per quarter and in all, and the currency', async () => {
    const card = await say('plan');
    const quarter = quarterOfShow(a);

    await bot.click(card, 'plan.export');
    await bot.idle();

    const [upload] = bot.slack.messages(appDmOf(ALICE.userId)).filter((m) => (m.files ?? []).length > 0);
    const [header, ...rows] = linesOf(upload?.files?.[0]?.content ?? '');
    expect(header).toBe(
      'row,quarter,event_id,show,start,end,city,country,fit_score,fit_band,watched_accounts,unlock,unlock_credits,booth,sponsorship,travel,other,costs_total,currency,budget_credits,spent_credits,costs_set_by,costs_last_set_at,credit_price,credits_cost,cost_total,budget_money,budget_money_left',
    );
    const showRow = (id: string) => rows.find((r) => r.startsWith(`show,${quarter?.key},${id},`)) ?? '';
    // Nothing spent on the shows yet (0 credits); no price of a credit set: no money figure for them.
    expect(showRow(a.eventId)).toContain(',locked,2000,12000,,,,12000,EUR,,0,U0ALICE,');
    expect(showRow(b.eventId)).toContain(',locked,2000,,,3000.5,500,3500.5,EUR,,0,U0ALICE,');
    expect(showRow(a.eventId)).toMatch(/,,,,,$/);
    // No budget for the quarter, nothing spent on its shows yet: the spend read says 0.
    expect(rows).toContain(`quarter,${quarter?.key},,,,,,,,,,,4000,12000,,3000.5,500,15500.5,EUR,,0,,,,,,,`);
    expect(rows).toContain('plan,,,,,,,,,,,,4000,12000,,3000.5,500,15500.5,EUR,,,,,,,,,');
    expect(upload?.text).toContain('(costs in EUR)');
    // The file is named for the channel as people know it, not its id
    expect(upload?.files?.[0]).toMatchObject({ title: 'Plan of #events', name: 'plan-events.csv' });
    expect(visibleText(bot.last())).toContain('direct messages with the app');
  });

  it('exports nothing for a channel without a plan', async () => {
    await bot.command('plan export', { ...ALICE, channelId: 'C0OTHER' });
    await bot.idle();

    expect(visibleText(bot.last('C0OTHER'))).toContain('has no shows or budgets: there is nothing to export');
    expect(bot.slack.messages(appDmOf(ALICE.userId)).filter((m) => (m.files ?? []).length > 0)).toHaveLength(
      1,
    );
  });

  it('removes a kind at 0, and a show’s costs with the show', async () => {
    expect(visibleText(await say(`plan cost ${b.eventId} 0 other`))).toContain(
      `Costs of *${b.name}*: travel 3,000.50 EUR.`,
    );
    expect(visibleText(await say(`plan cost ${a.eventId} 0 booth`))).toContain(
      `*${a.name}* has no costs now.`,
    );

    await say(`plan remove ${b.eventId}`);

    expect((await stored())?.costs ?? []).toEqual([]);
    await say(`plan add ${b.eventId}`);
    expect(visibleText(bot.last())).toContain('Costs beyond credits: none yet.');
  });

  it.each([
    [
      'a negative amount',
      (id: string) => `plan cost ${id} -5 booth`,
      'is below 0',
      'plan cost 26855 12000 booth',
    ],
    [
      'an unknown kind',
      (id: string) => `plan cost ${id} 12000 yacht`,
      '`yacht` is not a kind of cost',
      'plan cost 26855 12000 booth',
    ],
    [
      'no kind',
      (id: string) => `plan cost ${id} 12000`,
      'Say what `12000` is for',
      'plan cost 26855 12000 booth',
    ],
    [
      'three decimals',
      (id: string) => `plan cost ${id} 12.345 booth`,
      'has more than 2 decimals',
      'plan cost 26855 12000 booth',
    ],
    [
      'an absurd amount',
      (id: string) => `plan cost ${id} 99999999999 booth`,
      'is more than 10,000,000',
      'plan cost 26855 12000 booth',
    ],
    [
      'thousands grouped by dots',
      (id: string) => `plan cost ${id} 12.000 booth`,
      '`12.000` has more than 2 decimals. Did you mean `12,000`?',
      'plan cost 26855 12000 booth',
    ],
    [
      'a currency sign and k for thousands',
      (id: string) => `plan cost ${id} €12k booth`,
      '`€12k` is not an amount. Did you mean `12,000`?',
      'plan cost 26855 12000 booth',
    ],
    [
      'a decimal comma',
      (id: string) => `plan cost ${id} 1.250,50 travel`,
      'Did you mean `1,250.50`?',
      'plan cost 26855 12000 booth',
    ],
    [
      'a plan budget with dots',
      () => 'plan budget 12.000 Q2-2027',
      '`12.000` is not a number of credits. Did you mean `12,000`?',
      'plan budget 20000 Q2-2027',
    ],
    [
      'not a number',
      (id: string) => `plan cost ${id} 1e5 booth`,
      'is not an amount',
      'plan cost 26855 12000 booth',
    ],
    [
      'a kind twice',
      (id: string) => `plan cost ${id} 1 booth 2 booth`,
      'is given twice',
      'plan cost 26855 12000 booth',
    ],
    [
      'a mention for the show',
      () => 'plan cost <@U0EVIL> 100 booth',
      'Mentions, channels and @here',
      'Usage',
    ],
    [
      'a broadcast for the kind',
      (id: string) => `plan cost ${id} 100 <!channel>`,
      'Mentions, channels and @here',
      'Usage',
    ],
    [
      'a show not on the plan',
      () => 'plan cost 26855 100 booth',
      'is not on this channel’s plan',
      'plan cost 26855 12000 booth',
    ],
    [
      'a four-letter currency',
      () => 'plan currency EURO',
      '`EURO` is not a currency code',
      'plan currency EUR',
    ],
    ['a made-up currency', () => 'plan currency XQZ', '`XQZ` is not a currency code', 'plan currency EUR'],
    ['a mention for the currency', () => 'plan currency <!here>', 'Mentions, channels and @here', 'Usage'],
  ])('refuses %s with the usage, and stores nothing', async (_case, text, problem, usage) => {
    const before = await stored();

    const answer = await say(text(a.eventId));

    const shown = visibleText(answer);
    expect(shown).toContain(problem);
    expect(shown).toContain(usage);
    expect(shown).not.toMatch(/<@U0EVIL>|<!channel>|<!here>/);
    const after = await stored();
    expect(after?.revision).toBe(before?.revision);
    expect(after?.costs).toEqual(before?.costs);
    expect(after?.currency).toEqual(before?.currency);
  });
});
