import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { quarterOfShow } from '../../../src/domain/plan/index.ts';
import { PRICES } from '../../../src/domain/prices.ts';
import { formatNumber } from '../../../src/slack/views/format.ts';
import { ALICE, APPROVER, type Bot, startBot, visibleText } from '../../support/bot.ts';

/*
 * One id per show, through the real handlers: the service takes a show's public id and its internal id
 * (the simulator's 27306 and 8491 are one show); the plan, the ledger and the budget key on the public one.
 */

const PRICE = PRICES['event-unlock'].credits ?? 0;

describe('one id per show', () => {
  let bot: Bot;
  /** A show still ahead with people to unlock, in a quarter: its two ids. */
  let show: { id: string; eventId: string; name: string; quarter: { key: string; label: string } };

  /** `/events <text>` in `channelId`; the answer it got (the last message there after it). */
  async function say(text: string, channelId: string): Promise<SlackMessage> {
    await bot.command(text, { ...ALICE, channelId });
    await bot.idle();
    return bot.last(channelId);
  }
  const rowsOf = async (channelId: string) =>
    (await bot.store.plans.get(ALICE.teamId, channelId))?.shows.map((row) => row.eventId);

  beforeAll(async () => {
    bot = await startBot({ balance: 100_000, channels: ['C0TWICE', 'C0BUDGET', 'C0OLD'] });
    const today = new Date().toISOString().slice(0, 10);
    const found = bot.sim.events.find(
      (e) => e.personnelCount > 0 && e.dateEnd >= today && e.id !== e.eventId && quarterOfShow(e),
    );
    const quarter = found && quarterOfShow(found);
    if (!found || !quarter) throw new Error('the simulator has no show ahead to plan');
    show = { id: found.id, eventId: found.eventId, name: found.name, quarter };
  });
  afterAll(() => bot.close());

  it('keeps one row when a show is added by its public id and then by its internal id', async () => {
    expect(visibleText(await say(`plan add ${show.eventId}`, 'C0TWICE'))).toContain(`Added *${show.name}*`);
    expect(visibleText(await say(`plan add ${show.id}`, 'C0TWICE'))).toContain(
      'is already on this channel’s plan',
    );
    expect(await rowsOf('C0TWICE')).toEqual([show.eventId]);

    // Removed by its internal id, added back by it: the row is the public id's.
    expect(visibleText(await say(`plan remove ${show.id}`, 'C0TWICE'))).toContain(`Removed *${show.name}*`);
    expect(await rowsOf('C0TWICE')).toEqual([]);
    await say(`plan add ${show.id}`, 'C0TWICE');
    expect(await rowsOf('C0TWICE')).toEqual([show.eventId]);
  });

  it('counts an unlock by the internal id toward the plan’s show spend and its budget warning', async () => {
    const channelId = 'C0BUDGET';
    await say(`plan add ${show.eventId}`, channelId);
    // Budgets are the approvers' and admins' (src/slack/kit/permissions.ts).
    await bot.command(`plan budget ${PRICE} ${show.quarter.key}`, { ...APPROVER, channelId });
    await bot.idle();
    expect(visibleText(bot.last(channelId))).toContain(`The budget for ${show.quarter.label} is`);

    await bot.command(`unlock ${show.id}`, { ...ALICE, channelId });
    await bot.idle();
    await bot.click(bot.last(channelId), 'confirm.yes', { ...ALICE, channelId });
    await bot.idle();

    const { entries } = await bot.store.ledger.listKept(ALICE.teamId, channelId);
    expect(entries.map((entry) => [entry.eventId, entry.credits])).toEqual([[show.eventId, PRICE]]);
    const warnings = bot
      .messages(channelId)
      .filter((m) => m.text.includes(':warning: This channel has spent'));
    expect(warnings.map((m) => m.text)).toEqual([
      expect.stringContaining(
        `spent ${formatNumber(PRICE)} credits on its plan’s ${show.quarter.label} shows: 100% of the budget`,
      ),
    ]);
    const card = visibleText(await say('plan', channelId));
    expect(card).toContain(`spent on these shows ${formatNumber(PRICE)} credits`);
    expect(card).not.toContain('other spend');
  });

  it('compares a show with itself by no means: its two ids are said to name one show', async () => {
    const answer = visibleText(await say(`compare ${show.eventId} ${show.id}`, 'C0TWICE'));
    expect(answer).toContain(`Two of the ids name the same show (its id is ${show.eventId})`);
    expect(answer).not.toContain('Fit for your profile');
  });

  it('reads a plan row, a cost and a ledger entry stored under the internal id as the same show', async () => {
    const channelId = 'C0OLD';
    const at = new Date().toISOString();
    // As a bot before this change stored them: the show under the id it was given.
    await bot.store.plans.update(ALICE.teamId, channelId, (current) => ({
      next: {
        ...current,
        shows: [
          {
            eventId: show.id,
            name: show.name,
            dateStart: null,
            dateEnd: null,
            city: null,
            addedBy: ALICE.userId,
            addedAt: at,
          },
        ],
        costs: [{ eventId: show.id, kind: 'booth', hundredths: 1_200_000, setBy: ALICE.userId, setAt: at }],
        budgets: { [show.quarter.key]: { credits: PRICE * 10, setBy: ALICE.userId, setAt: at } },
      },
      result: null,
    }));
    await bot.store.ledger.record({
      teamId: ALICE.teamId,
      channelId,
      requestedBy: ALICE.userId,
      action: 'event-unlock',
      credits: PRICE,
      eventId: show.id,
      status: 'charged',
    });

    expect(visibleText(await say(`plan add ${show.eventId}`, channelId))).toContain(
      'is already on this channel’s plan',
    );
    const card = visibleText(await say('plan', channelId));
    expect(card).toContain(`spent on these shows ${formatNumber(PRICE)} credits`);
    expect(card).toContain('12,000');
    expect(card).not.toContain('other spend');

    // Migrated in place: the row and its cost now under the public id; the ledger entry as it was.
    const plan = await bot.store.plans.get(ALICE.teamId, channelId);
    expect(plan?.shows.map((row) => row.eventId)).toEqual([show.eventId]);
    expect(plan?.costs).toEqual([expect.objectContaining({ eventId: show.eventId, hundredths: 1_200_000 })]);
    const { entries } = await bot.store.ledger.listKept(ALICE.teamId, channelId);
    expect(entries.map((entry) => entry.eventId)).toEqual([show.id]);
  });
});
