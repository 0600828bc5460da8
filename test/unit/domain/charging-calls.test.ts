import { describe, expect, it } from 'vitest';
import { type ChargeAction, type ChargeEis, PRECHECK_ACTION } from '../../../src/domain/charging.ts';
import type { ChargeOutcome } from '../../../src/domain/charge-outcome.ts';
import { executeCharge } from '../../../src/domain/charge-run.ts';
import { chargeOutcomeLines } from '../../../src/slack/kit/charge-words.ts';

interface RecordedCall {
  method: string;
  args: unknown[];
  /** Made through the client object rather than a detached method, which would lose `this`. */
  onItsObject: boolean;
}

/** A fake client whose charging methods record each call and answer `reply`. */
function fakeEis(reply: unknown) {
  const calls: RecordedCall[] = [];
  const api = (name: string, methods: string[]) => {
    const object: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
    for (const method of methods) {
      object[method] = function (this: unknown, ...args: unknown[]) {
        calls.push({ method: `${name}.${method}`, args, onItsObject: this === object });
        return Promise.resolve(reply);
      };
    }
    return object;
  };
  const eis = {
    events: api('events', ['unlock', 'unlockVisitors', 'unlockFullAccess']),
    contacts: api('contacts', ['unlockEmails', 'unlockPhones']),
    personnel: api('personnel', ['eventsByName', 'unlockLinkedinActivity']),
    exhibitors: api('exhibitors', ['searchEvents', 'searchByCompanyName']),
    // Free reads, not recorded: the balance before and after a charge whose answer has no amount, or
    // after one whose answer has no balance.
    credits: { balance: () => Promise.resolve({ ...balance, totalBalance: balances.shift() ?? 0 }) },
  };
  const balances = [8000, 7990];
  // Only the charging methods exist, so a call to any other one fails the test.
  return { eis: eis as unknown as ChargeEis, calls };
}

const expo = { id: 'ev-1', eventId: 'ev-1', name: 'Expo' };
const balance = { totalBalance: 8000, subscriptionBalance: 8000, permanentBalance: 0, unlimited: false };
const eventPage = { items: [expo], total: 1, page: 1, pageSize: 20, totalPages: 1, hasMore: false };
const emptyPage = { items: [], total: 0, page: 1, pageSize: 20, totalPages: 0, hasMore: false };
const exhibitorPage = {
  items: [
    { id: 'x1', companyName: 'Acme', matched_event_ids: ['ev-1'] },
    { id: 'x2', companyName: 'Acme Ltd', matched_event_ids: [] },
  ],
  total: 2,
  page: 1,
  pageSize: 20,
  totalPages: 1,
  hasMore: false,
};

interface CallCase {
  action: ChargeAction;
  method: string;
  args: unknown[];
  reply: unknown;
  /** The outcome, its facts as the card words them. */
  outcome: Omit<ChargeOutcome, 'facts'> & { summary: string[] };
}

