import { describe, expect, it } from 'vitest';
import { createSeed } from '../../simulator/seed.ts';
import { sequenceStartFor, simulatorTodayFor } from '../support/tenant-harness.ts';
import { watchPool } from '../support/tenant-watch-pool.ts';

/**
 * The sequences' start, and so the simulator's data, depend only on the month the suite runs in: every
 * month of a year, and a leap February's months around it.
 */
const MONTHS = [
  ...Array.from({ length: 12 }, (_, month) => new Date(Date.UTC(2027, month, 15))),
  ...[0, 1, 2].map((month) => new Date(Date.UTC(2028, month, 15))),
];

describe('the tenant model on any day', () => {
  it.each(MONTHS.map((runsOn) => ({ runsOn, month: runsOn.toISOString().slice(0, 7) })))(
    'finds its watch pool in the simulator when the suite runs in $month',
    ({ runsOn }) => {
      // Prepare
      const start = sequenceStartFor(runsOn);
      const seed = createSeed(simulatorTodayFor(start));

      // Act
      const pool = watchPool({ seed, events: seed.events }, start);

      // Assess: three companies that may get a new show, and a show renamed hostile
      expect(new Set(pool.companies).size).toBe(3);
      const hostile = seed.events.find((e) => e.id === pool.hostileEvent);
      expect(hostile?.dateStart.localeCompare(start.toISOString().slice(0, 10))).toBeGreaterThanOrEqual(0);
    },
  );
});
