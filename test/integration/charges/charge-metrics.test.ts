import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChargeHarness, startChargeHarness } from '../../support/charge-harness.ts';

describe('metrics of a confirmed charge', () => {
  let h: ChargeHarness;
  beforeAll(async () => {
    h = await startChargeHarness();
  });
  afterAll(() => h.close());

  it('reports the charge by action, the credits it spent and how it ended', async () => {
    const before = h.metricPoints.length;

    await h.askConfirmCharge('unlock 26855');

    expect(h.metricPoints.slice(before)).toEqual([
      { name: 'ChargesRun', value: 1, dimension: { name: 'action', value: 'event-unlock' } },
      { name: 'CreditsCharged', value: 2000, dimension: { name: 'action', value: 'event-unlock' } },
      { name: 'Confirmations', value: 1, dimension: { name: 'outcome', value: 'charged' } },
    ]);
  });
});
