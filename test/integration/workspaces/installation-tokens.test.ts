import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createLocalKeyCipher } from '../../../src/platform/config/key-cipher.ts';
import { type FakeSlack, startFakeSlack } from '../../../local/fake-slack/fake-slack.ts';
import type { Logger } from '../../../src/platform/log.ts';
import { createInstallationTokens, SlackTokenRefreshError } from '../../../src/slack/installation-tokens.ts';
import { installationKey } from '../../../src/store/installations.ts';
import { createStore, type Store } from '../../../src/store/index.ts';
import { createDocumentClient } from '../../../src/store/table.ts';
import { createTestStore } from '../../support/store-support.ts';

const CLIENT_SECRET = 'test-client-secret-4f9a1c';
const TWELVE_HOURS = 12 * 3600;
const team = { teamId: 'T0ACME', enterpriseId: undefined, isEnterpriseInstall: false };

/** Records every line with its fields as given (no redaction), to check nothing secret is logged. */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const record = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    lines.push(JSON.stringify({ level, message, ...fields }));
  const logger: Logger & { lines: string[] } = {
    lines,
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    child: () => logger,
    addLambdaContext: () => undefined,
  };
  return logger;
}

const InstallAnswer = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number(),
  bot_user_id: z.string(),
});

/** Installs the app for T0ACME on the fake Slack with rotating tokens, as the OAuth redirect would. */
async function installRotating(slack: FakeSlack, store: Store, now: Date) {
  const code = slack.oauth.authorize({ teamId: team.teamId, expiresInSeconds: TWELVE_HOURS });
  const answer = InstallAnswer.parse(
    await new WebClient(undefined, { slackApiUrl: slack.apiUrl }).oauth.v2.access({
      client_id: slack.oauth.clientId,
      client_secret: CLIENT_SECRET,
      code,
    }),
  );
  await store.installations.storeInstallation({
    team: { id: team.teamId },
    enterprise: undefined,
    user: { id: 'U0ALICE', token: undefined, scopes: undefined },
    bot: {
      token: answer.access_token,
      refreshToken: answer.refresh_token,
      expiresAt: Math.floor(now.getTime() / 1000) + answer.expires_in,
      scopes: ['commands'],
      id: 'BBOT',
      userId: answer.bot_user_id,
    },
    isEnterpriseInstall: false,
    authVersion: 'v2',
  });
  return answer;
}

