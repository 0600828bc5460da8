import { describe, expect, it } from 'vitest';
import * as approval from '../../../src/domain/approval.ts';
import { approvalRefusalWords } from '../../../src/slack/kit/approval-words.ts';
import type { Confirmation } from '../../../src/domain/ports/index.ts';
import { confirm } from '../../../src/domain/confirmations.ts';

// The rule is the domain's, the words Slack's: each check reads what the clicker is told.
type Decide = (...args: Parameters<typeof approval.confirmRefusal>) => string | null;
const worded =
  (decide: typeof approval.confirmRefusal): Decide =>
  (...args) => {
    const refusal = decide(...args);
    return refusal && approvalRefusalWords(refusal);
  };
const confirmRefusal = worded(approval.confirmRefusal);
const cancelRefusal = worded(approval.cancelRefusal);

const confirmation = (credits: number): Confirmation => ({
  type: 'confirmation',
  id: 'c1',
  teamId: 'T1',
  channelId: 'C1',
  requestedBy: 'U0ALICE',
  action: { kind: 'event-unlock', eventId: '26855' },
  price: { credits, upTo: false },
  status: 'pending',
  createdAt: '2031-05-14T10:00:00.000Z',
  deadline: '2031-05-14T10:15:00.000Z',
  expiresAt: 1_950_000_000,
});
const alice = { userId: 'U0ALICE', teamId: 'T1', membership: 'member' } as const;
const boss = { userId: 'U0BOSS', teamId: 'T1', membership: 'member' } as const;
const bob = { userId: 'U0BOB', teamId: 'T1', membership: 'member' } as const;

describe('who may decide a confirmation', () => {
  it('lets the requester or an approver confirm below the approval threshold, nobody else', () => {
    const policy = { approvers: ['U0BOSS'], approvalThreshold: 1000 };

    expect(confirmRefusal(confirmation(999), alice, policy)).toBeNull();
    expect(confirmRefusal(confirmation(999), boss, policy)).toBeNull();
    expect(confirmRefusal(confirmation(999), bob, policy)).toBe(
      'Only <@U0ALICE> or an approver can confirm this.',
    );
  });

  it('needs an approver other than the requester at or above the threshold, even when the requester is one', () => {
    const policy = { approvers: ['U0BOSS', 'U0ALICE'], approvalThreshold: 1000 };

    expect(confirmRefusal(confirmation(1000), alice, policy)).toContain('<@U0BOSS>');
    expect(confirmRefusal(confirmation(1000), alice, policy)).not.toContain('<@U0ALICE>');
    expect(confirmRefusal(confirmation(1000), boss, policy)).toBeNull();
    expect(cancelRefusal(confirmation(1000), alice, policy)).toBeNull();
  });

  it('says so when no approver is set up for a charge above the threshold', () => {
    expect(confirmRefusal(confirmation(5000), alice, { approvers: [], approvalThreshold: 1 })).toContain(
      'none is set up',
    );
  });

  it('refuses a click from another workspace, whoever it is', () => {
    const policy = { approvers: ['U0BOSS'] };
    const elsewhere = { ...alice, teamId: 'T2' };

    expect(confirmRefusal(confirmation(10), elsewhere, policy)).toBe(
      'This confirmation belongs to another workspace.',
    );
    expect(cancelRefusal(confirmation(10), { ...boss, teamId: 'T2' }, policy)).toBe(
      'This confirmation belongs to another workspace.',
    );
  });

  it('never lets a guest from another organisation confirm, nor cancel as an approver, whatever list names them', () => {
    const policy = { approvers: ['U0BOSS', 'U0ALICE'] };
    const guestBoss = { ...boss, membership: 'outsider' } as const;
    const guestAlice = { ...alice, membership: 'outsider' } as const;
    const guest = 'You are a guest from another organisation here: only members of this workspace can';

    expect(confirmRefusal(confirmation(10), guestBoss, policy)).toBe(`${guest} confirm charges.`);
    expect(confirmRefusal(confirmation(10), guestAlice, policy)).toBe(`${guest} confirm charges.`);
    expect(cancelRefusal(confirmation(10), guestBoss, policy)).toBe(`${guest} cancel someone else’s charge.`);
    expect(cancelRefusal(confirmation(10), guestAlice, policy)).toBeNull();
    expect(confirmRefusal(confirmation(10), { ...boss, membership: 'unknown' }, policy)).toMatch(
      /^Slack did not answer in time/,
    );
  });
});

describe('who a pending card names as able to confirm', () => {
  it('is the requester and the other approvers below the threshold, only the other approvers at or above it', () => {
    // Prepare
    const policy = { approvers: ['U0BOSS', 'U0ALICE', 'U0CAROL'], approvalThreshold: 1000 };

    // Act
    const under = approval.whoMayConfirm({ credits: 45 }, 'U0ALICE', policy);
    const over = approval.whoMayConfirm({ credits: 2000 }, 'U0ALICE', policy);

    // Assess: the same people `confirmRefusal` lets through
    expect(under).toEqual({ requestedBy: 'U0ALICE', approvers: ['U0BOSS', 'U0CAROL'] });
    expect(over).toEqual({ approvers: ['U0BOSS', 'U0CAROL'] });
    expect(confirmRefusal(confirmation(2000), alice, policy)).not.toBeNull();
    expect(confirmRefusal(confirmation(2000), boss, policy)).toBeNull();
  });
});

describe('a click decided by the approvers of the confirmation’s channel', () => {
  /** Approvers differ by channel: Bob approves in C-FINANCE only (as a channel-scoped kind of approver would say). */
  const policyIn = (channelId: string) =>
    Promise.resolve({ approvers: channelId === 'C-FINANCE' ? ['U0BOB'] : [], approvalThreshold: 1 });
  const stored = (channelId: string): Confirmation => ({ ...confirmation(100), channelId });
  const confirmationsOf = (c: Confirmation) => ({
    get: () => Promise.resolve(c),
    claim: () => Promise.resolve({ kind: 'claimed' as const, confirmation: { ...c, status: 'running' as const } }),
    expire: () => Promise.resolve(null),
    cancel: () => Promise.resolve({ kind: 'cancelled' as const, confirmation: { ...c, status: 'cancelled' as const } }),
  });

  it('lets an approver of its channel confirm, wherever the click comes from, and no one elsewhere', async () => {
    const asked: string[] = [];
    const deps = (c: Confirmation) => ({
      confirmations: confirmationsOf(c) as never,
      policyIn: (channelId: string) => (asked.push(channelId), policyIn(channelId)),
    });

    const inFinance = await confirm('c1', bob, deps(stored('C-FINANCE')));
    const elsewhere = await confirm('c1', bob, deps(stored('C-GENERAL')));

    expect(inFinance.kind).toBe('claimed');
    expect(elsewhere.kind).toBe('not-allowed');
    expect(asked).toEqual(['C-FINANCE', 'C-GENERAL']);
  });
});
