import { describe, expect, it } from 'vitest';
import { parseQuarter } from '../../../src/domain/periods.ts';
import {
  addShow,
  EMPTY_PLAN,
  PLAN_LIMITS,
  pastWarningLine,
  planCosts,
  planSpend,
  removeShow,
  setBudget,
  withServiceDates,
} from '../../../src/domain/plan/index.ts';
import { unlockCostOf } from '../../../src/domain/unlock-cost.ts';
import type { LedgerEntry, PlanShow } from '../../../src/domain/ports/index.ts';

const show = (eventId: string, dateStart: string | null = '2027-05-10'): PlanShow => ({
  eventId,
  name: `Show ${eventId}`,
  dateStart,
  dateEnd: dateStart,
  city: 'Berlin',
  addedBy: 'U1',
  addedAt: '2027-01-01T00:00:00.000Z',
});

const entry = (input: Partial<LedgerEntry>): LedgerEntry => ({
  type: 'ledger-entry',
  id: 'e',
  teamId: 'T1',
  channelId: 'C1',
  requestedBy: 'U1',
  confirmedBy: 'U1',
  action: 'event-unlock',
  credits: 2000,
  status: 'charged',
  at: '2027-05-02T10:00:00.000Z',
  expiresAt: 1,
  ...input,
});

const Q2 = parseQuarter('Q2-2027');
if (!Q2) throw new Error('Q2-2027 does not read');

describe('a plan’s shows', () => {
  it('adds a show once: a second add says it is already there and writes nothing', () => {
    const first = addShow(EMPTY_PLAN, show('1'));
    expect(first.result.outcome).toBe('added');
    const second = addShow(first.next ?? EMPTY_PLAN, show('1'));
    expect(second).toEqual({ result: { outcome: 'already', show: show('1') } });
  });

  it('refuses a show past the bound, leaving the plan as it is', () => {
    const full = {
      ...EMPTY_PLAN,
      shows: Array.from({ length: PLAN_LIMITS.shows }, (_, i) => show(String(i))),
    };
    expect(addShow(full, show('new'))).toEqual({ result: { outcome: 'full', limit: PLAN_LIMITS.shows } });
  });

  it('removes a show it has, and says when it has none by that id', () => {
    const plan = { ...EMPTY_PLAN, shows: [show('1'), show('2')] };
    expect(removeShow(plan, '1').next?.shows.map((s) => s.eventId)).toEqual(['2']);
    expect(removeShow(plan, '3')).toEqual({ result: { outcome: 'absent' } });
  });

  it('sets a quarter’s budget, and 0 removes it', () => {
    const at = new Date('2027-01-02T00:00:00.000Z');
    const set = setBudget(EMPTY_PLAN, Q2, 20_000, 'U1', at).next;
    expect(set?.budgets).toEqual({ 'Q2-2027': { credits: 20_000, setBy: 'U1', setAt: at.toISOString() } });
    expect(setBudget(set ?? EMPTY_PLAN, Q2, 0, 'U1', at).next?.budgets).toEqual({});
  });
});

describe('what unlocking costs', () => {
  it('reads the precheck: unlocked is free, a price stands, a refusal is not offered, none is the list price', () => {
    expect(unlockCostOf({ reason_code: 'already_unlocked', credits: 0 }, 2000)).toEqual({
      state: 'unlocked',
    });
    expect(unlockCostOf({ reason_code: 'ok', credits: 1800 }, 2000)).toEqual({
      state: 'locked',
      credits: 1800,
      estimated: false,
    });
    expect(unlockCostOf({ reason_code: 'no_contacts_available', credits: 0 }, 2000)).toEqual({
      state: 'not-offered',
      reason: 'no_contacts_available',
    });
    expect(unlockCostOf(null, 2000)).toEqual({ state: 'locked', credits: 2000, estimated: true });
  });

  it('totals the locked shows by quarter against each budget, undated shows apart', () => {
    const locked = { state: 'locked', credits: 2000, estimated: false } as const;
    const costs = planCosts(
      [
        { dateStart: '2027-05-10', cost: locked },
        { dateStart: '2027-06-30', cost: { state: 'unlocked' } },
        { dateStart: '2027-08-01', cost: locked },
        { dateStart: null, cost: locked },
      ],
      { 'Q2-2027': { credits: 5000, setBy: 'U1', setAt: '2027-01-01T00:00:00.000Z' } },
      { quarters: { 'Q2-2027': { onShows: 1000, onRemovedShows: 0, other: 300 } }, undated: 500 },
    );
    expect(
      costs.quarters.map((q) => [q.quarter.key, q.shows, q.locked, q.toUnlock, q.spent, q.otherSpent]),
    ).toEqual([
      ['Q2-2027', 2, 1, 2000, 1000, 300],
      ['Q3-2027', 1, 1, 2000, 0, 0],
    ]);
    expect(costs.quarters[0]?.budget?.credits).toBe(5000);
    expect(costs.undated).toEqual({ shows: 1, locked: 1, toUnlock: 2000, estimated: false, spent: 500 });
    expect(costs.toUnlock).toBe(6000);
  });
});

