import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../../src/store/keys.ts';
import { createTestStore } from '../../support/store-support.ts';

const nowSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

describe('fit score cache', () => {
  it('returns what was put for the event and day, and nothing for another day', async () => {
    const { store } = await createTestStore();
    const value = {
      score: 0.82,
      reasons: ['exhibitors match', 'in budget'],
      nested: { ok: true, none: null },
    };

    await store.fitScores('acct-1').put('ev-1', '2031-05-14', value);

    expect((await store.fitScores('acct-1').get('ev-1', '2031-05-14'))?.value).toEqual(value);
    expect(await store.fitScores('acct-1').get('ev-1', '2031-05-15')).toBeNull();
    expect(await store.fitScores('acct-1').get('ev-2', '2031-05-14')).toBeNull();
    // another service account (another workspace's key) has its own scores
    expect(await store.fitScores('acct-2').get('ev-1', '2031-05-14')).toBeNull();
  });

  it('keeps entries about two days through TTL, and treats an entry past it as gone', async () => {
    const { store, clock, client, tableName } = await createTestStore();
    await store.fitScores('acct-1').put('ev-1', '2031-05-14', { score: 1 });

    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.fitScore('acct-1', 'ev-1', '2031-05-14') }),
    );
    clock.advanceSeconds(2 * 24 * 3600);
    const afterTtl = await store.fitScores('acct-1').get('ev-1', '2031-05-14');

    expect(Item?.expiresAt).toBe(nowSeconds(new Date('2031-05-14T10:00:00Z')) + 2 * 24 * 3600);
    expect(afterTtl).toBeNull();
  });

  it('refuses a value that is not plain JSON', async () => {
    const { store } = await createTestStore();

    await expect(store.fitScores('acct-1').put('ev-1', '2031-05-14', { at: new Date() })).rejects.toThrow();
  });
});
