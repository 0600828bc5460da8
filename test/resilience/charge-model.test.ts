import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALICE,
  BOB,
  BOSS,
  brokenInvariants,
  type ChargeHarness,
  confirmationIdOf,
  startChargeHarness,
} from '../support/charge-harness.ts';
import { randomFaults } from '../support/dynamo-fault-proxy.ts';
import { createKillSwitch } from '../support/kill-switch.ts';

/**
 * Model-based: random sequences of what users, Slack, Lambda, DynamoDB and the service do to the
 * money path (asks, replays, concurrent clicks, cancels, redelivered jobs, workers killed mid-charge,
 * DynamoDB failing or losing answers, the service failing after it charged, time passing, reconciler
 * runs), then the reconciler, then the invariants. Bounded by count and time; the seed is fixed.
 */

const ASKS = ['unlock 26855', 'unlock 8453', 'emails 100003 100004', 'visitors 26855'] as const;
const USERS = [ALICE, BOB, BOSS] as const;
const UNLOCK_ROUTE = 'POST /external/events/{id}/unlock';

type Step =
  | { kind: 'ask'; text: (typeof ASKS)[number] }
  | { kind: 'replay'; ask: number }
  | { kind: 'click'; card: number; users: number[]; killAfter: number | null }
  | { kind: 'redeliver'; card: number }
  | { kind: 'cancel'; card: number; user: number }
  | { kind: 'dynamo'; seed: number; failRate: number; loseRate: number }
  | { kind: 'service'; fault: 'charged-then-502' | 'hang' }
  | { kind: 'wait'; seconds: number }
  | { kind: 'reconcile' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('ask' as const), text: fc.constantFrom(...ASKS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replay' as const), ask: fc.nat(5) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('click' as const),
      card: fc.nat(5),
      users: fc.array(fc.nat(2), { minLength: 1, maxLength: 4 }),
      killAfter: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('redeliver' as const), card: fc.nat(5) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('cancel' as const), card: fc.nat(5), user: fc.nat(2) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('dynamo' as const),
      seed: fc.nat(),
      failRate: fc.constantFrom(0, 0.1, 0.3),
      loseRate: fc.constantFrom(0, 0.1, 0.3),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('service' as const),
      fault: fc.constantFrom('charged-then-502' as const, 'hang' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('wait' as const),
      seconds: fc.constantFrom(30, 130, 600, 1000),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reconcile' as const) }) },
);

const counts = { sequences: 0, steps: 0, dynamoFaults: 0, kills: 0, serviceFaults: 0, replays: 0 };

/** Every step runs to its end or its death; an error is what a user would have been told. */
async function play(h: ChargeHarness, steps: Step[]): Promise<number> {
  const triggers: string[] = [];
  const cardId = (index: number) => {
    const cards = h.cards();
    const card = cards[index % Math.max(1, cards.length)];
    return card && confirmationIdOf(card);
  };
  for (const s of steps) {
    counts.steps++;
    switch (s.kind) {
      case 'ask': {
        const trigger = randomUUID();
        triggers.push(trigger);
        await h.command(s.text, ALICE, trigger).catch(() => {});
        break;
      }
      case 'replay': {
        const trigger = triggers[s.ask % Math.max(1, triggers.length)];
        if (trigger) {
          counts.replays++;
          await h.command(ASKS[0], ALICE, trigger).catch(() => {});
        }
        break;
      }
      case 'click': {
        const id = cardId(s.card);
        if (!id) break;
        const decisions = await Promise.all(
          s.users.map((user) => h.claim(id, USERS[user]).catch(() => undefined)),
        );
        const winner = decisions.findIndex((decision) => decision?.kind === 'claimed');
        if (winner < 0) break;
        const user = USERS[s.users[winner] ?? 0];
        if (s.killAfter === null) {
          await h.chargeJob(id, user);
        } else {
          const kill = createKillSwitch(s.killAfter);
          if ((await kill.race(h.chargeJob(id, user, h.workerWith(kill)))) === 'killed') counts.kills++;
        }
        break;
      }
      case 'redeliver': {
        const id = cardId(s.card);
        if (id) await h.chargeJob(id);
        break;
      }
      case 'cancel': {
        const id = cardId(s.card);
        if (id) await h.store.confirmations.cancel(id, { by: USERS[s.user] ?? ALICE }).catch(() => {});
        break;
      }
      case 'dynamo':
        h.proxy?.setRule(randomFaults({ seed: s.seed, failRate: s.failRate, loseRate: s.loseRate }));
        break;
      case 'service':
        counts.serviceFaults++;
        h.sim.injectFault(
          s.fault === 'hang'
            ? { kind: 'hang', route: UNLOCK_ROUTE }
            : { kind: 'status', status: 502, route: UNLOCK_ROUTE, afterExecute: true },
        );
        break;
      case 'wait':
        h.clock.advanceSeconds(s.seconds);
        break;
      case 'reconcile':
        await h.reconcile().catch(() => {});
        break;
    }
  }
  return new Set(triggers).size;
}

describe('the money path under random sequences of clicks, retries, crashes and faults', () => {
  it('keeps every invariant after the reconciler has run', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 10 }), async (steps) => {
        const h = await startChargeHarness({ dynamoFaults: true, dailyCap: 5000 });
        try {
          const commands = await play(h, steps);
          counts.dynamoFaults += (h.proxy?.stats().failed ?? 0) + (h.proxy?.stats().lost ?? 0);
          h.sim.clearFaults();
          await h.reconcileLater();
          counts.sequences++;
          expect(await brokenInvariants(h, commands)).toEqual([]);
        } finally {
          await h.close();
        }
      }),
      { seed: 20261123, numRuns: 60, interruptAfterTimeLimit: 90_000, endOnFailure: true },
    );
    console.info(
      `model: ${counts.sequences} sequences, ${counts.steps} steps; faults tried: ${counts.dynamoFaults} DynamoDB, ${counts.kills} workers killed, ${counts.serviceFaults} service, ${counts.replays} replayed commands`,
    );
    expect(counts.sequences).toBeGreaterThanOrEqual(10);
  }, 150_000);
});