describe('the dates the service gives now', () => {
  it('moves the shows the service moved, keeps dates it no longer gives, and writes nothing when none moved', () => {
    const current = { shows: [show('1'), show('2'), show('3')], budgets: {} };
    const dates = new Map([
      ['1', { dateStart: '2027-07-02', dateEnd: '2027-07-03' }],
      ['2', { dateStart: null, dateEnd: null }],
      ['3', { dateStart: '2027-05-10', dateEnd: '2027-05-10' }],
    ]);

    const edit = withServiceDates(current, dates);

    expect(edit.result).toEqual({ moved: 1 });
    expect(edit.next?.shows.map((s) => [s.eventId, s.dateStart, s.dateEnd])).toEqual([
      ['1', '2027-07-02', '2027-07-03'],
      ['2', '2027-05-10', '2027-05-10'],
      ['3', '2027-05-10', '2027-05-10'],
    ]);
    expect(withServiceDates(current, new Map([['3', show('3')]]))).toEqual({ result: { moved: 0 } });
  });
});

describe('the plan’s budget rule and its warning line', () => {
  it('counts what was spent on each quarter’s shows whenever it was charged, the channel’s other spend apart', () => {
    const plan = { channelId: 'C1', shows: [show('1'), show('2', '2027-08-01'), show('3', null)] };
    const entries = [
      entry({ eventId: '1', at: '2026-11-20T10:00:00.000Z' }), // a Q2 show prepared in November
      entry({ eventId: '1', action: 'email-unlock', credits: 50, at: '2026-11-21T10:00:00.000Z' }),
      entry({ eventId: '2', credits: 700 }),
      entry({ eventId: '3', credits: 40 }),
      entry({ eventId: '9', credits: 300, at: '2026-11-22T10:00:00.000Z' }), // not on the plan
      entry({ credits: 20 }), // a search: names no show
      entry({ eventId: '1', channelId: 'C2' }), // another channel's
      entry({ eventId: '1', status: 'pending' }),
      entry({ eventId: '1', status: 'refused', credits: 0 }),
      entry({ eventId: '1', status: 'unknown', credits: 150 }),
      entry({ eventId: '1', status: undefined, credits: 5 }), // written whole, before statuses
    ];

    const spend = planSpend(plan, entries);

    expect(spend.quarters).toEqual({
      'Q2-2027': { onShows: 2205, onRemovedShows: 0, other: 20 },
      'Q3-2027': { onShows: 700, onRemovedShows: 0, other: 0 },
      'Q4-2026': { onShows: 0, onRemovedShows: 0, other: 300 },
    });
    expect(spend.undated).toBe(40);
    // A show removed from the plan keeps its spend in its quarter, marked apart.
    const afterRemoval = removeShow({ ...EMPTY_PLAN, shows: plan.shows }, '1').next;
    const removed = planSpend({ channelId: 'C1', shows: [], ...afterRemoval }, entries);
    expect(removed.quarters['Q2-2027']).toEqual({ onShows: 2205, onRemovedShows: 2205, other: 20 });
    // Re-added, it is on the plan again and no longer marked.
    const readded = addShow(afterRemoval ?? EMPTY_PLAN, show('1')).next;
    expect(readded?.removed).toBeUndefined();
    expect(
      planSpend({ channelId: 'C1', shows: [], ...readded }, entries).quarters['Q2-2027']?.onRemovedShows,
    ).toBe(0);
    // A show taken off before removed shows were kept: its spend is the channel's other spend.
    const forgotten = planSpend({ ...plan, shows: [show('2', '2027-08-01')] }, entries);
    expect(forgotten.quarters['Q2-2027']).toEqual({ onShows: 0, onRemovedShows: 0, other: 215 });
    expect(forgotten.quarters['Q4-2026']).toEqual({ onShows: 0, onRemovedShows: 0, other: 2350 });
    const moved = planSpend({ ...plan, shows: [show('1', '2027-09-01')] }, entries);
    expect(moved.quarters['Q3-2027']?.onShows).toBe(2205);
    expect(moved.quarters['Q2-2027']?.onShows ?? 0).toBe(0);
  });

  it('warns at 80% of a budget, never for no budget', () => {
    expect(pastWarningLine(10_000, 7_999)).toBe(false);
    expect(pastWarningLine(10_000, 8_000)).toBe(true);
    expect(pastWarningLine(0, 100)).toBe(false);
  });
});