const CASES: CallCase[] = [
  {
    action: { kind: 'event-unlock', eventId: 'ev-1' },
    method: 'events.unlock',
    args: ['ev-1'],
    reply: { success: true, alreadyUnlocked: false, creditsSpent: 2000, balanceAfter: balance, event: expo },
    outcome: { creditsSpent: 2000, balanceAfter: 8000, summary: ['Event unlocked for Expo.'] },
  },
  {
    action: { kind: 'visitors-unlock', eventId: 'ev-2' },
    method: 'events.unlockVisitors',
    args: ['ev-2'],
    reply: {
      success: true,
      alreadyUnlocked: true,
      creditsSpent: 0,
      balanceAfter: null,
      event: { id: 'ev-2', eventId: 'ev-2', name: null },
    },
    outcome: { creditsSpent: 0, balanceAfter: 8000, summary: ['Visitors for ev-2 was already unlocked.'] },
  },
  {
    action: { kind: 'full-access-unlock', eventId: 'ev-1' },
    method: 'events.unlockFullAccess',
    args: ['ev-1'],
    reply: { success: true, alreadyUnlocked: false, creditsSpent: 5000, balanceAfter: balance, event: expo },
    outcome: { creditsSpent: 5000, balanceAfter: 8000, summary: ['Full access unlocked for Expo.'] },
  },
  {
    action: { kind: 'email-unlock', personnelIds: ['11', '12', '13'] },
    method: 'contacts.unlockEmails',
    args: [['11', '12', '13']],
    reply: {
      status: 'accepted',
      taskId: '900',
      creditsSpent: null,
      skipped_detail: { already_unlocked_personnel_ids: ['13'] },
    },
    outcome: {
      // not reported by the service: the list price of the two contacts it accepted
      creditsSpent: 30,
      balanceAfter: 8000,
      summary: ['Unlocking 2 emails… (1 skipped: 1 already unlocked) Results will arrive in this thread.'],
      task: { taskId: '900', kind: 'email', skipped: [{ personnelId: '13', reason: 'already unlocked' }] },
    },
  },
  {
    action: { kind: 'phone-unlock', personnelIds: ['21'] },
    method: 'contacts.unlockPhones',
    args: [['21']],
    reply: { status: 'success', taskId: null, creditsSpent: null },
    outcome: { creditsSpent: 0, balanceAfter: 8000, summary: ['Nothing to unlock.'] },
  },
  {
    action: { kind: 'people-by-name', fullName: 'Jane Smith' },
    method: 'personnel.eventsByName',
    args: [{ personName: 'Jane Smith', page: 1, pageSize: 40 }],
    reply: eventPage,
    outcome: {
      creditsSpent: 50,
      balanceAfter: 8000,
      summary: ['Found 1 match: events of people named “Jane Smith”.'],
      results: { kind: 'events', page: eventPage },
    },
  },
  {
    action: { kind: 'exhibitor-events', companyName: 'Acme' },
    method: 'exhibitors.searchEvents',
    args: [{ companyName: 'Acme', page: 1, pageSize: 40 }],
    reply: emptyPage,
    outcome: {
      creditsSpent: 0,
      balanceAfter: 8000,
      summary: ['No events where “Acme” exhibits: nothing was charged.'],
      results: { kind: 'events', page: emptyPage },
    },
  },
  {
    action: { kind: 'exhibitor-search', companyName: 'Acme' },
    method: 'exhibitors.searchByCompanyName',
    args: [{ companyName: 'Acme', page: 1, pageSize: 40 }],
    reply: exhibitorPage,
    outcome: {
      creditsSpent: 50,
      balanceAfter: 8000,
      summary: ['Found 2 matches: exhibitor records for “Acme”.'],
      results: { kind: 'exhibitors', page: exhibitorPage },
    },
  },
  {
    action: { kind: 'linkedin-activity', personnelIds: ['31', '32'], threadTs: '1.2' },
    method: 'personnel.unlockLinkedinActivity',
    args: [['31', '32']],
    reply: {
      items: [
        { personnel_id: '31', success: true },
        { personnel_id: '32', success: false, error: 'no_linkedin_profile' },
      ],
    },
    outcome: {
      // no amount in the answer: the balance's drop
      creditsSpent: 10,
      balanceAfter: 7990,
      summary: [
        'Analysing 1 person… Results will arrive in this thread.',
        '1 skipped (no_linkedin_profile).',
        'Credits spent, from the balance before and after: 10.',
      ],
      task: {
        taskId: expect.stringMatching(/^linkedin-/) as string,
        kind: 'email',
        skipped: [],
        personnelIds: ['31'],
        followUp: { kind: 'linkedin' },
      },
    },
  },
];

describe('charging: the service call of each kind of action', () => {
  it('has a case here for every kind', () => {
    // Assess
    expect(CASES.map((c) => c.action.kind).sort()).toEqual(Object.keys(PRECHECK_ACTION).sort());
  });

  it.each(CASES)(
    'calls $method once and reads its reply',
    async ({ action, method, args, reply, outcome }) => {
      // Prepare
      const { eis, calls } = fakeEis(reply);

      // Act
      const { facts, ...result } = await executeCharge(action, eis);

      // Assess
      expect(calls).toEqual([{ method, args, onItsObject: true }]);
      expect({ ...result, summary: chargeOutcomeLines({ facts }) }).toStrictEqual(outcome);
    },
  );

  it('gives a null balance after a charge whose reply has none when the balance cannot be read either', async () => {
    // Prepare
    const { eis } = fakeEis(eventPage);
    const unreadable: ChargeEis = { ...eis, credits: { balance: () => Promise.reject(new Error('down')) } };

    // Act
    const result = await executeCharge({ kind: 'people-by-name', fullName: 'Jane Smith' }, unreadable);

    // Assess
    expect(result).toMatchObject({ creditsSpent: 50, balanceAfter: null });
  });
});
