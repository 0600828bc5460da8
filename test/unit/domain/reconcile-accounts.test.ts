import { describe, expect, it } from 'vitest';
import type { Confirmation, Settlement } from '../../../src/domain/ports/index.ts';
import { type ReconcileDeps, reconcileConfirmations } from '../../../src/domain/reconcile.ts';
import { createMemoryLogger } from '../../../src/platform/log.ts';
import { failureWords } from '../../../src/slack/kit/recorded-card.ts';

/** An event unlock of 2,000 credits charged on account X, whose worker died before settling it. */
const chargedOnX: Confirmation = {
  type: 'confirmation',
  id: 'conf-9',
  teamId: 'T1',
  channelId: 'C1',
  requestedBy: 'U1',
  confirmedBy: 'U1',
  action: { kind: 'event-unlock', eventId: '26855' },
  price: { credits: 2000, upTo: false },
  status: 'running',
  createdAt: '2027-03-01T10:00:00.000Z',
  deadline: '2027-03-01T10:15:00.000Z',
  expiresAt: 1_804_000_000,
  claimedAt: '2027-03-01T10:01:00.000Z',
  chargeStartedAt: '2027-03-01T10:01:00.000Z',
  chargeAccount: 'acct-X',
  chargeDay: '2027-03-01',
  reserved: 2000,
};

const NOT_UNLOCKED = { reason_code: 'ok', should_charge: true, credits: 2000 };
const ALREADY_UNLOCKED = { reason_code: 'already_unlocked', should_charge: false, credits: 0 };

/**
 * The reconciler over one dying charge, with the service of `accountId` (or none) answering
 * `precheck` ("not unlocked" unless told), and `payer` recorded as the confirmation that paid for
 * the unlock on the account (none unless told).
 */
function reconcilerWith(
  accountId: string | null,
  { precheck = NOT_UNLOCKED, payer = null }: { precheck?: object; payer?: string | null } = {},
) {
  const settlements: Settlement[] = [];
  const prechecks: unknown[] = [];
  const payersAsked: unknown[] = [];
  const eis = {
    actions: {
      precheck: (input: unknown) => {
        prechecks.push(input);
        return Promise.resolve(precheck);
      },
    },
  } as unknown as NonNullable<ReconcileDeps['service']>['eis'];
  const deps: ReconcileDeps = {
    confirmations: {
      due: () => Promise.resolve([chargedOnX]),
      get: () => Promise.resolve(chargedOnX),
      expire: () => Promise.resolve(null),
      abandon: () => Promise.resolve(false),
      cardShown: () => Promise.resolve(),
      askAgain: () => Promise.resolve(),
    },
    charges: {
      resolve: () => Promise.resolve(null),
      unlockedBy: (...asked: unknown[]) => {
        payersAsked.push(asked);
        return Promise.resolve(payer);
      },
      settle: (_id: string, settlement: Settlement) => {
        settlements.push(settlement);
        return Promise.resolve({ ...chargedOnX, status: settlement.status, outcome: settlement.outcome });
      },
    },
    service: accountId ? { accountId, eis } : null,
    showCard: () => Promise.resolve(),
    logger: createMemoryLogger(),
    now: () => new Date('2027-03-01T11:00:00.000Z'),
  };
  return { deps, settlements, prechecks, payersAsked };
}

describe('reconcileConfirmations asks the service only with the account a charge was made on', () => {
  it.each([
    ['another account’s key is connected', 'acct-Y'],
    ['no key is connected', null],
  ] as const)(
    'settles as outcome unknown at the reserved price, without asking, when %s',
    async (_what, account) => {
      // Prepare
      const { deps, settlements, prechecks } = reconcilerWith(account);

      // Act
      const report = await reconcileConfirmations(deps);

      // Assess
      expect(report.settled).toBe(1);
      expect(prechecks).toEqual([]);
      expect(settlements[0]?.ledger).toEqual({ status: 'unknown', credits: 2000 });
      // What the card says of it (the domain stores the reason; Slack words it).
      const message = failureWords({ ...chargedOnX, status: 'failed', outcome: settlements[0]?.outcome });
      expect(message).toContain('up to 2,000 credits may have been spent');
      expect(message).toContain('service account that was connected when this was confirmed');
      expect(message).not.toMatch(/nothing was charged/i);
    },
  );

  it('asks the service when the key of the charge’s own account is connected', async () => {
    // Prepare
    const { deps, settlements, prechecks } = reconcilerWith('acct-X');

    // Act
    await reconcileConfirmations(deps);

    // Assess: the service's "not unlocked" is X's own answer, so nothing was charged.
    expect(prechecks).toHaveLength(1);
    expect(settlements[0]?.ledger).toEqual({ status: 'refused', credits: 0 });
  });
});

describe('reconcileConfirmations on a service account two workspaces share', () => {
  it('books nothing when the unlock is recorded as paid by another workspace’s confirmation', async () => {
    // Prepare: T1's worker died before its call; T0's charge, on the same account, unlocked the event.
    const { deps, settlements, payersAsked } = reconcilerWith('acct-X', {
      precheck: ALREADY_UNLOCKED,
      payer: 'conf-of-T0',
    });

    // Act
    await reconcileConfirmations(deps);

    // Assess: the payer is looked up on the charge's account, for this unlock.
    expect(payersAsked).toEqual([['acct-X', { action: 'event-unlock', eventId: '26855' }]]);
    expect(settlements[0]?.ledger).toEqual({ status: 'refused', credits: 0 });
    expect(settlements[0]?.unlocked).toBeUndefined();
    const message = failureWords({ ...chargedOnX, status: 'failed', outcome: settlements[0]?.outcome });
    expect(message).toContain('nothing was charged for this');
    expect(message).toContain('another request on the same service account had already unlocked it');
  });

  it('books the charge, and names itself the unlock’s payer, when no other confirmation paid for it', async () => {
    // Prepare
    const { deps, settlements } = reconcilerWith('acct-X', { precheck: ALREADY_UNLOCKED });

    // Act
    await reconcileConfirmations(deps);

    // Assess
    expect(settlements[0]?.ledger).toEqual({ status: 'charged', credits: 2000 });
    expect(settlements[0]?.unlocked).toEqual({ action: 'event-unlock', eventId: '26855' });
  });
});
