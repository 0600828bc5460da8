import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createLocalKeyCipher, KeyCipherError } from '../../../src/platform/config/key-cipher.ts';
import { serviceAccountId } from '../../../src/platform/config/secrets.ts';
import { spendPolicyOf } from '../../../src/roots/workspace-policy.ts';
import { createMemoryLogger } from '../../../src/platform/log.ts';
import { ConflictError, ValidationError } from '../../../src/platform/errors.ts';
import { createStore } from '../../../src/store/index.ts';
import { keys } from '../../../src/store/keys.ts';
import { StoredItemInvalidError } from '../../../src/store/support.ts';
import { createTestTable } from '../../support/dynamo.ts';
import { manualClock } from '../../support/store-support.ts';

const KEY_ONE = 'sk_test_workspace_one_7c1e9a24';
const KEY_TWO = 'sk_test_workspace_two_b83f51d0';

async function workspaceStore({ withCipher = true } = {}) {
  const table = await createTestTable();
  const clock = manualClock('2031-05-14T10:00:00.000Z');
  const keyCipher = createLocalKeyCipher(randomBytes(32));
  const store = createStore({
    client: table.client,
    tableName: table.tableName,
    now: clock.now,
    ...(withCipher ? { keyCipher } : {}),
  });
  const rawItem = async (key: { pk: string; sk: string }) =>
    (await table.client.send(new GetCommand({ TableName: table.tableName, Key: key }))).Item;
  return { ...table, clock, store: store.workspaces, rawItem };
}

describe('workspace service keys', () => {
  it('are stored encrypted, read back decrypted, and described by their last 4 characters only', async () => {
    const { store, rawItem } = await workspaceStore();

    const info = await store.putServiceKey({ teamId: 'T1', serviceKey: KEY_ONE, connectedBy: 'U-admin' });

    const expected = {
      type: 'workspace-service-key',
      teamId: 'T1',
      last4: KEY_ONE.slice(-4),
      serviceAccountId: serviceAccountId(KEY_ONE),
      connectedBy: 'U-admin',
      connectedAt: '2031-05-14T10:00:00.000Z',
    };
    expect(info).toEqual(expected);
    expect(await store.getServiceKeyInfo('T1')).toEqual(expected);
    expect(await store.getServiceKey('T1')).toEqual({ ...expected, serviceKey: KEY_ONE });
    expect(JSON.stringify(await rawItem(keys.workspaceServiceKey('T1')))).not.toContain(KEY_ONE);
    expect(JSON.stringify(info)).not.toContain(KEY_ONE);
  });

  it('are replaced by a new key (new account, new connector), and removed', async () => {
    const { store, clock, rawItem } = await workspaceStore();
    await store.putServiceKey({ teamId: 'T1', serviceKey: KEY_ONE, connectedBy: 'U-admin' });
    clock.advanceSeconds(3600);

    await store.putServiceKey({ teamId: 'T1', serviceKey: `  ${KEY_TWO}\n`, connectedBy: 'U-other' });

    expect(await store.getServiceKey('T1')).toMatchObject({
      serviceKey: KEY_TWO,
      last4: KEY_TWO.slice(-4),
      serviceAccountId: serviceAccountId(KEY_TWO),
      connectedBy: 'U-other',
      connectedAt: '2031-05-14T11:00:00.000Z',
    });
    const stored = JSON.stringify(await rawItem(keys.workspaceServiceKey('T1')));
    expect(stored).not.toContain(KEY_ONE);
    expect(stored).not.toContain(KEY_TWO);

    expect(await store.removeServiceKey('T1')).toBe(true);
    expect(await store.removeServiceKey('T1')).toBe(false);
    expect(await store.getServiceKey('T1')).toBeNull();
    expect(await store.getServiceKeyInfo('T1')).toBeNull();
  });

  it('are kept per workspace: a ciphertext copied to another team does not decrypt', async () => {
    const { store, client, tableName, rawItem } = await workspaceStore();
    await store.putServiceKey({ teamId: 'T1', serviceKey: KEY_ONE, connectedBy: 'U1' });
    await store.putServiceKey({ teamId: 'T2', serviceKey: KEY_TWO, connectedBy: 'U2' });
    expect((await store.getServiceKey('T1'))?.serviceKey).toBe(KEY_ONE);
    expect((await store.getServiceKey('T2'))?.serviceKey).toBe(KEY_TWO);

    const t1 = await rawItem(keys.workspaceServiceKey('T1'));
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...t1, ...keys.workspaceServiceKey('T2'), teamId: 'T2' },
      }),
    );

    const error = await store.getServiceKey('T2').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(KeyCipherError);
    expect(inspect(error, { depth: 5 })).not.toContain(KEY_ONE);
  });

  it('refuse a key too short to hide behind its last 4 characters, without quoting it', async () => {
    const { store } = await workspaceStore();

    const error = await store
      .putServiceKey({ teamId: 'T1', serviceKey: 'sk_test_ab', connectedBy: 'U1' })
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ValidationError);
    expect(inspect(error)).not.toContain('sk_test_ab');
    expect(await store.getServiceKeyInfo('T1')).toBeNull();
  });

  it('need a cipher to be written or decrypted; without one the key is never stored in the clear', async () => {
    const { store, rawItem } = await workspaceStore({ withCipher: false });

    await expect(
      store.putServiceKey({ teamId: 'T1', serviceKey: KEY_ONE, connectedBy: 'U1' }),
    ).rejects.toThrow(/without a key cipher/);
    expect(await rawItem(keys.workspaceServiceKey('T1'))).toBeUndefined();
  });

  it('refuse a stored item of the wrong shape', async () => {
    const { store, client, tableName } = await workspaceStore();
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.workspaceServiceKey('T1'), type: 'workspace-service-key', teamId: 'T1' },
      }),
    );

    await expect(store.getServiceKeyInfo('T1')).rejects.toBeInstanceOf(StoredItemInvalidError);
  });
});

