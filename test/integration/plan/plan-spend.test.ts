import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quarterContaining } from '../../../src/domain/periods.ts';
import { quarterOfShow } from '../../../src/domain/plan/index.ts';
import { formatCredits } from '../../../src/slack/views/format.ts';
import { ALICE, type Bot, CHANNEL, startBot, TEAM, visibleText } from '../../support/bot.ts';

/*
 * Spend figures a finance approver can sign (issue 41, item 4): a quarter's spend on its shows never goes
 * down when a show leaves the plan, and `/events spend <quarter>` says what it counts (charges made in the
 * quarter) and gives the plans' spend on the quarter's shows beside it.
 */

describe('a quarter’s spend on its shows', () => {
  let bot: Bot;
  let kept: { eventId: string };
  let removed: { eventId: string };
  let quarter: { key: string; label: string };
  const spentOn = async (eventId: string) =>
    (await bot.store.ledger.listKept(TEAM)).entries
      .filter((entry) => entry.eventId === eventId)
      .reduce((sum, entry) => sum + entry.credits, 0);

  async function say(text: string) {
    await bot.command(text, ALICE);
    await bot.idle();
    return bot.last(CHANNEL);
  }

  beforeAll(async () => {
    bot = await startBot({ balance: 50_000 });
    // Two shows of one quarter after this one: charged now, they are spent in another quarter than theirs.
    const now = quarterContaining(new Date());
    const later = bot.sim.events.filter(
      (e) => e.exhibitorCount > 0 && e.personnelCount > 0 && (quarterOfShow(e)?.from ?? '') > now.to,
    );
    const pair = later.flatMap((a) => {
      const b = later.find((e) => e !== a && quarterOfShow(e)?.key === quarterOfShow(a)?.key);
      return b ? [[a, b] as const] : [];
    })[0];
    const of = pair && quarterOfShow(pair[0]);
    if (!pair || !of) throw new Error('the simulator has no two shows in one quarter after this one');
    [kept, removed] = pair;
    quarter = { key: of.key, label: of.label };
    for (const show of pair) {
      await say(`plan add ${show.eventId}`);
      const card = structuredClone(await say(`unlock ${show.eventId}`));
      await bot.click(card, 'confirm.yes');
      await bot.idle();
    }
  });
  afterAll(() => bot.close());

  it('keeps a removed show’s spend in its quarter, marked as removed from the plan', async () => {
    const total = (await spentOn(kept.eventId)) + (await spentOn(removed.eventId));
    const before = visibleText(await say('plan'));
    expect(before).toContain(`spent on these shows: ${formatCredits(total)}`);

    await say(`plan remove ${removed.eventId}`);
    const after = visibleText(await say('plan'));

    expect(after).toContain(
      `spent on these shows: ${formatCredits(total)} (${formatCredits(await spentOn(removed.eventId))} of it on shows removed from the plan)`,
    );
  });

  it('says a quarter’s card counts charges made in it, and gives the plans’ spend on its shows', async () => {
    const total = (await spentOn(kept.eventId)) + (await spentOn(removed.eventId));

    const card = visibleText(await say(`spend ${quarter.key}`));

    expect(card).toContain(`Counts the charges made in ${quarter.label} (UTC), whatever show they were for.`);
    expect(card).toContain('No credits spent.');
    expect(card).toContain(`*On the plans’ ${quarter.label} shows*, whenever charged`);
    expect(card).toContain(
      `<#${CHANNEL}> · *${formatCredits(total)}* (${formatCredits(await spentOn(removed.eventId))} of it on shows removed from the plan)`,
    );
  });

  it('counts the charges on the card of the quarter they were made in, though they were for later shows', async () => {
    const entries = (await bot.store.ledger.listKept(TEAM)).entries;
    const total = entries.reduce((sum, entry) => sum + entry.credits, 0);
    const charged = new Set(entries.map((entry) => quarterContaining(new Date(entry.at)).key));
    const [chargedIn] = charged;
    expect(charged.size).toBe(1);

    const card = visibleText(await say(`spend ${chargedIn}`));

    expect(card).toContain(`*Total: ${formatCredits(total)}* in 2 charges`);
    expect(card).toMatch(/No plan has spent on its Q\d \d{4} shows\./);
  });
});
