import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedHeaders } from '../../../local/fake-slack/sign.ts';
import { ALICE, BOB, type Bot, SIGNING_SECRET, startBot } from '../../support/bot.ts';

const publishesFor = (bot: Bot, userId: string) =>
  bot.slack.calls.filter((call) => call.method === 'views.publish' && call.args.user_id === userId);

const homeText = (bot: Bot, userId: string) => JSON.stringify(bot.slack.home(userId)?.view ?? null);

describe('the Events API, through the Slack handler', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot({ balance: 20_000 });
  });
  afterAll(() => bot.close());

  it('answers url_verification with its challenge when signed', async () => {
    const body = JSON.stringify({
      token: 'deprecated',
      challenge: 'challenge-3f9a1c',
      type: 'url_verification',
    });

    const answer = await bot.post(body, {
      ...signedHeaders(SIGNING_SECRET, body),
      'content-type': 'application/json',
    });

    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ challenge: 'challenge-3f9a1c' });
  });

  it('refuses an unsigned url_verification', async () => {
    const body = JSON.stringify({ challenge: 'nope', type: 'url_verification' });

    const answer = await bot.post(body, { 'content-type': 'application/json' });

    expect(answer.status).toBe(401);
    expect(answer.body).not.toContain('nope');
  });

  it('publishes the Home once when app_home_opened is delivered twice (the second as a retry)', async () => {
    const first = await bot.slack.sendEvent(
      { type: 'app_home_opened', user: ALICE.userId, channel: `D${ALICE.userId}`, tab: 'home' },
      { eventId: 'Ev0HOMEONCE' },
    );
    await bot.idle();
    const retry = await bot.slack.sendEvent(
      { type: 'app_home_opened', user: ALICE.userId, channel: `D${ALICE.userId}`, tab: 'home' },
      { eventId: 'Ev0HOMEONCE', retryNum: 1 },
    );
    await bot.idle();

    expect([first.status, retry.status]).toEqual([200, 200]);
    expect(publishesFor(bot, ALICE.userId)).toHaveLength(1);
    expect(homeText(bot, ALICE.userId)).toContain('20,000');
    // Stopped at the door (the event id), not only by the worker's job id.
    expect(bot.logger.lines.filter((line) => line.includes('event delivered again'))).toHaveLength(1);
  });

  it('does the work of a retry whose first delivery never arrived', async () => {
    const retry = await bot.slack.sendEvent(
      { type: 'app_home_opened', user: BOB.userId, channel: `D${BOB.userId}`, tab: 'home' },
      { eventId: 'Ev0FIRSTLOST', retryNum: 2 },
    );
    await bot.idle();

    expect(retry.status).toBe(200);
    expect(publishesFor(bot, BOB.userId)).toHaveLength(1);
    expect(homeText(bot, BOB.userId)).toContain('Credit balance');
  });

  it('publishes nothing for the Messages tab', async () => {
    const before = bot.slack.calls.length;

    await bot.slack.sendEvent({
      type: 'app_home_opened',
      user: 'U0CAROL',
      channel: 'DU0CAROL',
      tab: 'messages',
    });
    await bot.idle();

    expect(bot.slack.calls.slice(before).filter((call) => call.method === 'views.publish')).toEqual([]);
  });
});
