import { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../../../../local/fake-slack/fake-slack.ts';

describe("the fake Slack's OAuth", () => {
  let slack: FakeSlack;
  let client: WebClient;

  beforeEach(async () => {
    slack = await startFakeSlack({ oauth: { clientSecret: 'test-secret' } });
    client = new WebClient(undefined, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  });
  afterEach(() => slack.close());

  const exchange = (code: string, secret = 'test-secret') =>
    client.oauth.v2.access({ client_id: slack.oauth.clientId, client_secret: secret, code });

  it('answers an approved install once with a bot token for the team, which auth.test then names', async () => {
    const code = slack.oauth.authorize({ teamId: 'T0ACME', teamName: 'Acme' });

    const answer = await exchange(code);
    const who = await new WebClient(answer.access_token, { slackApiUrl: slack.apiUrl }).auth.test();

    expect(answer).toMatchObject({ ok: true, team: { id: 'T0ACME', name: 'Acme' }, token_type: 'bot' });
    expect(answer.refresh_token).toBeUndefined();
    expect(who).toMatchObject({ team_id: 'T0ACME', bot_id: 'BBOT' });
    await expect(exchange(code)).rejects.toMatchObject({ data: { error: 'invalid_code' } });
  });

  it('refuses a wrong client secret', async () => {
    const code = slack.oauth.authorize({ teamId: 'T0ACME' });

    await expect(exchange(code, 'wrong')).rejects.toMatchObject({ data: { error: 'bad_client_secret' } });
  });

  it('answers an org-wide install by enterprise', async () => {
    const code = slack.oauth.authorize({
      teamId: 'T0ACME',
      enterpriseId: 'E0ORG',
      isEnterpriseInstall: true,
    });

    const answer = await exchange(code);

    expect(answer).toMatchObject({ team: null, enterprise: { id: 'E0ORG' }, is_enterprise_install: true });
  });

  it('trades a rotating refresh token once for a new token and refresh token, and counts it', async () => {
    const code = slack.oauth.authorize({ teamId: 'T0ACME', expiresInSeconds: 43_200 });
    const installed = await exchange(code);
    const refresh = (refreshToken: string | undefined) =>
      client.oauth.v2.access({
        client_id: slack.oauth.clientId,
        client_secret: 'test-secret',
        grant_type: 'refresh_token',
        ...(refreshToken ? { refresh_token: refreshToken } : {}),
      });

    const refreshed = await refresh(installed.refresh_token);

    expect(installed.expires_in).toBe(43_200);
    expect(installed.refresh_token).toMatch(/^xoxe-/);
    expect(refreshed.access_token).not.toBe(installed.access_token);
    expect(refreshed.refresh_token).not.toBe(installed.refresh_token);
    expect(slack.oauth.refreshCount()).toBe(1);
    await expect(refresh(installed.refresh_token)).rejects.toMatchObject({
      data: { error: 'invalid_refresh_token' },
    });
    expect(slack.oauth.refreshCount()).toBe(1);
  });

  it('redirects the consent page back to the app with a code and the state', async () => {
    const url = new URL(`${slack.url}/oauth/v2/authorize`);
    url.search = new URLSearchParams({
      client_id: slack.oauth.clientId,
      scope: 'commands',
      state: 'st-1',
      team: 'T0ACME',
      redirect_uri: 'http://app.local/slack/oauth_redirect',
    }).toString();

    const response = await fetch(url, { redirect: 'manual' });
    const back = new URL(response.headers.get('location') ?? '');
    const answer = await exchange(back.searchParams.get('code') ?? '');

    expect(response.status).toBe(302);
    expect(back.searchParams.get('state')).toBe('st-1');
    expect(answer.team).toEqual({ id: 'T0ACME', name: 'T0ACME' });
  });
});
