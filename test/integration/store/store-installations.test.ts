import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type Installation, InvalidStateError } from '@slack/oauth';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  createLocalKeyCipher,
  type KeyCipher,
  KeyCipherError,
  type KeyPurpose,
} from '../../../src/platform/config/key-cipher.ts';
import {
  createStore,
  InstallationNotFoundError,
  type InstallationLookup,
  StoredItemInvalidError,
} from '../../../src/store/index.ts';
import { installationKey } from '../../../src/store/installations.ts';
import { keys } from '../../../src/store/keys.ts';
import { slackStateStore } from '../../../src/slack/oauth-stores.ts';
import { createTestStore } from '../../support/store-support.ts';

interface CipherCall {
  call: 'encrypt' | 'decrypt';
  teamId: string;
  purpose: KeyPurpose | undefined;
}

/** The local cipher, counting each call it makes (each would be a KMS request on AWS). */
function countingCipher() {
  const inner = createLocalKeyCipher(randomBytes(32));
  const calls: CipherCall[] = [];
  const cipher: KeyCipher = {
    encrypt(teamId, plaintext, purpose) {
      calls.push({ call: 'encrypt', teamId, purpose });
      return inner.encrypt(teamId, plaintext, purpose);
    },
    decrypt(teamId, ciphertext, purpose) {
      calls.push({ call: 'decrypt', teamId, purpose });
      return inner.decrypt(teamId, ciphertext, purpose);
    },
  };
  return { cipher, calls, decrypts: () => calls.filter(({ call }) => call === 'decrypt').length };
}

/** A store that encrypts tokens, as a distributed app's does; `another()` is a second instance (cold start). */
async function createEncryptingStore() {
  const test = await createTestStore();
  const counting = countingCipher();
  const another = () =>
    createStore({
      client: test.client,
      tableName: test.tableName,
      now: test.clock.now,
      keyCipher: counting.cipher,
    });
  return { ...test, ...counting, store: another(), another };
}

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

const acme: InstallationLookup = { teamId: 'T0ACME', enterpriseId: undefined, isEnterpriseInstall: false };

/** An install with all four tokens (bot and user, access and refresh). */
const withUserTokens = (teamId: string): Installation => ({
  ...workspaceInstall(teamId),
  user: {
    id: 'U0ALICE',
    token: `xoxp-test-user-${teamId}`,
    refreshToken: `xoxe-1-test-user-refresh-${teamId}`,
    expiresAt: 1_900_000_000,
    scopes: ['users:read'],
  },
});

const tokensOf = (installation: Installation) =>
  [
    installation.bot?.token,
    installation.bot?.refreshToken,
    installation.user.token,
    installation.user.refreshToken,
  ].filter((token) => token !== undefined);

