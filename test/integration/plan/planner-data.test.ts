import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import type { SeededEvent } from '../../../simulator/seed.ts';
import { parseCalendarPeriod } from '../../../src/domain/periods.ts';
import { REGIONS } from '../../../src/domain/regions.ts';
import { ALICE, type Bot, CHANNEL, startBot, visibleText } from '../../support/bot.ts';

/**
 * The simulator's data as a planner meets it on `npm run dev` (issue 36, item 5), through the real
 * handlers: shows-for ranks by the words given, a payments marketer's first search finds shows, the
 * exhibitors list stars only some, and a past show is marked past and never offered to the plan.
 */

const PLANS = 'C0PASTPLAN';
const PLANNED = 'C0PLANNED';
const europe: readonly string[] = REGIONS.Europe;
const today = () => new Date().toISOString().slice(0, 10);

const holds = (event: SeededEvent, word: string) =>
  [event.name, event.nickname, event.description, event.city].some((field) =>
    (field ?? '').toLowerCase().includes(word),
  );
const isPayments = (event: SeededEvent) => holds(event, 'fintech') || holds(event, 'payments');

/** Each list row: its text and the labels of the buttons under it, by event id (rows show `id`). */
function rowsOf(message: SlackMessage): Map<string, { text: string; buttons: string[] }> {
  const rows = new Map<string, { text: string; buttons: string[] }>();
  message.blocks.forEach((block, index) => {
    const text = (block as { text?: { text?: string } }).text?.text ?? '';
    const id = /\* {2}`(\d+)`/.exec(text)?.[1];
    if (!id) return;
    // The row's own buttons are the block under it (none for a row without buttons).
    const next = message.blocks.slice(index + 1, index + 2);
    const buttons = buttonsOf({ blocks: next }).map(({ button }) => button.text.text);
    rows.set(id, { text, buttons });
  });
  return rows;
}

/** The calendar quarter `ahead` quarters after today's, as `when:` takes it (`Q2-2027`). */
function quarterAhead(ahead: number): string {
  const now = new Date();
  const index = now.getUTCFullYear() * 4 + Math.floor(now.getUTCMonth() / 3) + ahead;
  return `Q${(index % 4) + 1}-${Math.floor(index / 4)}`;
}

