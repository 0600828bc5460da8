import { describe, expect, it } from 'vitest';
import { slackSignature } from '../../../local/fake-slack/sign.ts';
import { createMemoryLogger } from '../../../src/platform/log.ts';
import type { SlackHttpEvent, SlackHttpHandler } from '../../../src/slack/app.ts';
import { slackHttpBoundary } from '../../../src/slack/http-boundary.ts';

const SECRET = 'unit-signing-secret-9d1e';
const NOW_S = 1_800_000_000;
const FORM = 'application/x-www-form-urlencoded';

/** A Function URL event as AWS delivers a form post: body base64-encoded. */
function slackEvent(
  body: string,
  options: { headers?: Record<string, string>; method?: string; ts?: number; secret?: string } = {},
): SlackHttpEvent {
  const ts = options.ts ?? NOW_S;
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/slack/events',
    rawQueryString: '',
    headers: {
      'content-type': FORM,
      'x-slack-request-timestamp': String(ts),
      'x-slack-signature': slackSignature(options.secret ?? SECRET, ts, body),
      ...options.headers,
    },
    body: Buffer.from(body).toString('base64'),
    isBase64Encoded: true,
    requestContext: { http: { method: options.method ?? 'POST' } },
  };
}

/** The boundary over a stand-in for Bolt that records what it was handed. */
function boundary(bolt: SlackHttpHandler = () => Promise.resolve({ statusCode: 200, body: 'from bolt' })) {
  const seen: SlackHttpEvent[] = [];
  const logger = createMemoryLogger();
  const handler = slackHttpBoundary(
    () =>
      Promise.resolve(async (event: SlackHttpEvent, context: unknown) => {
        seen.push(event);
        return bolt(event, context);
      }),
    { signingSecret: SECRET, logger, now: () => NOW_S * 1000 },
  );
  return { handler, seen, logger };
}

