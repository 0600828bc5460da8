import { describe, expect, it } from 'vitest';
import type { Confirmation, Settlement } from '../../../src/domain/ports/index.ts';
import { type ReconcileDeps, reconcileConfirmations } from '../../../src/domain/reconcile.ts';
import { createMemoryLogger } from '../../../src/platform/log.ts';
import { failureWords } from '../../../src/slack/kit/recorded-card.ts';

const started: Confirmation = {
  type: 'confirmation',
  id: 'conf-7',
  teamId: 'T1',
  channelId: 'C1',
  requestedBy: 'U1',
  confirmedBy: 'U1',
  action: { kind: 'linkedin-activity', personnelIds: ['100001'], names: { '100001': 'Jane Smith' } },
  price: { credits: 0, upTo: true },
  status: 'running',
  createdAt: '2027-03-01T10:00:00.000Z',
  deadline: '2027-03-01T10:15:00.000Z',
  expiresAt: 1_804_000_000,
  claimedAt: '2027-03-01T10:01:00.000Z',
  chargeStartedAt: '2027-03-01T10:01:00.000Z',
  chargeAccount: 'acct-1',
  reserved: 0,
};

describe('reconcileConfirmations for a LinkedIn activity charge whose worker died', () => {
  it('settles it as outcome unknown without a precheck, and never says "up to 0 credits"', async () => {
    // Prepare
    const settlements: Settlement[] = [];
    const prechecks: unknown[] = [];
    const deps: ReconcileDeps = {
      confirmations: {
        due: () => Promise.resolve([started]),
        get: () => Promise.resolve(started),
        expire: () => Promise.resolve(null),
        abandon: () => Promise.resolve(false),
        cardShown: () => Promise.resolve(),
        askAgain: () => Promise.resolve(),
      },
      charges: {
        resolve: () => Promise.resolve(null),
        unlockedBy: () => Promise.resolve(null),
        settle: (_id: string, settlement: Settlement) => {
          settlements.push(settlement);
          return Promise.resolve({ ...started, status: settlement.status, outcome: settlement.outcome });
        },
      },
      service: {
        accountId: 'acct-1',
        eis: {
          actions: {
            precheck: (input: unknown) => {
              prechecks.push(input);
              return Promise.reject(new Error('no precheck for this kind'));
            },
          },
        },
      },
      showCard: () => Promise.resolve(),
      logger: createMemoryLogger(),
      now: () => new Date('2027-03-01T11:00:00.000Z'),
    };

    // Act
    const report = await reconcileConfirmations(deps);

    // Assess
    expect(report.settled).toBe(1);
    expect(prechecks).toEqual([]);
    const [settlement] = settlements;
    expect(settlement?.status).toBe('failed');
    expect(settlement?.ledger).toEqual({ status: 'unknown', credits: 0 });
    // What the card says of it (the domain stores the reason; Slack words it).
    const message = failureWords({ ...started, status: 'failed', outcome: settlement?.outcome });
    expect(message).toContain('the service publishes no price');
    expect(message).not.toMatch(/up to 0/i);
  });
});
