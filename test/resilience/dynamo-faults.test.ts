import { afterEach, describe, expect, it } from 'vitest';
import { RECONCILE_AFTER_SECONDS } from '../../src/store/index.ts';
import {
  brokenInvariants,
  type ChargeHarness,
  confirmationIdOf,
  startChargeHarness,
} from '../support/charge-harness.ts';
import type { FaultRule } from '../support/dynamo-fault-proxy.ts';

/** Ask, confirm, charge: each step as its Lambda would run it, a failing step ending that step only. */
async function askConfirmCharge(h: ChargeHarness, text: string): Promise<void> {
  await h.command(text);
  const card = h.cards().at(-1);
  const id = card && confirmationIdOf(card);
  if (!id) return;
  const decision = await h.claim(id).catch(() => undefined);
  if (decision?.kind === 'claimed') await h.chargeJob(id);
}

/** Then time passes and the reconciler runs (DynamoDB healthy again). */
async function afterTheDust(h: ChargeHarness): Promise<void> {
  h.proxy?.clearRule();
  h.clock.advanceSeconds(15 * 60 + RECONCILE_AFTER_SECONDS.charging + 1);
  await h.reconcile();
}

/** Request `seq` fails, and so do the SDK's retries of it: the caller sees the error. */
const failHard =
  (seq: number): FaultRule =>
  (request) =>
    request.seq >= seq && request.seq < seq + 3 ? { kind: 'fail' } : undefined;
/** DynamoDB is down from request `seq` until the reconciler runs. */
const downFrom =
  (seq: number): FaultRule =>
  (request) =>
    request.seq >= seq ? { kind: 'fail' } : undefined;
/** Request `seq` is applied and its answer lost; the SDK retries it. */
const lose =
  (seq: number): FaultRule =>
  (request) =>
    request.seq === seq ? { kind: 'lose' } : undefined;

describe('DynamoDB failing or losing answers at every request of a charge', () => {
  let h: ChargeHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  for (const [what, text] of [
    ['an event unlock', 'unlock 26855'],
    ['an email unlock', 'emails 100001 100002'],
  ] as const) {
    it(`keeps every invariant: ${what}`, async () => {
      h = await startChargeHarness({ dynamoFaults: true, dailyCap: 10_000 });
      await askConfirmCharge(h, text);
      const requests = h.proxy?.stats().requests ?? 0;
      await h.close();
      h = undefined;
      expect(requests).toBeGreaterThan(5);

      let tried = 0;
      for (let seq = 1; seq <= requests; seq++) {
        for (const [kind, rule] of [
          ['fail', failHard(seq)],
          ['lose', lose(seq)],
          ['down', downFrom(seq)],
        ] as const) {
          h = await startChargeHarness({ dynamoFaults: true, dailyCap: 10_000 });
          h.proxy?.setRule(rule);
          await askConfirmCharge(h, text);
          const injected = h.proxy?.injected()[0];
          await afterTheDust(h);

          expect(await brokenInvariants(h, 1), `${kind} at request ${seq} (${injected?.operation})`).toEqual(
            [],
          );
          tried++;
          await h.close();
          h = undefined;
        }
      }
      console.info(
        `${what}: ${tried} DynamoDB faults tried (fail, lose and down from each of ${requests} requests)`,
      );
    }, 180_000);
  }
});