describe('installation store', () => {
  it('stores, fetches and deletes a workspace install by team', async () => {
    const { store } = await createEncryptingStore();
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
    const { store } = await createEncryptingStore();
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
    const { store } = await createEncryptingStore();
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

describe('installation tokens at rest', () => {
  const rawItem = async (
    { client, tableName }: Awaited<ReturnType<typeof createEncryptingStore>>,
    lookup: InstallationLookup,
  ) => (await client.send(new GetCommand({ TableName: tableName, Key: installationKey(lookup) }))).Item;

  it('stores no token in plain text, and reads give every token back', async () => {
    const test = await createEncryptingStore();
    const installation = withUserTokens('T0ACME');

    await test.store.installations.storeInstallation(installation);
    const raw = JSON.stringify(await rawItem(test, acme));
    const fetched = await test.another().installations.fetchInstallation(acme);

    expect(tokensOf(installation)).toHaveLength(4);
    for (const token of tokensOf(installation)) expect(raw).not.toContain(token);
    expect(raw).toContain('U0ALICE'); // only the tokens are encrypted
    expect(fetched).toEqual(JSON.parse(JSON.stringify(installation)));
    expect(test.calls).toContainEqual({ call: 'encrypt', teamId: 'T0ACME', purpose: 'slack-tokens' });
  });

  it('binds an org-wide install to its enterprise, the id it is keyed by', async () => {
    const test = await createEncryptingStore();

    await test.store.installations.storeInstallation(orgInstall);
    const fetched = await test.another().installations.fetchInstallation({
      teamId: 'T0INORG',
      enterpriseId: 'E0ORG',
      isEnterpriseInstall: true,
    });

    expect(fetched.bot?.token).toBe('xoxb-test-org');
    expect(new Set(test.calls.map(({ teamId, purpose }) => `${teamId} ${purpose}`))).toEqual(
      new Set(['E0ORG slack-tokens']),
    );
  });

  it('decrypts each token once per instance: later reads make no cipher call', async () => {
    const test = await createEncryptingStore();
    await test.store.installations.storeInstallation(workspaceInstall('T0ACME'));
    const coldStart = test.another();

    await test.store.installations.fetchInstallation(acme); // the instance that wrote them knows them
    const writerDecrypts = test.decrypts();
    await coldStart.installations.fetchInstallation(acme);
    const firstRead = test.decrypts();
    await coldStart.installations.read(acme);
    await coldStart.installations.fetchInstallation(acme);

    expect(writerDecrypts).toBe(0);
    expect(firstRead).toBe(2); // the bot token and its refresh token
    expect(test.decrypts()).toBe(2);
  });

  it("refuses another workspace's token ciphertext copied into its item", async () => {
    const test = await createEncryptingStore();
    await test.store.installations.storeInstallation(workspaceInstall('T0ACME'));
    await test.store.installations.storeInstallation(workspaceInstall('T0OTHER'));
    const other = { teamId: 'T0OTHER', enterpriseId: undefined, isEnterpriseInstall: false };
    const RawItem = z.looseObject({
      installation: z.looseObject({ bot: z.looseObject({ token: z.string() }) }),
    });
    const fromAcme = RawItem.parse(await rawItem(test, acme));
    const otherItem = RawItem.parse(await rawItem(test, other));
    const { installation } = otherItem;
    await test.client.send(
      new PutCommand({
        TableName: test.tableName,
        Item: {
          ...otherItem,
          installation: {
            ...installation,
            bot: { ...installation.bot, token: fromAcme.installation.bot.token },
          },
        },
      }),
    );

    // The same instance: the copied ciphertext is known to it, but only as T0ACME's.
    const failure = await test.store.installations.fetchInstallation(other).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(KeyCipherError);
    expect(String(failure)).not.toContain('xoxb-test-T0ACME');
  });

  it('still reads an item written before encryption, and encrypts its tokens on the next refresh', async () => {
    const test = await createEncryptingStore();
    const legacy = workspaceInstall('T0ACME');
    await test.client.send(
      new PutCommand({
        TableName: test.tableName,
        Item: {
          ...keys.installation(undefined, 'T0ACME'),
          type: 'installation',
          updatedAt: '2031-05-14T10:00:00.000Z',
          installation: legacy,
        },
      }),
    );
    const { installations } = test.store;

    const read = await installations.fetchInstallation(acme);
    const claimed = await installations.claimRefresh(acme, {
      refreshToken: 'xoxe-1-test-refresh',
      owner: 'me',
      leaseSeconds: 30,
    });
    const saved = await installations.saveRefreshed(acme, 'xoxe-1-test-refresh', {
      token: 'xoxb-test-new',
      refreshToken: 'xoxe-1-test-new-refresh',
      expiresAt: 1_950_000_000,
    });
    const raw = JSON.stringify(await rawItem(test, acme));

    expect(read).toEqual(JSON.parse(JSON.stringify(legacy)));
    expect([claimed, saved]).toEqual([true, true]);
    for (const token of ['xoxb-test-new', 'xoxe-1-test-new-refresh']) expect(raw).not.toContain(token);
    const after = await test.another().installations.fetchInstallation(acme);
    expect(after.bot).toMatchObject({ token: 'xoxb-test-new', refreshToken: 'xoxe-1-test-new-refresh' });
  });

  it('lets a refresh be claimed only with the refresh token that is stored, however it is encrypted', async () => {
    const test = await createEncryptingStore();
    await test.store.installations.storeInstallation(workspaceInstall('T0ACME'));
    const claim = (refreshToken: string, owner: string) =>
      test.another().installations.claimRefresh(acme, { refreshToken, owner, leaseSeconds: 30 });

    const stale = await claim('xoxe-1-test-older-refresh', 'one');
    const current = await claim('xoxe-1-test-refresh', 'two');
    const again = await claim('xoxe-1-test-refresh', 'three');

    expect([stale, current, again]).toEqual([false, true, false]); // the third: a lease is running
  });

  it('grants a claim again to its own retry (its first answer lost), never to another instance', async () => {
    const test = await createEncryptingStore();
    await test.store.installations.storeInstallation(workspaceInstall('T0ACME'));
    const claim = (owner: string) =>
      test.another().installations.claimRefresh(acme, {
        refreshToken: 'xoxe-1-test-refresh',
        owner,
        leaseSeconds: 30,
      });

    const first = await claim('one');
    // The SDK sends the same write again when the answer to the first was lost.
    const retried = await claim('one');
    const other = await claim('two');

    expect([first, retried, other]).toEqual([true, true, false]);
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
