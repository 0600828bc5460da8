import { createStore } from '../../src/store/index.ts';
import { createTestTable } from './dynamo.ts';

/** A clock the test moves by hand. */
export function manualClock(start: Date | string) {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (to: Date | string) => {
      current = new Date(to);
    },
    advanceSeconds: (seconds: number) => {
      current = new Date(current.getTime() + seconds * 1000);
    },
  };
}

/**
 * A store over a fresh table with a hand-moved clock. Clocks start in the future on purpose:
 * DynamoDB Local runs TTL deletion, so an item whose `expiresAt` is already past may vanish mid-test.
 */
export async function createTestStore(start: Date | string = '2031-05-14T10:00:00.000Z') {
  const table = await createTestTable();
  const clock = manualClock(start);
  const store = createStore({ client: table.client, tableName: table.tableName, now: clock.now });
  return { ...table, clock, store };
}
