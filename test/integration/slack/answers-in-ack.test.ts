import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addShow, PLAN_LIMITS } from '../../../src/domain/plan/index.ts';
import type { PlanShow } from '../../../src/domain/ports/index.ts';
import { ALICE, type Bot, CHANNEL, startBot, visibleText } from '../../support/bot.ts';

/*
 * Issue 35, item 3: what needs no service is answered in the command's HTTP ack (the answer Slack shows
 * at once), and no job runs for it; what needs the service reads in parallel.
 */

const ELSEWHERE = 'T0ELSEWHERE';

const show = (eventId: string, name: string | null = `Show ${eventId}`): PlanShow => ({
  eventId,
  name,
  dateStart: null,
  dateEnd: null,
  city: null,
  addedBy: 'U0SOMEONE',
  addedAt: new Date().toISOString(),
});

describe('answers that need no service', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  /** The command's ack text, and what happened after it: messages, service requests, Slack calls. */
  async function acked(text: string, channelId = CHANNEL) {
    const before = { messages: bot.messages(channelId).length, service: bot.sim.requests().length };
    // Who the bot is (`auth.test`, once per cold start) is no answer's doing.
    const answerCalls = () => bot.slack.calls.filter((call) => call.method !== 'auth.test').length;
    const slackCalls = answerCalls();
    const ack = await bot.command(text, { ...ALICE, channelId });
    await bot.idle();
    expect(ack.status).toBe(200);
    return {
      text: JSON.stringify(ack.json),
      /** Messages the command left in the channel (the ack is one, recorded as Slack shows it). */
      messages: bot.messages(channelId).slice(before.messages),
      serviceRequests: bot.sim.requests().length - before.service,
      slackCalls: answerCalls() - slackCalls,
    };
  }

  const plan = (teamId: string, channelId: string, ...shows: PlanShow[]) =>
    bot.store.plans.update(teamId, channelId, (current) => ({
      next: { ...current, shows: [...current.shows, ...shows] },
      result: null,
    }));

  it('answers a usage error and an unknown word in the ack; nothing else happens', async () => {
    const missing = await acked('show');
    const unknown = await acked('shwo 26855');

    expect(missing.text).toContain('The event id is missing');
    expect(unknown.text).toContain('is not an /events command');
    for (const answer of [missing, unknown]) {
      expect(answer.messages).toHaveLength(1);
      expect(answer.serviceRequests).toBe(0);
      expect(answer.slackCalls).toBe(0);
    }
  });

  it('answers `plan add` of a show already on the plan in the ack, without asking the service', async () => {
    const channel = 'C0ALREADY';
    await plan(ALICE.teamId, channel, show('26855', 'Hannover <!channel> Messe'));

    const answer = await acked('plan add 26855', channel);

    expect(answer.text).toContain('is already on this channel’s plan');
    expect(answer.text).toContain('Hannover &lt;!channel&gt; Messe');
    expect(answer.text).not.toContain('Working on');
    expect(answer.messages).toHaveLength(1);
    expect(answer.serviceRequests).toBe(0);
    expect(answer.slackCalls).toBe(0);
    expect((await bot.store.plans.get(ALICE.teamId, channel))?.shows.map((s) => s.eventId)).toEqual([
      '26855',
    ]);
  });

  it('refuses `plan add` to a full plan in the ack, and leaves the plan as it was', async () => {
    const channel = 'C0FULL';
    const full = Array.from({ length: PLAN_LIMITS.shows }, (_, i) => show(String(900_000 + i)));
    await plan(ALICE.teamId, channel, ...full);

    const answer = await acked('plan add 26855', channel);

    expect(answer.text).toContain(`already has ${PLAN_LIMITS.shows} shows, the most it holds`);
    expect(answer.serviceRequests).toBe(0);
    expect(answer.messages).toHaveLength(1);
    expect((await bot.store.plans.get(ALICE.teamId, channel))?.shows).toHaveLength(PLAN_LIMITS.shows);
  });

  it('reads only its own workspace’s plan: a show on another workspace’s plan of the same channel id is added here', async () => {
    const channel = 'C0SHARED';
    await plan(ELSEWHERE, channel, show('26855', 'Elsewhere Expo'));

    const answer = await acked('plan add 26855', channel);

    expect(answer.text).toContain('Working on /events plan add 26855');
    expect(visibleText(bot.last(channel))).toContain('Added *');
    expect((await bot.store.plans.get(ALICE.teamId, channel))?.shows.map((s) => s.eventId)).toEqual([
      '26855',
    ]);
  });

  it('leaves a show not on the plan to the worker, which adds it once', async () => {
    const channel = 'C0NEWSHOW';
    await bot.store.plans.update(ALICE.teamId, channel, (current) => addShow(current, show('27317')));

    const answer = await acked('plan add 26855', channel);

    expect(answer.text).toContain('Working on /events plan add 26855');
    expect(answer.serviceRequests).toBeGreaterThan(0);
    expect(visibleText(bot.last(channel))).toContain('Added *');
    expect((await bot.store.plans.get(ALICE.teamId, channel))?.shows.map((s) => s.eventId)).toEqual([
      '27317',
      '26855',
    ]);
  });
});

describe('answers that need the service read in parallel', () => {
  let bot: Bot;
  // Slow enough that reads made one after another never overlap, and that the store's reads between
  // them fit in one; a bot each, so the simulator's peak of requests in flight at once is this answer's.
  beforeEach(async () => {
    bot = await startBot({ latencyMs: 400 });
  });
  afterEach(() => bot.close());

  it('the unlock card names the show while the price and balance are read, all at once', async () => {
    await bot.command('unlock 26855');
    await bot.idle();

    const card = bot.last();
    expect(visibleText(card)).toContain('confirm.yes');
    expect(visibleText(card)).toContain(bot.sim.events.find((e) => e.eventId === '26855')?.name ?? '?');
    // The show's detail, the precheck and the balance were in flight together.
    expect(bot.sim.requests()).toHaveLength(3);
    expect(bot.sim.maxInFlight(bot.apiKey)).toBe(3);
  });

  it('a second unlock card of a show names it from the day’s names: only its price and balance are asked', async () => {
    const name = bot.sim.events.find((e) => e.eventId === '26855')?.name ?? '?';
    for (const user of ['U0ALICE', 'U0BOB']) {
      await bot.command('unlock 26855', { ...ALICE, userId: user });
      await bot.idle();
      expect(visibleText(bot.last())).toContain(name);
    }

    const asked = bot.sim.requests().map((request) => `${request.method} ${request.path}`);
    expect(asked.filter((request) => request === 'GET /external/events/26855')).toHaveLength(1);
    expect(asked.filter((request) => request === 'POST /external/actions/precheck')).toHaveLength(2);
  });

  it('`plan add` reads the show and the plan card’s reads (both shows, the balance) at once, each once', async () => {
    const channel = 'C0PARALLEL';
    await bot.store.plans.update(ALICE.teamId, channel, (current) => addShow(current, show('27317')));

    await bot.command('plan add 26855', { ...ALICE, channelId: channel });
    await bot.idle();

    expect(visibleText(bot.last(channel))).toContain('Added *');
    const asked = bot.sim
      .requests()
      .map((request) => `${request.method} ${request.path} ${JSON.stringify(request.body ?? '')}`);
    expect(new Set(asked).size).toBe(asked.length);
    // Every read of the answer was in flight at the same time: one round trip.
    expect(bot.sim.maxInFlight(bot.apiKey)).toBe(asked.length);
  });
});
