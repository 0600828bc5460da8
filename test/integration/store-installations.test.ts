import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { type Installation, InvalidStateError } from '@slack/oauth';
import { describe, expect, it } from 'vitest';
import { InstallationNotFoundError, StoredItemInvalidError } from '../../src/store/index.ts';
import { keys } from '../../src/store/keys.ts';
import { slackStateStore } from '../../src/slack/oauth-stores.ts';
import { createTestStore } from './store-support.ts';

/** The state store as `InstallProvider` uses it. */
async function createStateStore() {
  const { store } = await createTestStore();
  return slackStateStore(store.oauthStates);
}

const workspaceInstall = (teamId: string): Installation => ({
  team: { id: teamId, name: 'Acme' },
  enterprise: undefined,
  user: { token: undefined, scopes: undefined, id: 'U0ALICE' },
  bot: {
    token: `xoxb-test-${teamId}`,
    refreshToken: 'xoxe-1-test-refresh',
    expiresAt: 1_900_000_000,
    scopes: ['commands', 'chat:write'],
    id: 'B0BOT',
    userId: 'UBOT',
  },
  tokenType: 'bot',
  isEnterpriseInstall: false,
  appId: 'A0LOCAL',
  authVersion: 'v2',
});

const orgInstall: Installation = {
  team: undefined,
  enterprise: { id: 'E0ORG', name: 'Acme Group' },
  user: { token: undefined, scopes: undefined, id: 'U0ADMIN' },
  bot: { token: 'xoxb-test-org', scopes: ['commands'], id: 'B0BOT', userId: 'UBOT' },
  tokenType: 'bot',
  isEnterpriseInstall: true,
  enterpriseUrl: 'https://acme-group.enterprise.slack.com/',
  appId: 'A0LOCAL',
  authVersion: 'v2',
};

describe('installation store', () => {
  it('stores, fetches and deletes a workspace install by team', async () => {
    const { store } = await createTestStore();
    const installation = workspaceInstall('T0ACME');

    await store.installations.storeInstallation(installation);
    const fetched = await store.installations.fetchInstallation({
      teamId: 'T0ACME',
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    await store.installations.deleteInstallation({
      teamId: 'T0ACME',
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });

    expect(fetched).toEqual(JSON.parse(JSON.stringify(installation)));
    await expect(
      store.installations.fetchInstallation({
        teamId: 'T0ACME',
        enterpriseId: undefined,
        isEnterpriseInstall: false,
      }),
    ).rejects.toBeInstanceOf(InstallationNotFoundError);
  });

  it('finds an org-wide install by enterprise for any of its workspaces, and deletes it by enterprise', async () => {
    const { store } = await createTestStore();
    await store.installations.storeInstallation(orgInstall);
    await store.installations.storeInstallation(workspaceInstall('T0OTHER'));

    const fromWorkspace = await store.installations.fetchInstallation({
      teamId: 'T0INORG',
      enterpriseId: 'E0ORG',
      isEnterpriseInstall: true,
    });
    await store.installations.deleteInstallation({
      teamId: undefined,
      enterpriseId: 'E0ORG',
      isEnterpriseInstall: true,
    });

    expect(fromWorkspace.bot?.token).toBe('xoxb-test-org');
    expect(fromWorkspace.enterpriseUrl).toBe(orgInstall.enterpriseUrl);
    await expect(
      store.installations.fetchInstallation({
        teamId: undefined,
        enterpriseId: 'E0ORG',
        isEnterpriseInstall: true,
      }),
    ).rejects.toBeInstanceOf(InstallationNotFoundError);
    // A plain install of another workspace is untouched.
    const other = await store.installations.fetchInstallation({
      teamId: 'T0OTHER',
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    expect(other.team?.id).toBe('T0OTHER');
  });

  it('keeps fields Slack adds that the schema does not name', async () => {
    const { store } = await createTestStore();
    const installation = { ...workspaceInstall('T0NEW'), someNewSlackField: { x: 1 } };

    await store.installations.storeInstallation(installation);
    const fetched = await store.installations.fetchInstallation({
      teamId: 'T0NEW',
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });

    expect(fetched).toMatchObject({ someNewSlackField: { x: 1 } });
  });

  it('refuses a stored install of the wrong shape, naming the item but no token', async () => {
    const { store, client, tableName } = await createTestStore();
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.installation(undefined, 'T0BAD'),
          type: 'installation',
          updatedAt: '2031-05-14T10:00:00.000Z',
          installation: { team: { id: 'T0BAD' }, user: { id: 'U1' }, bot: { token: 'xoxb-test-bad' } },
        },
      }),
    );

    const failure = await store.installations
      .fetchInstallation({ teamId: 'T0BAD', enterpriseId: undefined, isEnterpriseInstall: false })
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(StoredItemInvalidError);
    expect(String(failure)).toContain('INSTALLATION#-#T0BAD');
    expect(String(failure)).not.toContain('xoxb-test-bad');
  });
});

describe('OAuth state store', () => {
  const options = { scopes: ['commands', 'chat:write'], metadata: 'from-home' };

  it('gives back the install options once, then refuses the same state', async () => {
    const states = await createStateStore();
    const now = new Date('2031-05-14T10:00:00Z');

    const state = await states.generateStateParam(options, now);
    const verified = await states.verifyStateParam(new Date('2031-05-14T10:05:00Z'), state);
    const replay = states.verifyStateParam(new Date('2031-05-14T10:05:01Z'), state);

    expect(verified).toEqual(options);
    await expect(replay).rejects.toBeInstanceOf(InvalidStateError);
  });

  it('lets only one of two simultaneous redirects with the same state through', async () => {
    const states = await createStateStore();
    const now = new Date('2031-05-14T10:00:00Z');
    const state = await states.generateStateParam(options, now);

    const results = await Promise.allSettled([
      states.verifyStateParam(now, state),
      states.verifyStateParam(now, state),
    ]);

    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('refuses a state after ten minutes', async () => {
    const states = await createStateStore();
    const state = await states.generateStateParam(options, new Date('2031-05-14T10:00:00Z'));

    const late = states.verifyStateParam(new Date('2031-05-14T10:10:00Z'), state);

    await expect(late).rejects.toThrow(new InvalidStateError('The state parameter has expired'));
  });

  it('refuses unknown and malformed states', async () => {
    const states = await createStateStore();
    const now = new Date('2031-05-14T10:00:00Z');

    await expect(states.verifyStateParam(now, 'A'.repeat(43))).rejects.toBeInstanceOf(InvalidStateError);
    await expect(states.verifyStateParam(now, '')).rejects.toBeInstanceOf(InvalidStateError);
    await expect(states.verifyStateParam(now, 'x#y')).rejects.toBeInstanceOf(InvalidStateError);
  });
});
