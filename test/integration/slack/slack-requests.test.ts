import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../local/fake-slack/fake-slack.ts';
import { type Actor, slashCommandBody } from '../../../local/fake-slack/payloads.ts';
import { signedHeaders, slackSignature } from '../../../local/fake-slack/sign.ts';
import { OTHER_WORKSPACE_TEXT } from '../../../src/slack/app.ts';
import { ACTION_IDS } from '../../../src/slack/views/action-ids.ts';
import {
  ALICE,
  BOT_TOKEN,
  type Bot,
  CHANNEL,
  SIGNING_SECRET,
  startBot,
  visibleText,
} from '../../support/bot.ts';

const BIG_EVENT = '26855';

async function itemCount(bot: Bot): Promise<number> {
  const { client, tableName } = bot.table;
  const { Count } = await client.send(new ScanCommand({ TableName: tableName, Select: 'COUNT' }));
  return Count ?? 0;
}

/** Nothing happened: no item written, no service call, nothing sent to Slack, nothing dispatched. */
async function expectNothingDone(bot: Bot) {
  await bot.idle();
  expect(await itemCount(bot)).toBe(0);
  expect(bot.sim.requests()).toEqual([]);
  expect(bot.slack.calls.filter((call) => call.method !== 'auth.test')).toEqual([]);
  expect(bot.logger.lines.filter((line) => line.includes('command dispatched'))).toEqual([]);
}

/** Neither secret in any log line or in the given response bodies. */
function expectNoSecrets(bot: Bot, bodies: string[]) {
  const everything = [...bot.logger.lines, ...bodies].join('\n');
  for (const secret of [SIGNING_SECRET, BOT_TOKEN]) expect(everything).not.toContain(secret);
}

/** What a malformed body can look like: a broken form payload, plain text, broken JSON. */
const MALFORMED = [
  { 'content-type': 'application/x-www-form-urlencoded', body: 'payload=%7Bnot-json' },
  { 'content-type': 'text/plain', body: 'not-json at all' },
  { 'content-type': 'application/json', body: '{not-json' },
];

const OTHER_TEAM: Actor = { ...ALICE, teamId: 'T0OTHER', userId: 'U0MALLORY' };

/** A message with one Unlock button, as the fit card shows it (clicking it as a served user starts an unlock). */
const unlockCard: SlackMessage = {
  channel: CHANNEL,
  ts: '1700000000.000100',
  text: 'Fit card',
  user: 'UBOT',
  warnings: [],
  blocks: [
    {
      type: 'actions',
      block_id: 'fit-actions',
      elements: [
        {
          type: 'button',
          action_id: ACTION_IDS.fitUnlock,
          value: JSON.stringify({ eventId: BIG_EVENT }),
          text: { type: 'plain_text', text: 'Unlock' },
        },
      ],
    },
  ],
};

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

  it('refuses unsigned and badly signed malformed bodies with 401, never a 5xx', async () => {
    const bodies: string[] = [];
    for (const { body, ...contentType } of MALFORMED) {
      const stamp = String(Math.floor(Date.now() / 1000));
      for (const headers of [
        contentType,
        { ...contentType, 'x-slack-request-timestamp': stamp, 'x-slack-signature': 'v0=deadbeef' },
        { ...signedHeaders('not-the-signing-secret', body), ...contentType },
      ]) {
        const response = await bot.post(body, headers);

        expect(response.status, `${contentType['content-type']} ${JSON.stringify(headers)}`).toBe(401);
        expect(response.body.length).toBeLessThan(40);
        bodies.push(response.body);
      }
    }

    await expectNothingDone(bot);
    expectNoSecrets(bot, bodies);
  });

  it('refuses a request signed with a timestamp more than five minutes ahead with 401', async () => {
    const body = slashCommandBody(ALICE, 'credits', bot.slack.responseUrl(ALICE.channelId, ALICE.userId));
    const ahead = Math.floor(Date.now() / 1000) + 6 * 60;

    const response = await bot.post(body, signedHeaders(SIGNING_SECRET, body, ahead));

    expect(response.status).toBe(401);
    await expectNothingDone(bot);
  });

  it('answers a GET (no OAuth routes here) with 405, running nothing', async () => {
    const response = await fetch(`${bot.url}/slack/install`);

    expect(response.status).toBe(405);
    await expectNothingDone(bot);
  });
});

describe('signed requests the bot cannot read', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  it('answers each correctly signed malformed body with 400 and one log line without the body', async () => {
    const bodies: string[] = [];
    const parsedButUnreadable = [
      { 'content-type': 'application/json', body: 'null' },
      { 'content-type': 'application/x-www-form-urlencoded', body: 'payload=null' },
    ];
    for (const { body, ...contentType } of [...MALFORMED, ...parsedButUnreadable]) {
      const logged = bot.logger.lines.length;

      const response = await bot.post(body, { ...signedHeaders(SIGNING_SECRET, body), ...contentType });

      expect(response.status, body).toBe(400);
      const lines = bot.logger.lines.slice(logged);
      expect(lines, body).toHaveLength(1);
      expect(lines[0]).not.toContain(body);
      expect(lines[0]).not.toContain('not-json');
      bodies.push(response.body);
    }

    await expectNothingDone(bot);
    expectNoSecrets(bot, bodies);
  });

  it('serves a signed form body whose content type carries a charset', async () => {
    const body = slashCommandBody(ALICE, 'help', bot.slack.responseUrl(ALICE.channelId, ALICE.userId));
    const headers = {
      ...signedHeaders(SIGNING_SECRET, body),
      'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
    };

    const response = await bot.post(body, headers);

    expect(response.status).toBe(200);
    expect((response.json as { text?: string } | undefined)?.text).toMatch(/\/events/);
  });
});

