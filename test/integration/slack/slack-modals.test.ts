import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttonsOf } from '../../../local/fake-slack/payloads.ts';
import { ALICE, BOB, type Bot, CHANNEL, startBot, TEAM, visibleText } from '../../support/bot.ts';

const text = (value: string) => ({ value: { type: 'plain_text_input', value } });
const date = (value: string) => ({ value: { type: 'datepicker', selected_date: value } });
const choice = (value: string) => ({ value: { type: 'static_select', selected_option: { value } } });
const channel = (id: string) => ({ value: { type: 'conversations_select', selected_conversation: id } });

describe('shortcuts and modals, through the Slack handler', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  /** The modal's input fields: block id → element type. */
  const fieldsOf = (user: string): Record<string, string | undefined> =>
    Object.fromEntries(
      inputBlocks(user).map((block): [string, string | undefined] => [
        block.block_id ?? '',
        block.element?.type,
      ]),
    );
  const inputBlocks = (user: string) =>
    (
      (bot.slack.modal(user)?.view.blocks ?? []) as {
        type: string;
        block_id?: string;
        element?: { type: string };
      }[]
    ).filter((block) => block.type === 'input');

  it('opens the search modal with views.open within the ack, before any call to the service', async () => {
    // Prepare
    const serviceCalls = bot.sim.requests().length;
    const slackCalls = bot.slack.calls.length;

    // Act
    const answer = await bot.slack.globalShortcut({ user: ALICE.userId, callbackId: 'search_events' });

    // Assess: by the time the ack came back, the modal was open and the service untouched
    expect(answer.status).toBe(200);
    // (the handler's cold start may ask auth.test who the bot is: that is not this listener's doing)
    const methods = bot.slack.calls.slice(slackCalls).map((call) => call.method);
    expect(methods.filter((method) => method !== 'auth.test')).toEqual(['views.open']);
    expect(bot.sim.requests()).toHaveLength(serviceCalls);
    const modal = bot.slack.modal(ALICE.userId);
    expect(modal?.view.callback_id).toBe('modal.search');
    expect(modal?.warnings).toEqual([]);
    const fields = fieldsOf(ALICE.userId);
    expect(fields).toMatchObject({
      keywords: 'plain_text_input',
      country: 'plain_text_input',
      city: 'plain_text_input',
      from: 'datepicker',
      to: 'datepicker',
      type: 'plain_text_input',
      quality: 'plain_text_input',
      visitors: 'static_select',
      channel: 'conversations_select',
    });
  });

  it('shows field errors in the modal for a date range that ends before it starts, and runs nothing', async () => {
    // Prepare
    await bot.slack.globalShortcut({ user: ALICE.userId, callbackId: 'search_events' });
    const serviceCalls = bot.sim.requests().length;
    const messages = bot.messages().length;

    // Act
    const answer = await bot.slack.submitView({
      user: ALICE.userId,
      values: {
        keywords: text('fintech'),
        from: date('2027-03-01'),
        to: date('2027-01-31'),
        channel: channel(CHANNEL),
      },
    });
    await bot.idle();

    // Assess
    expect(JSON.parse(answer.body)).toMatchObject({ response_action: 'errors' });
    const modal = bot.slack.modal(ALICE.userId);
    expect(modal?.view.callback_id).toBe('modal.search');
    expect(modal?.errors).toEqual({ to: 'The end date is before the start date.' });
    expect(bot.sim.requests()).toHaveLength(serviceCalls);
    expect(bot.messages()).toHaveLength(messages);
  });

  it('delivers a search privately in the chosen channel, with Share, using every filter given', async () => {
    // Prepare
    await bot.slack.globalShortcut({ user: ALICE.userId, callbackId: 'search_events' });
    const since = bot.sim.requests().length;

    // Act
    await bot.slack.submitView({
      user: ALICE.userId,
      values: {
        keywords: text('expo'),
        type: text('Trade Show, Conference'),
        quality: text('high'),
        visitors: choice('no'),
        channel: channel(CHANNEL),
      },
    });
    await bot.idle();

    // Assess: the modal closed, the list is Alice's alone, and the service got the filters
    expect(bot.slack.modal(ALICE.userId)).toBeUndefined();
    const answer = bot.last();
    expect(answer.visibleTo).toBe(ALICE.userId);
    expect(answer.warnings).toEqual([]);
    // The seed's shows the filters keep (the simulator matches `expo` in the name, nickname,
    // description or city)
    const kept = bot.sim.events.filter(
      (e) =>
        [e.name, e.nickname, e.description, e.city].some((t) => (t ?? '').toLowerCase().includes('expo')) &&
        ['Trade Show', 'Conference'].includes(e.eventType) &&
        e.quality === 'high' &&
        !e.hasVisitors,
    ).length;
    expect(kept).toBeGreaterThan(1);
    expect(answer.text).toMatch(new RegExp(`^Events: .*rows 1–${kept} of ${kept}`));
    expect(buttonsOf(answer).map(({ button }) => button.action_id)).toContain('share.channel');
    const list = bot.sim
      .requests()
      .slice(since)
      .find((request) => request.path === '/external/events/list');
    expect(list?.query).toMatchObject({ keyword: 'expo', quality: 'high', has_visitors: '0' });
    expect([list?.query.event_type].flat().join(',')).toMatch(/Trade Show,\s*Conference/);

    // Act: Share posts the same search for everyone
    await bot.click(answer, 'share.channel');
    await bot.idle();
    const shared = bot.last();
    expect(shared.visibleTo).toBeUndefined();
    expect(visibleText(shared)).toContain(`<@${ALICE.userId}>`);
  });

  it('researches the company a message links to, answering in that message’s thread', async () => {
    // Prepare
    await bot.slack.sendMessage({
      user: BOB.userId,
      channel: CHANNEL,
      text: 'Should we meet https://globex.example at the expo?',
    });
    const message = bot
      .messages()
      .filter((candidate) => candidate.user === BOB.userId)
      .at(-1);
    if (!message) throw new Error('no message from Bob');
    const serviceCalls = bot.sim.requests().length;

    // Act
    await bot.slack.messageShortcut({
      user: ALICE.userId,
      channel: CHANNEL,
      ts: message.ts,
      callbackId: 'research_company',
    });

    // Assess: prefilled from the link, nothing asked of the service yet
    expect(bot.sim.requests()).toHaveLength(serviceCalls);
    const modal = bot.slack.modal(ALICE.userId);
    expect(modal?.view.callback_id).toBe('modal.research');
    expect(JSON.stringify(modal?.view.blocks)).toContain('"initial_value":"https://globex.example"');

    // Act
    await bot.slack.submitView({
      user: ALICE.userId,
      values: {
        company: text('https://globex.example'),
        lookup: { value: { type: 'radio_buttons', selected_option: { value: 'similar' } } },
      },
    });
    await bot.idle();

    // Assess
    const reply = bot.messages().find((candidate) => candidate.threadTs === message.ts);
    expect(reply?.text).toMatch(/Exhibitors like/);
    expect(reply?.visibleTo).toBeUndefined();
    expect(reply?.warnings).toEqual([]);
  });

  it('opens the digest settings for `/events digest on` alone, and its submission sets the digest', async () => {
    // Act
    const ack = await bot.command('digest on');

    // Assess
    expect(ack.status).toBe(200);
    expect(ack.body).toBe('');
    const modal = bot.slack.modal(ALICE.userId);
    expect(modal?.view.callback_id).toBe('modal.digest');
    expect(modal?.warnings).toEqual([]);
    const fields = fieldsOf(ALICE.userId);
    expect(fields).toMatchObject({ time: 'timepicker', zone: 'static_select', keywords: 'plain_text_input' });

    // Act
    await bot.slack.submitView({
      user: ALICE.userId,
      values: {
        time: { value: { type: 'timepicker', selected_time: '08:30' } },
        zone: choice('Europe/Berlin'),
        keywords: text('fintech'),
        country: text('Germany'),
      },
    });
    await bot.idle();

    // Assess
    expect(bot.slack.modal(ALICE.userId)).toBeUndefined();
    expect(await bot.store.digestSubscriptions.get(TEAM, CHANNEL)).toMatchObject({
      time: '08:30',
      timeZone: 'Europe/Berlin',
      filters: { keywords: 'fintech', country: 'Germany' },
      status: 'active',
    });
    const answer = bot.last();
    expect(answer.visibleTo).toBe(ALICE.userId);
    expect(answer.text).toMatch(/Daily digest on: every day at 08:30 Europe\/Berlin/);
  });

  it('filters an exhibitor list from its Filter… button, in place', async () => {
    // Prepare
    await bot.command('exhibitors 26855');
    await bot.idle();
    const card = structuredClone(bot.last());
    expect(card.visibleTo).toBe(ALICE.userId);

    // Act
    await bot.click(card, 'list.filter');
    const modal = bot.slack.modal(ALICE.userId);
    expect(modal?.view.callback_id).toBe('modal.filter');
    const since = bot.sim.requests().length;
    await bot.slack.submitView({
      user: ALICE.userId,
      values: { country: text('Germany'), industry: text('Fintech, Software') },
    });
    await bot.idle();

    // Assess
    const request = bot.sim
      .requests()
      .slice(since)
      .find((candidate) => candidate.path === '/external/exhibitors/list');
    expect(request?.query).toMatchObject({ event_id: '26855', country: 'Germany' });
    const filtered = bot.find((candidate) => candidate.ts === card.ts);
    expect(filtered.text).toContain('country:Germany');
    expect(filtered.warnings).toEqual([]);
  });

  it('opens Research from App Home, answering privately in the channel picked', async () => {
    // Prepare
    await bot.slack.openHome(BOB.userId);
    await bot.idle();
    const home = bot.slack.home(BOB.userId);
    if (!home) throw new Error('no Home published');
    const serviceCalls = bot.sim.requests().length;

    // Act
    await bot.slack.clickInView({ user: BOB.userId, viewId: home.id, actionId: 'open.research' });

    // Assess
    expect(bot.sim.requests()).toHaveLength(serviceCalls);
    expect(bot.slack.modal(BOB.userId)?.view.callback_id).toBe('modal.research');
    expect(fieldsOf(BOB.userId)).toMatchObject({
      company: 'plain_text_input',
      channel: 'conversations_select',
    });

    // Act
    await bot.slack.submitView({
      user: BOB.userId,
      values: {
        company: text('https://initech.example'),
        lookup: { value: { type: 'radio_buttons', selected_option: { value: 'similar' } } },
        channel: channel('C0OTHER'),
      },
    });
    await bot.idle();

    // Assess
    const answer = bot.last('C0OTHER');
    expect(answer.visibleTo).toBe(BOB.userId);
    expect(answer.text).toMatch(/Exhibitors like/);
    expect(buttonsOf(answer).map(({ button }) => button.action_id)).toContain('share.channel');
  });

  it('opens a channel’s digest settings from App Home’s Edit', async () => {
    // Prepare
    await bot.command('digest on 07:00 UTC keywords:expo', BOB);
    await bot.idle();
    await bot.slack.openHome(BOB.userId);
    await bot.idle();
    const home = bot.slack.home(BOB.userId);
    if (!home) throw new Error('no Home published');

    // Act
    await bot.slack.clickInView({ user: BOB.userId, viewId: home.id, actionId: 'open.digest' });

    // Assess
    const modal = bot.slack.modal(BOB.userId);
    expect(modal?.view.callback_id).toBe('modal.digest');
    const shown = JSON.stringify(modal?.view.blocks);
    expect(shown).toContain(CHANNEL);
    // The channel's digest as it stands: 07:00 UTC, keywords expo
    expect(shown).toContain('"initial_time":"07:00"');
    expect(shown).toContain('"initial_value":"expo"');
    expect(shown).toContain(
      '"initial_option":{"text":{"type":"plain_text","text":"UTC","emoji":true},"value":"UTC"}',
    );
    expect(modal?.warnings).toEqual([]);
  });
});
