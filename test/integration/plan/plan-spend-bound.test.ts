import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inPool } from '../../../src/domain/pool.ts';
import { keys } from '../../../src/store/keys.ts';
import { KEPT_ENTRY_LIMIT, newLedgerEntry } from '../../../src/store/ledger.ts';
import { ALICE, type Bot, CHANNEL, startBot, TEAM, visibleText } from '../../support/bot.ts';

/*
 * The plan counts its spend from one bounded read of the ledger (issue 41, item 4): with exactly as many
 * entries as the bound, every one was counted and the card says nothing of a bound; one more, and it does.
 */

const BATCH = 25;
/*
 * The bound's 10,000 entries go through DynamoDB Local (written once, read by each card): work, not a
 * wait, and its time grows with the machine's load, so the file gives it room rather than racing it.
 */
const BULK_MS = 180_000;
const CAPPED_WORDS = 'counted from this workspace’s latest charges only';

describe('the plan’s spend read to its bound', { timeout: BULK_MS }, () => {
  let bot: Bot;

  /** `count` one-credit charges of this channel, booked over the last days, written straight to the table. */
  async function book(count: number, from: number) {
    const now = Date.now();
    const entries = Array.from({ length: count }, (_, index) => {
      const entry = newLedgerEntry(
        {
          teamId: TEAM,
          channelId: CHANNEL,
          requestedBy: ALICE.userId,
          action: 'email-unlock',
          credits: 1,
          id: `bulk-${from + index}`,
        },
        new Date(now - (from + index + 1) * 60_000),
      );
      return { ...keys.ledgerEntry(TEAM, entry.at, entry.id), ...entry };
    });
    const batches = Array.from({ length: Math.ceil(count / BATCH) }, (_, i) =>
      entries.slice(i * BATCH, (i + 1) * BATCH),
    );
    await inPool(batches, 8, async (batch) => {
      let items = batch.map((Item) => ({ PutRequest: { Item } }));
      while (items.length > 0) {
        const written = await bot.table.client.send(
          new BatchWriteCommand({ RequestItems: { [bot.table.tableName]: items } }),
        );
        items = (written.UnprocessedItems?.[bot.table.tableName] ?? []) as typeof items;
      }
    });
  }

  async function planCard() {
    await bot.command('plan');
    await bot.idle();
    return visibleText(bot.last(CHANNEL));
  }

  beforeAll(async () => {
    bot = await startBot();
    const today = new Date().toISOString().slice(0, 10);
    const show = bot.sim.events.find((e) => e.exhibitorCount > 0 && e.dateEnd >= today);
    if (!show) throw new Error('the simulator has no show still ahead');
    await bot.command(`plan add ${show.eventId}`);
    await bot.idle();
    await book(KEPT_ENTRY_LIMIT, 0);
  }, BULK_MS);
  afterAll(() => bot.close());

  it('counts exactly the bound’s entries without saying it counted only the latest', async () => {
    expect(await planCard()).not.toContain(CAPPED_WORDS);
  });

  it('says it counted only the latest once the ledger holds one more', async () => {
    await book(1, KEPT_ENTRY_LIMIT);

    expect(await planCard()).toContain(CAPPED_WORDS);
  });
});
