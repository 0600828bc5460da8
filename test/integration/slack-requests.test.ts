import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { slashCommandBody } from '../../src/local/slack/payloads.ts';
import { signedHeaders, slackSignature } from '../../src/local/slack/sign.ts';
import { ALICE, BOT_TOKEN, type Bot, SIGNING_SECRET, startBot, visibleText } from '../support/bot.ts';

const BIG_EVENT = '26855';

async function itemCount(bot: Bot): Promise<number> {
  const { client, tableName } = bot.table;
  const { Count } = await client.send(new ScanCommand({ TableName: tableName, Select: 'COUNT' }));
  return Count ?? 0;
}

describe('requests Slack did not sign', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  it('refuses a forged signature with 401, writing nothing and calling nothing', async () => {
    const body = slashCommandBody(
      ALICE,
      `unlock ${BIG_EVENT}`,
      bot.slack.responseUrl(ALICE.channelId, ALICE.userId),
    );
    const headers = signedHeaders('not-the-signing-secret', body);

    const response = await bot.post(body, headers);
    await bot.idle();

    expect(response.status).toBe(401);
    expect(await itemCount(bot)).toBe(0);
    expect(bot.sim.requests()).toEqual([]);
    expect(bot.slack.calls.filter((call) => call.method !== 'auth.test')).toEqual([]);
  });

  it('refuses a correctly signed request older than five minutes with 401', async () => {
    const body = slashCommandBody(
      ALICE,
      `unlock ${BIG_EVENT}`,
      bot.slack.responseUrl(ALICE.channelId, ALICE.userId),
    );
    const stale = Math.floor(Date.now() / 1000) - 6 * 60;
    const headers = {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(stale),
      'x-slack-signature': slackSignature(SIGNING_SECRET, stale, body),
    };

    const response = await bot.post(body, headers);
    await bot.idle();

    expect(response.status).toBe(401);
    expect(await itemCount(bot)).toBe(0);
    expect(bot.sim.requests()).toEqual([]);
  });
});

describe('any command text', () => {
  let bot: Bot;
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  beforeAll(async () => {
    bot = await startBot();
    process.on('unhandledRejection', onRejection);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onRejection);
    await bot.close();
  });
  afterEach(() => bot.sim.clearFaults());

  it('acks 200 random and hostile texts well inside 3 s, each with a useful answer', async () => {
    const texts = hostileTexts(200);

    const acks = [];
    for (const text of texts) acks.push(await bot.command(text));
    await bot.idle();

    for (const [index, ack] of acks.entries()) {
      expect(ack.status, texts[index]).toBe(200);
      expect(ack.ms, texts[index]).toBeLessThan(3000);
      const answer = ack.json as { text?: string } | undefined;
      expect(answer?.text?.trim().length ?? 0, texts[index]).toBeGreaterThan(10);
    }
    expect(rejections).toEqual([]);
    for (const message of bot.messages()) {
      expect(visibleText(message)).not.toMatch(/\n\s+at .+:\d+:\d+/);
      expect(message.warnings).toEqual([]);
    }
  });

  it('acks in milliseconds even when the service takes 2 s to answer', async () => {
    bot.sim.setLatency(2000);
    try {
      const ack = await bot.command(`fit ${BIG_EVENT}`);

      expect(ack.status).toBe(200);
      expect(ack.ms).toBeLessThan(1000);
      await bot.idle();
      expect(visibleText(bot.last())).toMatch(/\d\.\d \/ 10/);
    } finally {
      bot.sim.setLatency(0);
    }
  });

  it('never shows the service key, the bot token or the signing secret, in Slack or in the logs', async () => {
    bot.sim.injectFault({ kind: 'status', status: 500, times: 5 });
    await bot.command(`fit ${BIG_EVENT}`);
    await bot.command('credits');
    await bot.command(`unlock ${BIG_EVENT}`);
    await bot.idle();

    const everything = [
      ...bot.logger.lines,
      ...bot.messages().map(visibleText),
      ...bot.slack.calls.map((call) => JSON.stringify(call.args)),
    ].join('\n');
    expect(bot.logger.lines.length).toBeGreaterThan(0);
    for (const secret of [bot.apiKey, BOT_TOKEN, SIGNING_SECRET]) expect(everything).not.toContain(secret);
  });
});

/** Deterministic mix of the texts users (and attackers) type. */
function hostileTexts(count: number): string[] {
  const fixed = [
    '',
    ' ',
    'x'.repeat(5000),
    '<!channel> fit 1',
    '<!here>',
    '*bold* _italic_ `code` ```block```',
    'fit',
    'fit <script>alert(1)</script>',
    'unlock ../../etc/passwd',
    'emails 1 2 three',
    'search from:2027-13-45',
    'search country:',
    'digest on 25:00',
    'digest on 09:00 Not/AZone',
    'who',
    `who ${'n'.repeat(300)}`,
    'people 26855 ' + 'ü'.repeat(400),
    'similar',
    'person-events abc',
    '🎉🎉🎉',
    'FIT 26855',
    'help me',
    'show 26855 26856',
    '\u0000\u0001\u0002',
    'phones ' + Array.from({ length: 150 }, (_, i) => 100001 + i).join(' '),
    'search "unterminated',
    'exhibitors %27%20OR%201%3D1',
    'recommend ; DROP TABLE events',
  ];
  const words = [
    'fit',
    'show',
    'unlock',
    'search',
    'who',
    'emails',
    'people',
    'spend',
    'zzz',
    'digest',
    'credits',
    'help',
  ];
  const noise = [
    '26855',
    '!',
    '<@U1>',
    'ñ',
    '∑',
    ' ',
    'country:France',
    'from:2027-01-01',
    '&amp;',
    '"',
    'x'.repeat(120),
  ];
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const texts = [...fixed];
  while (texts.length < count) {
    const parts = [words[next(words.length)] ?? 'help'];
    for (let i = next(4); i > 0; i--) parts.push(noise[next(noise.length)] ?? '');
    texts.push(parts.join(' '));
  }
  return texts;
}
