import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appDmOf } from '../../../local/fake-slack/fake-slack.ts';
import { quarterContaining } from '../../../src/domain/periods.ts';
import { quarterOfShow } from '../../../src/domain/plan/index.ts';
import { ALICE, APPROVER, type Bot, CHANNEL, startBot, visibleText } from '../../support/bot.ts';

/*
 * A field-marketing lead runs next quarter's plan (issue 34, as the issue checks it): a next-quarter show
 * on the plan, that quarter's budget, an unlock asked by one user and confirmed by an approver, costs
 * beyond credits added and exported. The plan counts the price against that quarter; spend credits who
 * asked and names who confirmed.
 */

describe('a season planned in one channel', () => {
  let bot: Bot;
  let show: { eventId: string; name: string };
  let quarter: { key: string; label: string };

  async function say(text: string, who = ALICE) {
    await bot.command(text, who);
    await bot.idle();
    return bot.last(CHANNEL);
  }

  beforeAll(async () => {
    bot = await startBot({ balance: 50_000, approvalThreshold: 1000 });
    const now = quarterContaining(new Date());
    const later = bot.sim.events.find(
      (e) => e.exhibitorCount > 0 && e.personnelCount > 0 && (quarterOfShow(e)?.from ?? '') > now.to,
    );
    const of = later && quarterOfShow(later);
    if (!later || !of) throw new Error('the simulator has no show after this quarter');
    show = { eventId: later.eventId, name: later.name };
    quarter = { key: of.key, label: of.label };
    await say(`plan add ${show.eventId}`);
    await say(`plan budget 5000 ${quarter.key}`, APPROVER);
    // Alice asks; the unlock needs an approver (threshold 1,000), who confirms.
    const card = await say(`unlock ${show.eventId}`);
    expect(visibleText(card)).toContain(`Needs an approver: <@${APPROVER.userId}>.`);
    await bot.click(card, 'confirm.yes', APPROVER);
    await bot.idle();
  });
  afterAll(() => bot.close());

  it('counts the unlock against the show’s quarter, not the quarter it was charged in', async () => {
    const plan = visibleText(await say('plan'));

    expect(plan).toContain(
      `${quarter.label}: 1 show, nothing left to unlock; budget 5,000 credits, spent on these shows 2,000 credits, 3,000 credits left.`,
    );
    expect(bot.slack.canvases(CHANNEL)[0]?.markdown).toContain('spent on these shows 2,000 credits');
  });

  it('credits the spend to who asked and names the approver who confirmed', async () => {
    const spend = visibleText(await say('spend'));

    expect(spend).toContain(
      `<@${ALICE.userId}> · *2,000 credits* · 1 charge · 1 confirmed by <@${APPROVER.userId}>`,
    );
    expect(spend).not.toContain(`<@${APPROVER.userId}> · *`);
  });

  it('adds costs beyond credits and exports them with the credits, in the plan’s currency', async () => {
    await say('plan currency EUR');
    await say(`plan cost ${show.eventId} 12000 booth 3000 travel`);
    const plan = visibleText(await say('plan'));
    expect(plan).toContain('15,000');

    await say('plan export');
    const [upload] = bot.slack.messages(appDmOf(ALICE.userId)).filter((m) => (m.files ?? []).length > 0);
    const csv = upload?.files?.[0]?.content ?? '';
    const row = csv.split('\r\n').find((line) => line.includes(show.eventId)) ?? '';
    expect(row).toContain('12000');
    expect(row).toContain('3000');
    expect(csv).toContain('EUR');
  });

  it('refuses wrong costs with the usage and stores nothing', async () => {
    const before = await bot.store.plans.get(ALICE.teamId, CHANNEL);
    for (const wrong of [
      `plan cost ${show.eventId} -5 booth`,
      `plan cost ${show.eventId} 12000 yacht`,
      `plan cost 999999 100 booth`,
      'plan currency EURO',
      `plan cost ${show.eventId} <@U0BOB> booth`,
    ])
      expect(visibleText(await say(wrong))).toMatch(/plan (cost|currency)/);
    expect(await bot.store.plans.get(ALICE.teamId, CHANNEL)).toEqual(before);
  });
});
