import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { quarterContaining } from '../../../src/domain/periods.ts';
import { quarterOfShow } from '../../../src/domain/plan/index.ts';
import { formatNumber } from '../../../src/slack/views/format.ts';
import { ALICE, APPROVER, type Bot, CHANNEL, startBot, visibleText } from '../../support/bot.ts';
import { showsForPlan } from '../../support/plan-shows.ts';

/* The channel's plan through the real handlers: its words, its card and cost line, its canvas, the budget warning. */

const OTHER = 'C0OTHER';
const PLANNER = 'C0PLANNER';
const ELSEWHERE = 'T0ELSEWHERE';

describe('the channel’s plan', () => {
  let bot: Bot;
  let shows: { eventId: string; name: string; dateStart: string }[];

  /** `/events <text>` in `channel`; the answer it got (the last message there after it). */
  /** `/events <text>` in `channelId`, by Alice (a member) or, for what only approvers may, the approver. */
  async function say(text: string, channelId = CHANNEL, who = ALICE): Promise<SlackMessage> {
    await bot.command(text, { ...who, channelId });
    await bot.idle();
    return bot.last(channelId);
  }
  const calls = (method: string, channel?: string) =>
    bot.slack.calls.filter(
      (call) => call.method === method && (channel === undefined || call.args.channel_id === channel),
    );

  beforeAll(async () => {
    bot = await startBot({ balance: 100_000, channels: [PLANNER] });
    // Shows still ahead with something to unlock, soonest first, the first two in one quarter (a
    // budget then covers two). A show already over cannot be planned.
    shows = showsForPlan(bot.sim.events, bot.sim.today).map((e) => ({
      eventId: e.eventId,
      name: e.name,
      dateStart: e.dateStart,
    }));
    // Another workspace's plan of a channel with the same id.
    await bot.store.plans.update(ELSEWHERE, CHANNEL, (current) => ({
      next: {
        ...current,
        shows: [
          {
            eventId: '999001',
            name: 'Elsewhere Expo',
            dateStart: null,
            dateEnd: null,
            city: null,
            addedBy: 'U0ELSE',
            addedAt: new Date().toISOString(),
          },
        ],
      },
      result: null,
    }));
  });
  afterAll(() => bot.close());

  it('adds shows, refuses an unknown one and a second add, and keeps one canvas edited on each change', async () => {
    const [a, b] = shows;
    if (!a || !b) throw new Error('the simulator has too few shows');

    const added = visibleText(await say(`plan add ${b.eventId}`));
    expect(added).toContain(`Added *${b.name}*`);
    expect(added).toMatch(/Fit \d+\.\d \/ 10, (Recommended|Consider|Not recommended)/);
    expect(added).toContain('Unlock: 2,000 credits');
    expect(calls('conversations.canvases.create', CHANNEL)).toHaveLength(1);

    expect(visibleText(await say(`plan add ${a.eventId}`))).toContain(`Added *${a.name}*`);
    expect(visibleText(await say(`plan add ${a.eventId}`))).toContain('is already on this channel’s plan');
    const unknown = visibleText(await say('plan add 99999999'));
    expect(unknown).toContain('knows no show with the id 99999999');

    const plan = await bot.store.plans.get(ALICE.teamId, CHANNEL);
    expect(plan?.shows.map((s) => s.eventId).sort()).toEqual([a.eventId, b.eventId].sort());
    // One canvas, created once, edited for the second add only (the refused ones changed nothing).
    const [canvas, ...others] = bot.slack.canvases(CHANNEL);
    expect(others).toEqual([]);
    expect(canvas?.edits).toBe(1);
    expect(canvas?.markdown).toContain(a.name);
    expect(canvas?.markdown).toContain(b.name);
    expect(calls('conversations.canvases.create', CHANNEL)).toHaveLength(1);

    // By date: the earlier show first, on the card and on the canvas.
    const card = visibleText(await say('plan'));
    expect(card.indexOf(a.name)).toBeLessThan(card.indexOf(b.name));
    expect(canvas?.markdown.indexOf(a.name)).toBeLessThan(canvas?.markdown.indexOf(b.name) ?? 0);
  });

  it('sets a quarter’s budget and shows the cost line against it and the balance', async () => {
    const [a] = shows;
    const quarter = quarterOfShow(a ?? { dateStart: null });
    if (!quarter) throw new Error('the first show has no dates');

    const answer = visibleText(await say(`plan budget 20000 ${quarter.key}`, CHANNEL, APPROVER));

    expect(answer).toContain(`The budget for ${quarter.label} is 20,000 credits`);
    expect(answer).toContain(
      `${quarter.label}: 2 shows, unlocking 2 would cost 4,000 credits; budget 20,000 credits, spent on these shows 0 credits, 20,000 credits left. Unlocking the rest fits in what is left.`,
    );
    expect(answer).toContain(
      'Balance: 100,000 credits; everything still to unlock: 4,000 credits (covered).',
    );
    expect(visibleText(await say('plan budget'))).toContain(`${quarter.label}: 2 shows`);
    expect(bot.slack.canvases(CHANNEL)[0]?.markdown).toContain('budget 20,000 credits, spent on these shows');
    expect(visibleText(await say('plan budget lots Q9-2027'))).toContain('is not a number of credits');
  });

  it('removes a show: gone from the card and the canvas', async () => {
    const [, b] = shows;
    const answer = visibleText(await say(`plan remove ${b?.eventId}`));
    expect(answer).toContain(`Removed *${b?.name}*`);
    expect(answer.split(`Removed *${b?.name}*`)[1]).not.toContain(b?.name ?? '');
    expect(bot.slack.canvases(CHANNEL)[0]?.markdown).not.toContain(b?.name ?? '');
    expect(visibleText(await say(`plan remove ${b?.eventId}`))).toContain('is not on this channel’s plan');
  });

  it('makes the canvas again at the next change when someone deleted it, and tells the channel once', async () => {
    const [, b] = shows;
    const told = () =>
      bot
        .messages(CHANNEL)
        .filter((m) => !m.visibleTo && m.text.includes('canvas of this channel’s plan was deleted'));
    const [deleted] = bot.slack.canvases(CHANNEL);
    if (!deleted) throw new Error('the channel has no canvas yet');
    expect(bot.slack.deleteCanvas(deleted.id)).toBe(true);

    await bot.command(`plan add ${b?.eventId}`);
    await bot.idle();

    expect(bot.slack.canvases(CHANNEL)).toHaveLength(1);
    const [made] = bot.slack.canvases(CHANNEL);
    expect(made?.id).not.toBe(deleted.id);
    expect(made?.markdown).toContain(b?.name);
    expect(made?.markdown).toContain(shows[0]?.name);
    expect(told()).toHaveLength(1);
    const answers = bot.messages(CHANNEL).filter((m) => m.visibleTo && m.text.includes('Added'));
    expect(visibleText(answers.at(-1) ?? { text: '', blocks: [] })).not.toContain('could not be updated');

    // The next change edits the new canvas, and says nothing more.
    await bot.command(`plan remove ${b?.eventId}`);
    await bot.idle();
    expect(bot.slack.canvases(CHANNEL)).toHaveLength(1);
    expect(bot.slack.canvases(CHANNEL)[0]?.markdown).not.toContain(b?.name);
    expect(told()).toHaveLength(1);
  });

  it('saves the change when the canvas cannot be made, says to reinstall, and makes one canvas for two concurrent adds later', async () => {
    const [, , c, d, e] = shows;
    bot.slack.failNext('conversations.canvases.create', 'missing_scope');

    const answer = visibleText(await say(`plan add ${c?.eventId}`, OTHER));

    expect(answer).toContain(`Added *${c?.name}*`);
    expect(answer).toContain('reinstall the app to grant it canvases');
    expect((await bot.store.plans.get(ALICE.teamId, OTHER))?.shows).toHaveLength(1);
    expect(bot.slack.canvases(OTHER)).toEqual([]);

    await Promise.all([
      bot.command(`plan add ${d?.eventId}`, { ...ALICE, channelId: OTHER }),
      bot.command(`plan add ${e?.eventId}`, { ...ALICE, channelId: OTHER }),
    ]);
    await bot.idle();

    const canvases = bot.slack.canvases(OTHER);
    expect(canvases).toHaveLength(1);
    expect(calls('conversations.canvases.create', OTHER)).toHaveLength(2); // the refused one, then one
    for (const show of [c, d, e]) expect(canvases[0]?.markdown).toContain(show?.name);
  });

  it('counts a next-quarter show’s unlock against that quarter’s budget, warns at 80% of it, and takes it off when the show leaves', async () => {
    const now = quarterContaining(new Date());
    const onPlans = new Set(shows.slice(0, 5).map((s) => s.eventId));
    const open = bot.sim.events.filter(
      (e) => e.exhibitorCount > 0 && e.personnelCount > 0 && !onPlans.has(e.eventId),
    );
    const later = open.find((e) => (quarterOfShow(e)?.from ?? '') > now.to);
    const current = open.find((e) => quarterOfShow(e)?.key === now.key);
    const next = later && quarterOfShow(later);
    if (!later || !current || !next)
      throw new Error('the simulator has no show to unlock in this quarter or later');
    const inPlanner = { ...ALICE, channelId: PLANNER };
    /** `/events <text>` in the planner's channel, asked and confirmed. */
    const ask = async (text: string) => {
      await bot.command(text, inPlanner);
      await bot.idle();
      await bot.click(bot.last(PLANNER), 'confirm.yes', inPlanner);
      await bot.idle();
    };
    const unlock = (eventId: string) => ask(`unlock ${eventId}`);
    const warnings = () =>
      bot.messages(PLANNER).filter((m) => m.text.includes(':warning: This channel has spent'));
    await say(`plan add ${later.eventId}`, PLANNER);
    await say(`plan budget 2400 ${next.key}`, PLANNER, APPROVER);
    await say(`plan budget 2000 ${now.key}`, PLANNER, APPROVER);

    // A show not on the plan, unlocked now: the channel's other spend of this quarter, no budget's.
    await unlock(current.eventId);
    expect(warnings()).toEqual([]);
    // The plan's show of a later quarter, unlocked now (months ahead), then a contact from its list:
    // that quarter's budget, warned about once past 80% of it.
    await unlock(later.eventId);
    expect(warnings().map((m) => m.text)).toEqual([
      expect.stringContaining(
        `spent 2,000 credits on its plan’s ${next.label} shows: 83% of the budget of 2,400 credits`,
      ),
    ]);
    await ask(`emails ${later.personnelIds[0]} event:${later.eventId}`);
    const { entries } = await bot.store.ledger.listKept(ALICE.teamId, PLANNER);
    const contact = entries.find((entry) => entry.action === 'email-unlock')?.credits ?? 0;
    expect(contact).toBeGreaterThan(0);
    const onShow = formatNumber(2000 + contact);
    const card = visibleText(await say('plan', PLANNER));

    expect(card).toContain(
      `${next.label}: 1 show, nothing left to unlock; budget 2,400 credits, spent on these shows ${onShow} credits, ${formatNumber(400 - contact)} credits left.`,
    );
    expect(card).toContain(
      `${now.label}: 0 shows, nothing left to unlock; budget 2,000 credits, spent on these shows 0 credits, 2,000 credits left. This channel’s other spend in ${now.label}: 2,000 credits (not counted against the plan’s budget).`,
    );
    expect(bot.slack.canvases(PLANNER)[0]?.markdown).toContain(`spent on these shows ${onShow} credits`);
    expect(warnings()).toHaveLength(1);
    await bot.slack.openHome(ALICE.userId);
    await bot.idle();
    expect(JSON.stringify(bot.slack.home(ALICE.userId)?.view)).toContain(
      `${next.key}: ${onShow} of 2,400 credits spent on 1 show`,
    );

    // Moved by the service to the quarter after: its spend moves with it (the plan learns the dates).
    const after = quarterContaining(new Date(Date.parse(`${next.to}T00:00:00Z`) + 86_400_000));
    const days = (Date.parse(after.from) - Date.parse(later.dateStart)) / 86_400_000 + 1;
    bot.sim.changeData({ kind: 'postpone', event: later.eventId, days });
    const moved = visibleText(await say('plan', PLANNER));
    expect(moved).toContain(
      `${next.label}: 0 shows, nothing left to unlock; budget 2,400 credits, spent on these shows 0 credits, 2,400 credits left.`,
    );
    expect(moved).toContain(
      `${after.label}: 1 show, nothing left to unlock; spent on these shows: ${onShow} credits; no budget set.`,
    );
    expect((await bot.store.plans.get(ALICE.teamId, PLANNER))?.shows[0]?.dateStart).toBe(later.dateStart);
    expect(bot.slack.canvases(PLANNER)[0]?.markdown).toContain(`${after.label}: 1 show`);

    // Off the plan, the show keeps its spend in its quarter, marked: a quarter's spend never goes down.
    await say(`plan remove ${later.eventId}`, PLANNER);
    const budgets = visibleText(await say('plan budget', PLANNER));
    expect(budgets).toContain(
      `${next.label}: 0 shows, nothing left to unlock; budget 2,400 credits, spent on these shows 0 credits, 2,400 credits left.`,
    );
    expect(visibleText(await say('plan', PLANNER))).toContain(
      `${after.label}: 0 shows, nothing left to unlock; spent on these shows: ${onShow} credits (${onShow} credits of it on shows removed from the plan); no budget set.`,
    );
    expect(budgets).toContain(`This channel’s other spend in ${now.label}: 2,000 credits`);
    // Wrong budgets are still refused, and change nothing.
    for (const wrong of [
      'plan budget -5 Q1-2027',
      'plan budget 2000 Q5-2027',
      'plan budget 10000001 Q1-2027',
    ])
      expect(visibleText(await say(wrong, PLANNER))).toMatch(/is not (a number of credits|a quarter)/);
    expect((await bot.store.plans.get(ALICE.teamId, PLANNER))?.budgets[next.key]?.credits).toBe(2400);
  });

  it('leaves another workspace’s plan of the same channel id alone, and keeps it out of this one', async () => {
    const elsewhere = await bot.store.plans.get(ELSEWHERE, CHANNEL);
    expect(elsewhere?.shows.map((s) => s.eventId)).toEqual(['999001']);
    expect(elsewhere?.canvasId).toBeUndefined();
    expect(elsewhere?.budgets).toEqual({});
    expect(visibleText(await say('plan'))).not.toContain('Elsewhere Expo');
    await bot.slack.openHome(ALICE.userId);
    await bot.idle();
    const home = JSON.stringify(bot.slack.home(ALICE.userId)?.view);
    expect(home).toContain('Channel plans');
    expect(home).toContain(shows[0]?.name);
    expect(home).not.toContain('Elsewhere Expo');
  });
});
