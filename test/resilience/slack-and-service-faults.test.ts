import { afterEach, describe, expect, it } from 'vitest';
import { RECONCILE_AFTER_SECONDS } from '../../src/domain/ports/index.ts';
import {
  brokenInvariants,
  type ChargeHarness,
  confirmationIdOf,
  hasLiveButtons,
  startChargeHarness,
} from '../support/charge-harness.ts';

const UNLOCK_ROUTE = 'POST /external/events/{id}/unlock';

describe('Slack slow or failing', () => {
  let h: ChargeHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a card Slack stored but answered too late is posted once and never gets live buttons', async () => {
    h = await startChargeHarness();
    h.slack.failNext('chat.postMessage', 'slow:600');

    await h.command('unlock 26855');
    await h.slack.lateAnswersSent();

    expect(h.cards()).toHaveLength(1);
    expect(hasLiveButtons(h.cards()[0] ?? ({ blocks: [] } as never))).toBe(false);
    await h.reconcileLater();
    expect(await brokenInvariants(h, 1)).toEqual([]);
    expect(h.sim.ledger(h.apiKey)).toEqual([]);
  });

  it('a card whose buttons could not be added stays unclickable, and is closed when it expires', async () => {
    h = await startChargeHarness();
    h.slack.failNext('chat.update', 'internal_error');

    await h.command('unlock 26855');

    expect(hasLiveButtons(h.cards()[0] ?? ({ blocks: [] } as never))).toBe(false);
    expect((await h.reconcileLater()).expired).toBe(1);
    expect(await brokenInvariants(h, 1)).toEqual([]);
  });

  it('a result card Slack would not update is shown by the next reconciler run', async () => {
    h = await startChargeHarness();
    await h.command('unlock 26855');
    const id = confirmationIdOf(h.cards()[0] ?? ({ blocks: [] } as never)) ?? '';
    await h.claim(id);
    h.slack.failNext('chat.update', 'internal_error');

    await h.chargeJob(id);
    expect(JSON.stringify(h.cards()[0]?.blocks)).not.toContain('Done');
    h.clock.advanceSeconds(RECONCILE_AFTER_SECONDS.decided + 1);
    const report = await h.reconcile();

    expect(report.cardsShown).toBe(1);
    expect(JSON.stringify(h.cards()[0]?.blocks)).toContain('Done');
    expect(await brokenInvariants(h, 1)).toEqual([]);
  });
});

describe('the service failing after it charged', () => {
  let h: ChargeHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a 5xx after the charge: outcome unknown on the card and in the ledger, never retried', async () => {
    h = await startChargeHarness();
    h.sim.injectFault({ kind: 'status', status: 502, route: UNLOCK_ROUTE, afterExecute: true });

    await h.askConfirmCharge();

    expect(h.sim.ledger(h.apiKey)).toHaveLength(1);
    expect(JSON.stringify(h.cards()[0]?.blocks)).toMatch(/unknown|check the balance/i);
    const [entry] = await h.truth.ledger.listForDay('T0TEST', h.clock.now().toISOString().slice(0, 10));
    expect(entry).toMatchObject({ status: 'unknown', credits: 2000 });
    await h.reconcileLater();
    expect(await brokenInvariants(h, 1)).toEqual([]);
  });

  it('a timeout: the charge is counted as unknown at the quoted price until the service shows none, and the books still balance', async () => {
    const harness = await startChargeHarness();
    h = harness;
    h.sim.injectFault({ kind: 'hang', route: UNLOCK_ROUTE });
    const ledger = async () =>
      harness.truth.ledger.listForDay('T0TEST', harness.clock.now().toISOString().slice(0, 10));

    await h.askConfirmCharge();
    const [unknown] = await ledger();
    await h.reconcileLater();
    const [decided] = await ledger();

    expect(unknown).toMatchObject({ status: 'unknown', credits: 2000 });
    // The hung call never ran: the precheck still prices the unlock in full, so nothing was charged.
    expect(decided).toMatchObject({ status: 'refused', credits: 0 });
    expect(await brokenInvariants(h, 1)).toEqual([]);
  });
});