describe('simulator data a planner recognises', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot({ channels: [PLANS, PLANNED] });
  });
  afterAll(() => bot.close());

  async function run(text: string, channelId?: string) {
    await bot.command(text, channelId ? { ...ALICE, channelId } : ALICE);
    await bot.idle();
    const message = bot.last(channelId);
    expect(message.warnings).toEqual([]);
    return structuredClone(message);
  }
  const seeded = (eventId: string | undefined) => bot.sim.events.find((e) => e.eventId === eventId);

  it('shows-for gives different first shows for different requests, each with its reason', async () => {
    // Act
    const payments = rowsOf(await run('shows-for B2B payments software'));
    const dentists = rowsOf(await run('shows-for dentists'));

    // Assess: a payments show first for the one, a dental one for the other, each said why
    const [paymentsFirst] = payments.keys();
    const [dentistsFirst] = dentists.keys();
    expect(paymentsFirst).not.toBe(dentistsFirst);
    expect(isPayments(seeded(paymentsFirst) ?? ({} as SeededEvent))).toBe(true);
    expect(payments.get(paymentsFirst ?? '')?.text).toMatch(/Why: Matches .*“payments”/);
    expect(seeded(dentistsFirst)?.description).toContain('dentists');
    expect(dentists.get(dentistsFirst ?? '')?.text).toContain('Why: Matches “dentists”');
    // The order differs beyond the first show too
    expect([...payments.keys()].slice(0, 5)).not.toEqual([...dentists.keys()].slice(0, 5));
  });

  it('finds fintech and payments shows in Europe in the quarter after next', async () => {
    // Prepare
    const when = quarterAhead(2);
    const quarter = parseCalendarPeriod(when);
    if (!quarter) throw new Error(`no quarter ${when}`);
    const expected = bot.sim.events.filter(
      (e) =>
        isPayments(e) &&
        europe.includes(e.country) &&
        e.dateStart >= quarter.from &&
        e.dateStart <= quarter.to,
    );

    // Act
    const message = await run(`search fintech payments region:Europe when:${when}`);

    // Assess
    expect(expected.length).toBeGreaterThanOrEqual(2);
    expect(new Set(rowsOf(message).keys())).toEqual(new Set(expected.map((e) => e.eventId)));
  });

  it('has payments shows in Europe in each of the next four quarters, in North America, and some past', () => {
    const payments = bot.sim.events.filter(isPayments);
    for (const ahead of [1, 2, 3, 4]) {
      const quarter = parseCalendarPeriod(quarterAhead(ahead));
      const inEurope = payments.filter(
        (e) =>
          europe.includes(e.country) && quarter && e.dateStart >= quarter.from && e.dateStart <= quarter.to,
      );
      expect(inEurope.length).toBeGreaterThan(0);
    }
    const northAmerica: readonly string[] = REGIONS['North America'];
    expect(
      payments.filter((e) => northAmerica.includes(e.country) && e.dateStart > today()).length,
    ).toBeGreaterThan(1);
    expect(bot.sim.events.filter((e) => e.dateEnd < today()).length).toBeGreaterThanOrEqual(3);
  });

  it('stars only some exhibitors of a show as recommended', async () => {
    const message = await run('exhibitors 26855');

    const rows = visibleText(message).match(/Exhibitor ID/g) ?? [];
    const starred = visibleText(message).match(/Recommended for you/g) ?? [];
    expect(rows.length).toBe(10);
    expect(starred.length).toBeGreaterThan(0);
    expect(starred.length).toBeLessThan(rows.length);
  });

  it('marks a past show as past in a list, without Add to plan; an upcoming one has it', async () => {
    // Prepare: the seed's payments show that ended last week, and one still ahead
    const past = bot.sim.events.find((e) => holds(e, 'payments') && e.dateEnd < today());
    const ahead = bot.sim.events.find((e) => holds(e, 'payments') && e.dateStart > today());
    if (!past || !ahead) throw new Error('the seed has no past or no upcoming payments show');

    // Act: dated to its own days, as a search without dates lists the shows still ahead first
    const rows = rowsOf(await run(`search ${past.name} from:${past.dateStart} to:${past.dateStart}`));

    // Assess
    const row = rows.get(past.eventId);
    expect(row?.text).toContain('· *Past*');
    expect(row?.buttons).toEqual(['Fit', 'Exhibitors', 'People']);
    const upcoming = rowsOf(await run(`search ${ahead.name}`)).get(ahead.eventId);
    expect(upcoming?.text).not.toContain('Past');
    expect(upcoming?.buttons).toContain('Add to plan');
  });

  it('marks a past show as past on its card, its brief and its link unfurl; an upcoming one is not', async () => {
    // Prepare
    const past = bot.sim.events.find((e) => holds(e, 'payments') && e.dateEnd < today());
    const ahead = bot.sim.events.find((e) => holds(e, 'payments') && e.dateStart > today());
    if (!past || !ahead) throw new Error('the seed has no past or no upcoming payments show');
    const unfurled = async (eventId: string) => {
      const url = `https://app.lensmor.com/event/${eventId}`;
      await bot.slack.shareLink({ user: ALICE.userId, channel: CHANNEL, url });
      await bot.idle();
      const unfurl = bot.slack.unfurls.findLast((candidate) => url in candidate.unfurls);
      return JSON.stringify(unfurl?.unfurls[url] ?? null);
    };

    // Act
    const cards = [await run(`show ${past.eventId}`), await run(`brief ${past.eventId}`)];
    const aheadCards = [await run(`show ${ahead.eventId}`), await run(`brief ${ahead.eventId}`)];
    const [pastUnfurl, aheadUnfurl] = [await unfurled(past.eventId), await unfurled(ahead.eventId)];

    // Assess: marked past beside its dates, and none offers to plan it
    for (const card of cards) {
      expect(visibleText(card)).toContain('· *Past*');
      expect(buttonsOf(card).map(({ button }) => button.text.text)).not.toContain('Add to plan');
    }
    expect(pastUnfurl).toContain('· *Past*');
    expect(pastUnfurl).not.toContain('Add to plan');
    for (const card of aheadCards) expect(visibleText(card)).not.toContain('Past');
    expect(aheadUnfurl).toContain(ahead.name);
    expect(aheadUnfurl).not.toContain('Past');
  });

  it('marks a show on the plan that has since ended as past, on the card and the canvas', async () => {
    // Prepare: a show planned before it ended (stored as the plan keeps it), and one still ahead
    const past = bot.sim.events.find((e) => holds(e, 'payments') && e.dateEnd < today());
    const ahead = bot.sim.events.find((e) => holds(e, 'payments') && e.dateStart > today());
    if (!past || !ahead) throw new Error('the seed has no past or no upcoming payments show');
    const { eventId, name, dateStart, dateEnd, city } = past;
    await bot.store.plans.update(ALICE.teamId, PLANNED, (current) => ({
      next: {
        ...current,
        shows: [
          { eventId, name, dateStart, dateEnd, city, addedBy: ALICE.userId, addedAt: '2026-01-01T00:00:00Z' },
        ],
      },
      result: null,
    }));

    // Act: another show added, which brings the canvas up to date
    const card = await run(`plan add ${ahead.eventId}`, PLANNED);

    // Assess
    const pastLine = visibleText(card)
      .split('\\n')
      .find((line) => line.includes(`*${past.name}*`));
    expect(pastLine).toContain('· *Past*');
    expect(visibleText(card)).not.toMatch(new RegExp(`\\*${ahead.name}\\* · [^·]*· \\*Past\\*`));
    const canvas = bot.slack.canvases(PLANNED)[0]?.markdown ?? '';
    expect(canvas.split('\n').filter((line) => line.includes('**Past**'))).toHaveLength(1);
    expect(canvas.split('\n').find((line) => line.includes('**Past**'))).toContain(`event ${past.eventId}`);
  });

  it('refuses to plan a past show in words, storing and posting nothing', async () => {
    // Prepare
    const past = bot.sim.events.find((e) => e.dateEnd < today() && e.exhibitorCount > 0);
    if (!past) throw new Error('the seed has no past show');

    // Act
    const answer = visibleText(await run(`plan add ${past.eventId}`, PLANS));

    // Assess
    expect(answer).toContain(`${past.name.replace(/&/g, '&amp;')} has ended`);
    expect(answer).toContain('so it was not added');
    expect(await bot.store.plans.get(ALICE.teamId, PLANS)).toBeNull();
    expect(bot.slack.canvases(PLANS)).toEqual([]);
  });
});
