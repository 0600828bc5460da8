import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InstallProvider, LogLevel } from '@slack/oauth';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../../../local/fake-slack/fake-slack.ts';
import { slackInstallationStore, slackStateStore } from '../../../src/slack/oauth-stores.ts';
import { createTestStore } from '../../support/store-support.ts';

const CLIENT_SECRET = 'test-client-secret-77b2';

/**
 * The whole install through `@slack/oauth`'s `InstallProvider` with the table's stores: the install
 * page, the fake Slack's consent step and `oauth.v2.access`, the redirect back with the state.
 */
describe('installing the app through InstallProvider', () => {
  let slack: FakeSlack;
  let server: Server;

  afterEach(async () => {
    await slack.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('stores the workspace install with its rotating bot token, and refuses a replayed redirect', async () => {
    slack = await startFakeSlack({
      oauth: { clientSecret: CLIENT_SECRET, tokenLifetimeSeconds: 43_200 },
    });
    const { store } = await createTestStore();
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const installer = new InstallProvider({
      clientId: slack.oauth.clientId,
      clientSecret: CLIENT_SECRET,
      stateStore: slackStateStore(store.oauthStates),
      installationStore: slackInstallationStore(store.installations),
      installUrlOptions: {
        scopes: ['commands', 'chat:write'],
        teamId: 'T0ACME',
        redirectUri: `${appUrl}/slack/oauth_redirect`,
      },
      authorizationUrl: `${slack.url}/oauth/v2/authorize`,
      directInstall: true,
      clientOptions: { slackApiUrl: slack.apiUrl },
      logLevel: LogLevel.ERROR,
    });
    server.on('request', (req, res) => {
      if (req.url?.startsWith('/slack/install')) void installer.handleInstallPath(req, res);
      else void installer.handleCallback(req, res);
    });

    const install = await fetch(`${appUrl}/slack/install`, { redirect: 'manual' });
    const cookie = (install.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const consent = await fetch(install.headers.get('location') ?? '', { redirect: 'manual' });
    const redirect = consent.headers.get('location') ?? '';
    const done = await fetch(redirect, { headers: { cookie } });
    const replay = await fetch(redirect, { headers: { cookie } });

    expect(install.status).toBe(302);
    expect(consent.status).toBe(302);
    expect(done.status).toBe(200);
    expect(replay.status).not.toBe(200);
    const stored = await store.installations.fetchInstallation({
      teamId: 'T0ACME',
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    expect(stored.team?.id).toBe('T0ACME');
    expect(stored.bot?.id).toBe('BBOT');
    expect(slack.oauth.isIssued(stored.bot?.token ?? '')).toBe(true);
    expect(stored.bot?.refreshToken).toMatch(/^xoxe-/);
    expect(stored.bot?.expiresAt).toBeGreaterThan(Date.now() / 1000 + 43_000);
  });
});
