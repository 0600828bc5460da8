import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import type { SeededEvent } from '../../../simulator/seed.ts';
import { isPastShow } from '../../../src/domain/past-show.ts';
import { ACTION_IDS } from '../../../src/slack/views/action-ids.ts';
import { FORM_IDS } from '../../../src/slack/views/form-ids.ts';
import { ALICE, type Bot, startBot } from '../../support/bot.ts';
import { showsForPlan } from '../../support/plan-shows.ts';

/*
 * Outcome… on a past show's plan row (issue 43): a show planned before it ended offers to log what it
 * brought, opening the Log for a show form with the show; a show still ahead does not.
 */

const PLANNED = 'C0OUTCOMEPLAN';

describe('Outcome… on the plan card, through the Slack handler', () => {
  let bot: Bot;
  let ahead: SeededEvent;
  let past: SeededEvent;

  beforeAll(async () => {
    bot = await startBot({ channels: [PLANNED] });
    const [first] = showsForPlan(bot.sim.events, bot.sim.today);
    const over = bot.sim.events.find((e) => isPastShow(e, bot.sim.today));
    if (!first || !over) throw new Error('the simulator needs a show ahead and one over');
    [ahead, past] = [first, over];
  });
  afterAll(() => bot.close());

  /** The event ids of the rows offering Outcome…, read from each button's value. */
  const outcomeRows = (card: SlackMessage) =>
    buttonsOf(card)
      .filter(({ button }) => button.action_id === ACTION_IDS.outcomeOpen)
      .map(({ button }) => (JSON.parse(button.value ?? '{}') as { eventId?: string }).eventId);

  it('offers Outcome… on a past show’s row only, opening the form with the show', async () => {
    // Prepare: a show planned before it ended (stored as the plan keeps it; a past show cannot be added)
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

    // Act: a show still ahead added, whose answer is the plan card
    await bot.command(`plan add ${ahead.eventId}`, { ...ALICE, channelId: PLANNED });
    await bot.idle();
    const card = bot.last(PLANNED);

    // Assess: both rows there, Outcome… on the past one's only
    const removable = buttonsOf(card).filter(({ button }) => button.action_id === ACTION_IDS.planRemove);
    expect(removable).toHaveLength(2);
    expect(outcomeRows(card)).toEqual([past.eventId]);

    // Act: the click
    await bot.click(card, ACTION_IDS.outcomeOpen);
    await bot.idle();

    // Assess: the Log for a show form, with the show filled in
    const modal = bot.slack.modal(ALICE.userId)?.view;
    expect(modal?.callback_id).toBe(FORM_IDS.outcome);
    const show = (modal?.blocks as { block_id?: string; element?: { initial_value?: string } }[]).find(
      (b) => b.block_id === 'show',
    );
    expect(show?.element?.initial_value).toBe(past.eventId);
  });
});
