import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINKEDIN_ACTIVITY_ASSUMED_MAX } from '../../../src/domain/charging.ts';
import {
  confirm,
  type ConfirmationDeps,
  runCharge,
  storedOutcome,
} from '../../../src/domain/confirmations.ts';
import { requestLinkedinActivity } from '../../../src/domain/linkedin-activity.ts';
import { createEisClient } from '../../../src/eis/index.ts';
import { createMemoryLogger } from '../../../src/platform/log.ts';
import { type Simulator, startSimulator } from '../../../simulator/server.ts';
import { utcDate } from '../../../src/time/local-time.ts';
import { createTestStore } from '../../support/store-support.ts';

const ACCOUNT = 'acct-linkedin';
const ALICE = { teamId: 'T1', channelId: 'C1', userId: 'U1', membership: 'member' } as const;
const LINKEDIN_ROUTE = 'POST /external/personnel/unlock-linkedin-activity';

/**
 * Answers held back until `release`. `accountedFor(runs)` resolves once every run either waits here
 * for its answer or has finished (a run refused by the cap never calls the service).
 */
function heldBack() {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let waiting = 0;
  let changed = () => {};
  return {
    held: () => {
      waiting += 1;
      changed();
      return released;
    },
    /** How many answers wait. */
    waiting: () => waiting,
    accountedFor: (runs: readonly Promise<unknown>[]) =>
      new Promise<void>((resolve) => {
        let finished = 0;
        changed = () => {
          if (waiting + finished === runs.length) resolve();
        };
        for (const run of runs)
          void run.finally(() => {
            finished += 1;
            changed();
          });
      }),
    release: () => release(),
  };
}

describe('LinkedIn activity (no published price) under the daily credit cap', () => {
  let sim: Simulator;
  let apiKey: string;
  beforeAll(async () => {
    sim = await startSimulator({ latencyMs: 0 });
    apiKey = 'sk_test_linkedin_cap';
    sim.addKey(apiKey, { balance: 20_000 });
  });
  afterAll(() => sim.close());

  it('lets concurrent confirmations start only while their assumed prices fit under the cap, refusing the rest uncharged', async () => {
    // Prepare: 2 reservations fit in a cap of 350, not 3; the service answers slowly, so all are in flight at once.
    const { store, clock } = await createTestStore();
    const eis = createEisClient({ baseUrl: sim.url, apiKey, logger: createMemoryLogger() });
    // The service's answers held until the test has read the reservations with the calls in flight.
    const answers = heldBack();
    const deps: ConfirmationDeps = {
      eis: {
        ...eis,
        personnel: {
          ...eis.personnel,
          unlockLinkedinActivity: async (...args) => {
            const answer = await eis.personnel.unlockLinkedinActivity(...args);
            await answers.held();
            return answer;
          },
        },
      },
      confirmations: store.confirmations,
      charges: store.charges,
      policyIn: () => Promise.resolve({ approvers: [], dailyCap: 350 }),
      accountId: ACCOUNT,
      logger: createMemoryLogger(),
      now: clock.now,
    };
    const person = sim.seed.personnel.find((p) => p.linked);
    if (!person) throw new Error('no person');
    const requested = await Promise.all(
      Array.from({ length: 5 }, () => requestLinkedinActivity({ personnelIds: [person.id] }, ALICE, deps)),
    );
    for (const { confirmation } of requested) {
      expect(confirmation.price.credits).toBe(LINKEDIN_ACTIVITY_ASSUMED_MAX);
      expect(await confirm(confirmation.id, ALICE, deps)).toMatchObject({ kind: 'claimed' });
    }
    const since = sim.requests().length;

    // Act: every charge run at once; the reservations read while the calls that started are unanswered.
    const runs = requested.map(({ confirmation }) => runCharge(confirmation.id, deps));
    await answers.accountedFor(runs);
    const answersHeld = answers.waiting();
    const reservedInFlight = await store.charges.spent(ACCOUNT, utcDate(clock.now()));
    answers.release();
    const results = await Promise.all(runs);

    // Assess
    expect(answersHeld).toBe(2);
    expect(reservedInFlight).toBeLessThanOrEqual(350);
    const calls = sim
      .requests()
      .slice(since)
      .filter((r) => `${r.method} ${r.path}` === LINKEDIN_ROUTE);
    expect(calls).toHaveLength(2);
    const capped = results.flatMap((result) =>
      result.kind === 'settled' && storedOutcome(result.confirmation).reason === 'daily-cap'
        ? [result.confirmation]
        : [],
    );
    expect(capped).toHaveLength(3);
    for (const confirmation of capped) {
      expect(confirmation.status).toBe('failed');
      expect(storedOutcome(confirmation)).toMatchObject({ creditsSpent: 0 });
      expect(storedOutcome(confirmation).message).toContain('Nothing was charged');
    }
    // The simulator charges nothing for it: once settled, the reservations are released.
    expect(await store.charges.spent(ACCOUNT, utcDate(clock.now()))).toBe(0);
  }, 30_000);

  it('refuses to start at all when the cap has no room for the assumed price', async () => {
    // Prepare
    const { store, clock } = await createTestStore();
    const deps: ConfirmationDeps = {
      eis: createEisClient({ baseUrl: sim.url, apiKey, logger: createMemoryLogger() }),
      confirmations: store.confirmations,
      charges: store.charges,
      policyIn: () => Promise.resolve({ approvers: [], dailyCap: LINKEDIN_ACTIVITY_ASSUMED_MAX - 1 }),
      accountId: ACCOUNT,
      logger: createMemoryLogger(),
      now: clock.now,
    };
    const person = sim.seed.personnel.find((p) => p.linked);
    if (!person) throw new Error('no person');
    const { confirmation } = await requestLinkedinActivity({ personnelIds: [person.id] }, ALICE, deps);
    await confirm(confirmation.id, ALICE, deps);
    const since = sim.requests().length;

    // Act
    const result = await runCharge(confirmation.id, deps);

    // Assess
    expect(result.kind).toBe('settled');
    if (result.kind !== 'settled') return;
    expect(storedOutcome(result.confirmation)).toMatchObject({ reason: 'daily-cap', creditsSpent: 0 });
    expect(sim.requests().slice(since)).toEqual([]);
  });
});