describe('Slack retries', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  it('answers a signed retry 200 at once with an empty body and does no new work', async () => {
    const body = slashCommandBody(
      ALICE,
      `unlock ${BIG_EVENT}`,
      bot.slack.responseUrl(ALICE.channelId, ALICE.userId),
    );
    const headers = {
      ...signedHeaders(SIGNING_SECRET, body),
      'x-slack-retry-num': '1',
      'x-slack-retry-reason': 'http_timeout',
    };

    const response = await bot.post(body, headers);

    expect(response.status).toBe(200);
    expect(response.body).toBe('');
    await expectNothingDone(bot);
    expect(bot.messages()).toEqual([]);
  });
});

describe('requests from another workspace', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot();
  });
  afterAll(() => bot.close());

  it('refuses a correctly signed slash command with an ephemeral notice, doing nothing', async () => {
    const response = await bot.command(`unlock ${BIG_EVENT}`, OTHER_TEAM);

    expect(response.status).toBe(200);
    expect(response.json).toEqual({ response_type: 'ephemeral', text: OTHER_WORKSPACE_TEXT });
    await expectNothingDone(bot);
    const warnings = bot.logger.lines.filter((line) =>
      line.includes('refused a request from another workspace'),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('T0OTHER');
    expectNoSecrets(bot, [response.body]);
  });

  it('refuses a correctly signed button click, telling only the clicker', async () => {
    const response = await bot.click(unlockCard, ACTION_IDS.fitUnlock, OTHER_TEAM);
    await bot.idle();

    expect(response.status).toBe(200);
    expect(await itemCount(bot)).toBe(0);
    expect(bot.sim.requests()).toEqual([]);
    expect(bot.slack.calls.map((call) => call.method).filter((method) => method !== 'auth.test')).toEqual([
      'response_url',
    ]);
    expect(bot.messages().filter((message) => !message.visibleTo)).toEqual([]);
    expect(bot.messages().at(-1)).toMatchObject({ text: OTHER_WORKSPACE_TEXT, visibleTo: OTHER_TEAM.userId });
    expectNoSecrets(bot, [response.body]);
  });

  it('serves the same click from the installed workspace (the refusal above is not the button failing)', async () => {
    const response = await bot.click(unlockCard, ACTION_IDS.fitUnlock, ALICE);
    await bot.idle();

    expect(response.status).toBe(200);
    expect(
      bot.logger.lines.some(
        (line) => line.includes('refused a request from another workspace') && line.includes(ALICE.teamId),
      ),
    ).toBe(false);
    expect(bot.sim.requests().length + (await itemCount(bot))).toBeGreaterThan(0);
  });
});

describe('without SLACK_TEAM_ID', () => {
  let bot: Bot;
  beforeAll(async () => {
    bot = await startBot({ slackTeamId: null });
  });
  afterAll(() => bot.close());

  it("serves only the bot token's own workspace, as auth.test names it", async () => {
    const local: Actor = { ...ALICE, teamId: 'T0LOCAL' };

    const served = await bot.command('help', local);
    const refused = await bot.command('help', ALICE);

    expect((served.json as { text?: string } | undefined)?.text).not.toBe(OTHER_WORKSPACE_TEXT);
    expect(served.json).toMatchObject({ response_type: 'ephemeral' });
    expect(refused.json).toEqual({ response_type: 'ephemeral', text: OTHER_WORKSPACE_TEXT });
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

  // How fast the acks are is the bench's to measure (docs/performance.md): a loaded machine is slow.
  it('acks 200 random and hostile texts, each with a useful answer', async () => {
    const texts = hostileTexts(200);

    const acks = [];
    for (const text of texts) acks.push(await bot.command(text));
    await bot.idle();

    for (const [index, ack] of acks.entries()) {
      expect(ack.status, texts[index]).toBe(200);
      const answer = ack.json as { text?: string } | undefined;
      expect(answer?.text?.trim().length ?? 0, texts[index]).toBeGreaterThan(10);
    }
    expect(rejections).toEqual([]);
    for (const message of bot.messages()) {
      expect(visibleText(message)).not.toMatch(/\n\s+at .+:\d+:\d+/);
      expect(message.warnings).toEqual([]);
    }
  });

  it('acks before the service answers, however slow the service is', async () => {
    // The ack must come sooner than the service's answer: only a machine slower than 5 s per ack fails.
    const serviceMs = 5000;
    bot.sim.setLatency(serviceMs);
    try {
      const ack = await bot.command(`fit ${BIG_EVENT}`);

      expect(ack.status).toBe(200);
      expect(ack.ms).toBeLessThan(serviceMs);
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
