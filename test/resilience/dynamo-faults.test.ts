import { afterEach, describe, expect, it } from 'vitest';
import { brokenInvariants, type ChargeHarness, startChargeHarness } from '../support/charge-harness.ts';
import type { FaultRule } from '../support/dynamo-fault-proxy.ts';

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

/*
 * Faults are chosen by request number and the harness's clock is moved by hand, so nothing here is
 * timed: the SDK retries as in production (3 attempts) but without its back-off waits, and the
 * charge retries storing its outcome (3 attempts) without its pauses.
 */
const FAULTY = { dynamoFaults: true, noRetryWait: true, dailyCap: 10_000 };

describe('DynamoDB failing or losing answers at every request of a charge', () => {
  let h: ChargeHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it.each([
    ['an event unlock', 'unlock 26855'],
    ['an email unlock', 'emails 100001 100002'],
  ] as const)(
    'keeps every invariant: %s',
    async (what, text) => {
      h = await startChargeHarness(FAULTY);
      await h.askConfirmCharge(text);
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
          h = await startChargeHarness(FAULTY);
          h.proxy?.setRule(rule);
          await h.askConfirmCharge(text);
          const injected = h.proxy?.injected()[0];
          await h.reconcileLater();

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
    },
    180_000,
  );
});
