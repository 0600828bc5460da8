import { afterEach, describe, expect, it } from 'vitest';
import { RECONCILE_AFTER_SECONDS } from '../../src/domain/ports/index.ts';
import {
  ALICE,
  type ChargeHarness,
  confirmationIdOf,
  hasLiveButtons,
  isCharging,
  startChargeHarness,
} from '../support/charge-harness.ts';
import { createKillSwitch } from '../support/kill-switch.ts';

/** Asks for `text` and claims the card it posts; returns the confirmation id. */
async function claimedCharge(h: ChargeHarness, text: string): Promise<string> {
  const asked = await h.askAndClaim(text);
  if (!asked) throw new Error(`no confirmation card for ${text}`);
  expect(asked.decision?.kind).toBe('claimed');
  return asked.id;
}

/** Service charges of the key, ledger entries of the workspace: what the invariants compare. */
async function books(h: ChargeHarness) {
  const service = h.sim.ledger(h.apiKey);
  const ledger = await h.truth.ledger.listForDay('T0TEST', h.clock.now().toISOString().slice(0, 10));
  const sum = (entries: { credits: number }[]) => entries.reduce((total, entry) => total + entry.credits, 0);
  return {
    serviceCharges: service.length,
    serviceCredits: sum(service),
    charged: sum(ledger.filter((entry) => entry.status === 'charged')),
    unknown: sum(ledger.filter((entry) => entry.status === 'unknown')),
    pending: ledger.filter((entry) => entry.status === 'pending').length,
    entries: ledger.length,
  };
}

describe('a worker killed at each step of a charge', () => {
  let h: ChargeHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it.each([
    ['an event unlock', 'unlock 26855'],
    ['an email unlock', 'emails 100001 100002'],
  ] as const)(
    'ends settled after one reconciler run, with the books balanced: %s',
    async (what, text) => {
      const deaths: string[] = [];
      for (let step = 1; ; step++) {
        h = await startChargeHarness();
        const id = await claimedCharge(h, text);
        const kill = createKillSwitch(step);

        const ended = await kill.race(h.chargeJob(id, ALICE, h.workerWith(kill)));
        if (ended === 'finished') {
          expect(step).toBeGreaterThan(3);
          break;
        }
        deaths.push(kill.trace.at(-1) ?? '');
        h.clock.advanceSeconds(RECONCILE_AFTER_SECONDS.charging + 1);
        await h.reconcile();
        // The job delivered again after the crash charges nothing more.
        await h.chargeJob(id);

        const confirmation = await h.truth.confirmations.get(id);
        expect(confirmation?.status, `killed after ${kill.trace.at(-1)}`).toMatch(/succeeded|failed/);
        const card = h
          .cards()
          .find((message) => confirmationIdOf(message) === id || message.ts === confirmation?.messageTs);
        expect(card && hasLiveButtons(card)).toBe(false);
        expect(card && isCharging(card)).toBe(false);
        const money = await books(h);
        expect(money.serviceCharges).toBeLessThanOrEqual(1);
        expect(money.pending).toBe(0);
        expect(money.serviceCredits).toBeGreaterThanOrEqual(money.charged);
        expect(money.serviceCredits).toBeLessThanOrEqual(money.charged + money.unknown);
        if (money.serviceCharges === 1) expect(money.entries).toBe(1);
        await h.close();
        h = undefined;
      }
      // Every step of the charge was a place to die: right after the service charged among them.
      expect(
        deaths.some(
          (death) => death.startsWith('eis.events.unlock') || death.startsWith('eis.contacts.unlock'),
        ),
      ).toBe(true);
      console.info(`${what}: killed at ${deaths.length} steps (${deaths.join(', ')})`);
    },
    60_000,
  );

  it('killed right after the service charged 2,000 credits: one reconciler run records it and settles the card', async () => {
    h = await startChargeHarness();
    const id = await claimedCharge(h, 'unlock 26855');
    // Find the step of the service call, then die right after it.
    const probe = await startChargeHarness();
    const probeId = await claimedCharge(probe, 'unlock 26855');
    const counting = createKillSwitch();
    await probe.chargeJob(probeId, ALICE, probe.workerWith(counting));
    await probe.close();
    const serviceStep = counting.trace.indexOf('eis.events.unlock') + 1;
    const killed = createKillSwitch(serviceStep);
    expect(await killed.race(h.chargeJob(id, ALICE, h.workerWith(killed)))).toBe('killed');
    expect(h.sim.ledger(h.apiKey)).toHaveLength(1);
    expect((await h.truth.confirmations.get(id))?.status).toBe('running');

    h.clock.advanceSeconds(RECONCILE_AFTER_SECONDS.charging + 1);
    const report = await h.reconcile();

    expect(report).toMatchObject({ settled: 1, cardsShown: 1 });
    expect(await h.truth.ledger.listForDay('T0TEST', h.clock.now().toISOString().slice(0, 10))).toMatchObject(
      [{ status: 'charged', credits: 2000, confirmationId: id }],
    );
    const card = JSON.stringify(h.cards()[0]?.blocks);
    expect(card).toContain('Done');
    expect(card).toContain('The service confirms the unlock');
    await h.command('spend');
    expect(JSON.stringify(h.slack.messages().at(-1))).toContain('2,000');
  });

  it('two confirmations of one unlock, the second killed before its call: the reconciler records one charge', async () => {
    h = await startChargeHarness();
    const first = await claimedCharge(h, 'unlock 26855');
    const second = await claimedCharge(h, 'unlock 26855');
    const probe = await startChargeHarness();
    const probeId = await claimedCharge(probe, 'unlock 26855');
    const counting = createKillSwitch();
    await probe.chargeJob(probeId, ALICE, probe.workerWith(counting));
    await probe.close();
    const beforeTheCall = counting.trace.indexOf('eis.events.unlock');
    await h.chargeJob(first);
    const killed = createKillSwitch(beforeTheCall);
    expect(await killed.race(h.chargeJob(second, ALICE, h.workerWith(killed)))).toBe('killed');
    expect(killed.trace).not.toContain('eis.events.unlock');

    h.clock.advanceSeconds(RECONCILE_AFTER_SECONDS.charging + 1);
    await h.reconcile();

    // The service says "already unlocked" for both: that is the first one's charge, not the second's.
    const money = await books(h);
    expect(money).toMatchObject({ serviceCredits: 2000, charged: 2000, unknown: 0, pending: 0 });
    expect((await h.truth.confirmations.get(second))?.status).toBe('failed');
  });
});