describe('installation tokens (token rotation)', () => {
  let slack: FakeSlack;

  beforeEach(async () => {
    slack = await startFakeSlack({ oauth: { clientSecret: CLIENT_SECRET } });
  });
  afterEach(() => slack.close());

  // Tokens are stored encrypted, as a distributed app stores them: rotation must work over ciphertexts.
  const keyCipher = createLocalKeyCipher(randomBytes(32));

  async function setup() {
    const test = await createTestStore();
    /** Another instance's store: its own client and its own decrypted-token cache, the same table and key. */
    const storeOf = () =>
      createStore({
        client: createDocumentClient({ endpoint: test.endpoint }),
        tableName: test.tableName,
        now: test.clock.now,
        keyCipher,
      });
    const store = storeOf();
    const installed = await installRotating(slack, store, test.clock.now());
    const logger = recordingLogger();
    const tokensOf = (store: Store) =>
      createInstallationTokens({
        installations: store.installations,
        clientId: slack.oauth.clientId,
        clientSecret: CLIENT_SECRET,
        slackApiUrl: slack.apiUrl,
        now: test.clock.now,
        logger,
      });
    return { ...test, store, storeOf, installed, logger, tokensOf };
  }

  it('hands out the stored token while it is not due, without calling Slack', async () => {
    const { store, installed, tokensOf } = await setup();

    const token = await tokensOf(store).botToken(team);

    expect(token).toBe(installed.access_token);
    expect(slack.oauth.refreshCount()).toBe(0);
  });

  it('refreshes an expired token once under 10 concurrent requests, and all get the new token', async () => {
    const { store, client, tableName, clock, installed, tokensOf } = await setup();
    clock.advanceSeconds(TWELVE_HOURS + 60);
    slack.failNext('oauth.v2.access', 'slow:200');
    const tokens = tokensOf(store);

    const got = await Promise.all(Array.from({ length: 10 }, () => tokens.botToken(team)));

    expect(slack.oauth.refreshCount()).toBe(1);
    expect(new Set(got).size).toBe(1);
    expect(got[0]).not.toBe(installed.access_token);
    expect(slack.oauth.isIssued(got[0] ?? '')).toBe(true);
    const stored = await store.installations.fetchInstallation(team);
    expect(stored.bot?.token).toBe(got[0]);
    expect(stored.bot?.expiresAt).toBe(Math.floor(clock.now().getTime() / 1000) + TWELVE_HOURS);
    const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: installationKey(team) }));
    expect(JSON.stringify(Item)).not.toContain(got[0]);
    expect(JSON.stringify(Item)).not.toContain(stored.bot?.refreshToken);
  });

  it('refreshes once across two instances that share nothing but the table', async () => {
    const { storeOf, clock, installed, tokensOf } = await setup();
    clock.advanceSeconds(TWELVE_HOURS + 60);
    slack.failNext('oauth.v2.access', 'slow:300');
    const instance = () => tokensOf(storeOf());
    const [one, two] = [instance(), instance()];

    const got = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? one : two).botToken(team)),
    );

    expect(slack.oauth.refreshCount()).toBe(1);
    expect(new Set(got).size).toBe(1);
    expect(got[0]).not.toBe(installed.access_token);
  });

  it('keeps using a still-valid token while another instance holds the refresh', async () => {
    const { store, clock, installed, tokensOf } = await setup();
    clock.advanceSeconds(TWELVE_HOURS - 300);
    await store.installations.claimRefresh(team, {
      refreshToken: installed.refresh_token,
      owner: 'other-instance',
      leaseSeconds: 30,
    });

    const token = await tokensOf(store).botToken(team);

    expect(token).toBe(installed.access_token);
    expect(slack.oauth.refreshCount()).toBe(0);
  });

  it('takes over the refresh when the instance holding it never finished', async () => {
    const { store, clock, installed, tokensOf } = await setup();
    clock.advanceSeconds(TWELVE_HOURS + 60);
    await store.installations.claimRefresh(team, {
      refreshToken: installed.refresh_token,
      owner: 'crashed-instance',
      leaseSeconds: 30,
    });
    clock.advanceSeconds(31);

    const token = await tokensOf(store).botToken(team);

    expect(token).not.toBe(installed.access_token);
    expect(slack.oauth.refreshCount()).toBe(1);
  });

  it('reports a failed refresh without a token or the client secret, and lets the next request retry', async () => {
    const { store, clock, installed, logger, tokensOf } = await setup();
    clock.advanceSeconds(TWELVE_HOURS + 60);
    slack.failNext('oauth.v2.access', 'invalid_refresh_token');
    const tokens = tokensOf(store);

    const failure = await tokens.botToken(team).catch((error: unknown) => error);
    const retried = await tokens.botToken(team);

    expect(failure).toBeInstanceOf(SlackTokenRefreshError);
    expect(String(failure)).toContain('invalid_refresh_token');
    expect(retried).not.toBe(installed.access_token);
    const told = [
      inspect(failure, { depth: 10 }),
      JSON.stringify(failure),
      (failure as SlackTokenRefreshError).userMessage,
      ...logger.lines,
    ].join('\n');
    for (const secret of [CLIENT_SECRET, installed.access_token, installed.refresh_token, retried])
      expect(told).not.toContain(secret);
    expect(logger.lines.some((line) => line.includes('Slack bot token refreshed'))).toBe(true);
  });

  it('reports an unreachable Slack without the request it sent', async () => {
    const { store, installed, clock, logger } = await setup();
    clock.advanceSeconds(TWELVE_HOURS + 60);
    const tokens = createInstallationTokens({
      installations: store.installations,
      clientId: slack.oauth.clientId,
      clientSecret: CLIENT_SECRET,
      slackApiUrl: 'http://127.0.0.1:9/api/',
      now: clock.now,
      logger,
    });

    const failure = await tokens.botToken(team).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(SlackTokenRefreshError);
    const told = [inspect(failure, { depth: 10 }), ...logger.lines].join('\n');
    for (const secret of [CLIENT_SECRET, installed.access_token, installed.refresh_token])
      expect(told).not.toContain(secret);
  });

  it("answers Bolt's authorize with the bot's identity", async () => {
    const { store, installed, tokensOf } = await setup();

    const result = await tokensOf(store).authorize(team);

    expect(result).toEqual({
      botToken: installed.access_token,
      botId: 'BBOT',
      botUserId: installed.bot_user_id,
      teamId: team.teamId,
    });
  });
});