describe('the Slack HTTP boundary', () => {
  it('hands Bolt a correctly signed body decoded as UTF-8, with the bare media type', async () => {
    const { handler, seen } = boundary();
    const body = 'text=fit%2026855&user_name=j%C3%BCrgen&note=ünïcödé';

    const response = await handler(
      slackEvent(body, { headers: { 'content-type': `${FORM}; charset=utf-8` } }),
      {},
    );

    expect(response).toEqual({ statusCode: 200, body: 'from bolt' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ body, isBase64Encoded: false });
    expect(seen[0]?.headers['content-type']).toBe(FORM);
  });

  it('reads headers whatever their case (REST API events keep it)', async () => {
    const { handler, seen } = boundary();
    const signed = slackEvent('a=1');
    const headers = Object.fromEntries(
      Object.entries(signed.headers).map(([name, value]) => [
        name.replace(/\b\w/g, (c) => c.toUpperCase()),
        value,
      ]),
    );

    const response = await handler({ ...signed, headers }, {});

    expect(response.statusCode).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it.each([
    [
      'no signature headers',
      slackEvent('a=1', { headers: { 'x-slack-signature': '', 'x-slack-request-timestamp': '' } }),
    ],
    ['another secret', slackEvent('a=1', { secret: 'not-the-secret' })],
    ['a truncated signature', slackEvent('a=1', { headers: { 'x-slack-signature': 'v0=abc' } })],
    ['a body changed after signing', { ...slackEvent('a=1'), body: Buffer.from('a=2').toString('base64') }],
    ['a timestamp 301 s old', slackEvent('a=1', { ts: NOW_S - 301 })],
    ['a timestamp 301 s ahead', slackEvent('a=1', { ts: NOW_S + 301 })],
    [
      'a timestamp that is not a number',
      slackEvent('a=1', { headers: { 'x-slack-request-timestamp': '1e9' } }),
    ],
  ])('refuses %s with 401, never reaching Bolt', async (_case, event) => {
    const { handler, seen, logger } = boundary();

    const response = await handler(event, {});

    expect(response.statusCode).toBe(401);
    expect(response.body).toBe('Invalid signature');
    expect(seen).toEqual([]);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines.join('\n')).not.toContain(SECRET);
  });

  it('accepts a timestamp exactly five minutes old', async () => {
    const { handler, seen } = boundary();

    await handler(slackEvent('a=1', { ts: NOW_S - 300 }), {});

    expect(seen).toHaveLength(1);
  });

  it('hands Bolt a signed Events API retry, so an event whose first delivery died is not lost', async () => {
    const { handler, seen } = boundary();
    const body = JSON.stringify({
      type: 'event_callback',
      event_id: 'Ev0RETRY',
      event: { type: 'app_home_opened' },
    });

    const response = await handler(
      slackEvent(body, {
        headers: {
          'content-type': 'application/json',
          'x-slack-retry-num': '1',
          'x-slack-retry-reason': 'http_timeout',
        },
      }),
      {},
    );

    expect(response).toEqual({ statusCode: 200, body: 'from bolt' });
    expect(seen).toHaveLength(1);
  });

  it('answers a signed retry of a form post (a command or click) 200 with an empty body, without Bolt', async () => {
    const { handler, seen } = boundary();

    const response = await handler(
      slackEvent('a=1', { headers: { 'x-slack-retry-num': '2', 'x-slack-retry-reason': 'http_timeout' } }),
      {},
    );

    expect(response).toEqual({ statusCode: 200, body: '' });
    expect(seen).toEqual([]);
  });

  it('answers 400 when Bolt throws on a signed body, logging the error name but not the body', async () => {
    const { handler, logger } = boundary((event) =>
      Promise.resolve(event.body ?? '').then((body) => {
        JSON.parse(body);
        return { statusCode: 200, body: '' };
      }),
    );

    const response = await handler(
      slackEvent('{secret-looking-body', { headers: { 'content-type': 'application/json' } }),
      {},
    );

    expect(response.statusCode).toBe(400);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toContain('SyntaxError');
    expect(logger.lines[0]).not.toContain('secret-looking-body');
  });

  it("turns Bolt's 500 for a parsed body it cannot read (such as `null`) into 400", async () => {
    const { handler } = boundary(() => Promise.resolve({ statusCode: 500, body: 'Internal server error' }));

    const response = await handler(
      slackEvent('null', { headers: { 'content-type': 'application/json' } }),
      {},
    );

    expect(response).toMatchObject({ statusCode: 400, body: 'Malformed request body' });
  });

  it('answers 400 to a signed body of a media type Slack never sends, without Bolt', async () => {
    const { handler, seen } = boundary();

    const response = await handler(slackEvent('{}', { headers: { 'content-type': 'text/plain' } }), {});

    expect(response.statusCode).toBe(400);
    expect(seen).toEqual([]);
  });

  it('answers anything but POST with 405, without Bolt', async () => {
    const { handler, seen } = boundary();
    const v1Get = { ...slackEvent('a=1'), httpMethod: 'GET' } as unknown as SlackHttpEvent;

    const responses = [await handler(slackEvent('', { method: 'GET' }), {}), await handler(v1Get, {})];

    expect(responses.map((response) => response.statusCode)).toEqual([405, 405]);
    expect(seen).toEqual([]);
  });

  it('answers what `withoutBolt` answers, never loading Bolt, and only once the signature holds', async () => {
    const logger = createMemoryLogger();
    const offered: string[] = [];
    let boltLoads = 0;
    const handler = slackHttpBoundary(
      () => {
        boltLoads += 1;
        return Promise.resolve(() => Promise.resolve({ statusCode: 200, body: 'from bolt' }));
      },
      {
        signingSecret: SECRET,
        logger,
        now: () => NOW_S * 1000,
        withoutBolt: (mediaType, body) => {
          offered.push(`${mediaType} ${body}`);
          return Promise.resolve(
            body.startsWith('command=') ? { statusCode: 200, body: 'direct' } : undefined,
          );
        },
      },
    );

    const unsigned = await handler(slackEvent('command=%2Fevents', { secret: 'not-the-secret' }), {});
    const command = await handler(slackEvent('command=%2Fevents'), {});
    expect(boltLoads).toBe(0);
    const click = await handler(slackEvent('payload=%7B%7D'), {});

    expect([unsigned.statusCode, command.body, click.body]).toEqual([401, 'direct', 'from bolt']);
    expect(offered).toEqual([`${FORM} command=%2Fevents`, `${FORM} payload=%7B%7D`]);
    expect(boltLoads).toBe(1);
  });
});
