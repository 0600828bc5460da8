import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import type { SeededEvent } from '../../../simulator/server.ts';
import { OUTCOME_LIMITS } from '../../../src/domain/outcomes.ts';
import { isPastShow } from '../../../src/domain/past-show.ts';
import { LOG_SHORTCUT } from '../../../src/slack/features/outcomes/listeners.ts';
import { threadLink } from '../../../src/slack/kit/thread-link.ts';
import { ACTION_IDS } from '../../../src/slack/views/action-ids.ts';
import { FORM_IDS } from '../../../src/slack/views/form-ids.ts';
import { ALICE, BOB, type Bot, CHANNEL, startBot } from '../../support/bot.ts';
import { showsForPlan } from '../../support/plan-shows.ts';

/*
 * Log for a show (issue 43): the message shortcut and a past show's Outcome… open one form, which logs
 * exactly as `/events outcome` does, its refusals on the fields, nothing stored on a refusal.
 */

const text = (value: string) => ({ value: { type: 'plain_text_input', value } });
const choice = (value: string) => ({ value: { type: 'static_select', selected_option: { value } } });

interface InputBlock {
  type: string;
  block_id?: string;
  element?: { initial_value?: string };
}

describe('Log for a show, through the Slack handler', () => {
  let bot: Bot;
  let ahead: SeededEvent;
  let past: SeededEvent;

  const entries = () => bot.store.outcomes.forTeam(ALICE.teamId);
  const initialOf = (field: string) =>
    ((bot.slack.modal(ALICE.userId)?.view.blocks ?? []) as InputBlock[]).find((b) => b.block_id === field)
      ?.element?.initial_value;
  async function messageFromBob(body: string): Promise<SlackMessage> {
    await bot.slack.sendMessage({ user: BOB.userId, channel: CHANNEL, text: body });
    const message = bot
      .messages()
      .filter((m) => m.user === BOB.userId)
      .at(-1);
    if (!message) throw new Error('no message from Bob');
    return message;
  }
  const openFrom = (message: SlackMessage) =>
    bot.slack.messageShortcut({
      user: ALICE.userId,
      channel: CHANNEL,
      ts: message.ts,
      callbackId: LOG_SHORTCUT,
    });
  async function fitCardOf(eventId: string): Promise<SlackMessage> {
    await bot.command(`fit ${eventId}`);
    await bot.idle();
    return bot.last();
  }

  beforeAll(async () => {
    bot = await startBot();
    const [first] = showsForPlan(bot.sim.events, bot.sim.today);
    const over = bot.sim.events.find((e) => isPastShow(e, bot.sim.today));
    if (!first || !over) throw new Error('the simulator needs a show ahead and one over');
    [ahead, past] = [first, over];
  });
  afterAll(() => bot.close());

  it('opens from a message, prefilled with its text and its link', async () => {
    const message = await messageFromBob(
      'Met  their CTO at the booth: <@U0CAROL> follows up & sends the deck',
    );

    await openFrom(message);

    expect(bot.slack.modal(ALICE.userId)?.view.callback_id).toBe(FORM_IDS.outcome);
    expect(initialOf('note')).toBe(
      `Met their CTO at the booth: @U0CAROL follows up & sends the deck ${threadLink(CHANNEL, message.ts)}`,
    );
    expect(initialOf('show')).toBeUndefined();
  });

  it('trims a long message to the note’s limit, keeping its link', async () => {
    const message = await messageFromBob('word '.repeat(OUTCOME_LIMITS.noteChars));

    await openFrom(message);

    const note = initialOf('note') ?? '';
    expect(note.length).toBeLessThanOrEqual(OUTCOME_LIMITS.noteChars);
    expect(note.endsWith(threadLink(CHANNEL, message.ts))).toBe(true);
  });

  it('logs one entry as /events outcome does, its card in the message’s thread', async () => {
    // A note as the message prefills it: a mention, and a first word that looks like a currency code.
    const message = await messageFromBob('USD terms agreed, <@U0CAROL> sends the contract');
    await openFrom(message);
    const note = initialOf('note') ?? '';
    const before = await entries();

    const answer = await bot.slack.submitView({
      user: ALICE.userId,
      values: {
        show: text(ahead.eventId),
        kind: choice('won'),
        account: text('Globex "Corp"'),
        amount: text('48,000'),
        note: text(note),
      },
    });
    await bot.idle();

    expect(answer.body).toBe('');
    const added = (await entries()).filter((e) => !before.some((b) => b.id === e.id));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      eventId: ahead.eventId,
      kind: 'won',
      hundredths: 4_800_000,
      account: "Globex 'Corp'",
      note: `USD terms agreed, @U0CAROL sends the contract ${threadLink(CHANNEL, message.ts)}`,
      loggedBy: ALICE.userId,
    });
    const card = bot.messages().find((m) => m.threadTs === message.ts && m.ts === added[0]?.cardTs);
    expect(card?.visibleTo).toBeUndefined();
    expect(card?.text).toContain('Won 48,000');
  });

  it('shows a malformed or negative amount on its field, storing nothing', async () => {
    for (const amount of ['-5', '12.345', 'lots']) {
      await openFrom(await messageFromBob('a deal'));
      const before = await entries();
      const messages = bot.messages().length;

      const answer = await bot.slack.submitView({
        user: ALICE.userId,
        values: {
          show: text(ahead.eventId),
          kind: choice('opportunity'),
          account: text('Acme'),
          amount: text(amount),
        },
      });
      await bot.idle();

      expect(JSON.parse(answer.body)).toMatchObject({ response_action: 'errors' });
      const errors = bot.slack.modal(ALICE.userId)?.errors ?? {};
      expect(Object.keys(errors)).toEqual(['amount']);
      expect(errors.amount).toContain(amount);
      expect(await entries()).toEqual(before);
      expect(bot.messages()).toHaveLength(messages);
    }
  });

  it('answers a show the service does not know to the logger alone, storing nothing', async () => {
    const message = await messageFromBob('a meeting');
    await openFrom(message);
    const before = await entries();

    await bot.slack.submitView({
      user: ALICE.userId,
      values: { show: text('99999999'), kind: choice('meeting-held'), account: text('Acme') },
    });
    await bot.idle();

    expect(await entries()).toEqual(before);
    const refusal = bot.last();
    expect(refusal.visibleTo).toBe(ALICE.userId);
    expect(refusal.text).toContain('knows no show with the id 99999999');
    expect(bot.messages().filter((m) => m.threadTs === message.ts)).toEqual([]);
  });

  it('offers Outcome… on a past show’s card only, opening the form with the show', async () => {
    const aheadCard = await fitCardOf(ahead.eventId);
    const pastCard = await fitCardOf(past.eventId);

    const actionsOf = (card: SlackMessage) => buttonsOf(card).map(({ button }) => button.action_id);
    expect(actionsOf(aheadCard)).not.toContain(ACTION_IDS.outcomeOpen);
    expect(actionsOf(pastCard)).toContain(ACTION_IDS.outcomeOpen);

    await bot.click(pastCard, ACTION_IDS.outcomeOpen);
    await bot.idle();

    expect(bot.slack.modal(ALICE.userId)?.view.callback_id).toBe(FORM_IDS.outcome);
    expect(initialOf('show')).toBe(past.eventId);
  });
});