describe('workspace policies', () => {
  const envDefaults = { approvers: ['U-env-approver'], approvalThreshold: 50, dailyCap: 500 };
  const env = { SPEND_APPROVERS: envDefaults.approvers, APPROVAL_THRESHOLD: 50, DAILY_CREDIT_CAP: 500 };
  /** The workspace's rules over `env`, its user group's members as Slack would list them. */
  const spendPolicyForWorkspace = (saved: Parameters<typeof spendPolicyOf>[1], members: string[] = []) =>
    spendPolicyOf(env, saved, { teamId: 'T1', channelId: 'C1', botToken: 'xoxb-workspace' }, {
      logger: createMemoryLogger(),
      readSlack: () => Promise.resolve({ ok: true, users: members }),
    });

  it('round-trip, and merge over the environment defaults', async () => {
    const { store } = await workspaceStore();

    const saved = await store.putPolicy(
      'T1',
      {
        approverUserIds: ['U-lead'],
        approverUserGroupId: 'S-finance',
        dailyCap: 200,
        digestDefaults: { time: '08:30', timeZone: 'Europe/Berlin' },
      },
      'U-admin',
    );
    const policy = await store.getPolicy('T1');

    expect(policy).toEqual(saved);
    expect(policy).toEqual({
      type: 'workspace-policy',
      teamId: 'T1',
      approverUserIds: ['U-lead'],
      approverUserGroupId: 'S-finance',
      dailyCap: 200,
      digestDefaults: { time: '08:30', timeZone: 'Europe/Berlin' },
      updatedBy: 'U-admin',
      updatedAt: '2031-05-14T10:00:00.000Z',
      revision: expect.any(String) as string,
    });
    // The workspace's approvers (users and the group's members) replace the environment's; its cap wins;
    // the threshold it did not set stays the default.
    expect(await spendPolicyForWorkspace(policy, ['U-fin-1', 'U-lead'])).toEqual({
      approvers: ['U-lead', 'U-fin-1'],
      approvalThreshold: 50,
      dailyCap: 200,
    });
  });

  it('fall back to the environment defaults when absent, and clear a limit set to null', async () => {
    const { store } = await workspaceStore();
    await store.putPolicy('T1', { dailyCap: null, approvalThreshold: 20 }, 'U-admin');

    expect(await spendPolicyForWorkspace(await store.getPolicy('T1'))).toEqual({
      approvers: ['U-env-approver'],
      approvalThreshold: 20,
    });
    expect(await spendPolicyForWorkspace(await store.getPolicy('T-none'))).toEqual(envDefaults);
  });

  it('are replaced whole and removed', async () => {
    const { store } = await workspaceStore();
    await store.putPolicy('T1', { dailyCap: 100, approverUserIds: ['U1'] }, 'U-admin');

    await store.putPolicy('T1', { approvalThreshold: 10 }, 'U-admin');
    const replaced = await store.getPolicy('T1');

    expect(replaced?.dailyCap).toBeUndefined();
    expect(replaced?.approverUserIds).toBeUndefined();
    expect(replaced?.approvalThreshold).toBe(10);
    expect(await store.removePolicy('T1')).toBe(true);
    expect(await store.getPolicy('T1')).toBeNull();
    expect(await store.removePolicy('T1')).toBe(false);
  });

  it('are saved with a key only at the revision the saver saw: a stale save stores nothing, its key included', async () => {
    const { store } = await workspaceStore();
    const first = await store.saveSettings({
      teamId: 'T1',
      policy: { dailyCap: 100 },
      updatedBy: 'U-one',
      seenRevision: undefined,
      serviceKey: KEY_ONE,
    });

    const stale = store.saveSettings({
      teamId: 'T1',
      policy: { dailyCap: 999 },
      updatedBy: 'U-two',
      seenRevision: undefined,
      serviceKey: KEY_TWO,
    });
    await expect(stale).rejects.toBeInstanceOf(ConflictError);
    const staleRemoval = store.saveSettings({
      teamId: 'T1',
      policy: {},
      updatedBy: 'U-two',
      seenRevision: 'not-the-stored-one',
      removeKey: true,
    });
    await expect(staleRemoval).rejects.toBeInstanceOf(ConflictError);
    expect(await store.getPolicy('T1')).toMatchObject({ dailyCap: 100, updatedBy: 'U-one' });
    expect((await store.getServiceKey('T1'))?.serviceKey).toBe(KEY_ONE);

    await store.saveSettings({
      teamId: 'T1',
      policy: { dailyCap: 300 },
      updatedBy: 'U-two',
      seenRevision: first.revision,
      removeKey: true,
    });
    expect(await store.getPolicy('T1')).toMatchObject({ dailyCap: 300, updatedBy: 'U-two' });
    expect(await store.getServiceKey('T1')).toBeNull();
  });

  it('refuse what is not a policy', async () => {
    const { store } = await workspaceStore();

    await expect(store.putPolicy('T1', { dailyCap: -5 }, 'U-admin')).rejects.toBeInstanceOf(ValidationError);
    await expect(
      store.putPolicy('T1', { digestDefaults: { time: '25:00' } }, 'U-admin'),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(await store.getPolicy('T1')).toBeNull();
  });
});
