import { describe, expect, it } from 'vitest';
import {
  inReturnWindow,
  lastFullQuarter,
  RETURN_WINDOW,
  returnShows,
  type ReturnShow,
  showsReturn,
} from '../../../src/domain/outcome-return.ts';
import { deletion, newOutcome, type OutcomeInput } from '../../../src/domain/outcomes.ts';
import { parseQuarter } from '../../../src/domain/periods.ts';
import type { CreditRate } from '../../../src/domain/plan/money.ts';
import type { OutcomeEntry } from '../../../src/domain/ports/records.ts';

const daysAfter = (day: string, days: number) =>
  new Date(Date.parse(`${day}T12:00:00Z`) + days * 86_400_000).toISOString();

const SHOW: ReturnShow = { eventId: '101', name: 'Expo', dateStart: '2031-04-10', dateEnd: '2031-04-12' };
const LATER: ReturnShow = { eventId: '202', name: 'Fair', dateStart: '2031-05-20', dateEnd: '2031-05-21' };
const CHANNEL = 'C1';
const PRICED: CreditRate = {
  state: 'set',
  price: { tenThousandths: 1_000, code: 'EUR', setBy: 'U1', setAt: '2031-01-01T00:00:00.000Z' },
};

let ids = 0;
function entry(show: ReturnShow, input: OutcomeInput, at: string, channelId = CHANNEL): OutcomeEntry {
  ids += 1;
  return newOutcome({
    ...input,
    id: `E${String(ids).padStart(4, '0')}`,
    teamId: 'T1',
    channelId,
    show,
    loggedBy: 'U1',
    at: new Date(at),
  });
}

describe('a show’s return', () => {
  it('counts an entry from the window’s first day before the start to its last day after the end', () => {
    const { beforeDays, afterDays } = RETURN_WINDOW;
    expect(inReturnWindow(SHOW, daysAfter('2031-04-10', -beforeDays))).toBe(true);
    expect(inReturnWindow(SHOW, daysAfter('2031-04-10', -beforeDays - 1))).toBe(false);
    expect(inReturnWindow(SHOW, daysAfter('2031-04-12', afterDays))).toBe(true);
    expect(inReturnWindow(SHOW, daysAfter('2031-04-12', afterDays + 1))).toBe(false);
    expect(inReturnWindow({ dateStart: null, dateEnd: null }, daysAfter('2031-04-10', 0))).toBe(false);
  });

  it('sums meetings, leads, pipeline and won, sourced apart from influenced, and the ratios to cost', () => {
    const during = daysAfter('2031-04-11', 0);
    const entries = [
      // Acme's first entry is at the earlier show: the later one only influences it.
      entry(SHOW, { kind: 'meeting-booked', account: 'Acme' }, daysAfter('2031-04-01', 0)),
      entry(SHOW, { kind: 'meeting-held', account: 'acme' }, during),
      entry(SHOW, { kind: 'meeting-held', account: 'Globex' }, during),
      entry(SHOW, { kind: 'lead', grade: 'A', account: 'Globex' }, during),
      entry(SHOW, { kind: 'lead', grade: 'C', account: 'Initech' }, during),
      entry(SHOW, { kind: 'opportunity', hundredths: 1_000_000, account: 'Acme' }, during),
      entry(SHOW, { kind: 'won', hundredths: 400_000, account: 'Globex' }, during),
      entry(LATER, { kind: 'opportunity', hundredths: 500_000, account: 'Acme' }, daysAfter('2031-05-20', 0)),
      entry(
        LATER,
        { kind: 'opportunity', hundredths: 200_000, account: 'Umbrella' },
        daysAfter('2031-05-20', 0),
      ),
      // Outside the window, deleted, or another channel's: never counted.
      entry(
        SHOW,
        { kind: 'meeting-held', account: 'Late' },
        daysAfter('2031-04-12', RETURN_WINDOW.afterDays + 1),
      ),
      { ...entry(SHOW, { kind: 'won', hundredths: 9_900, account: 'Gone' }, during), ...gone() },
      entry(SHOW, { kind: 'won', hundredths: 7_700, account: 'Elsewhere' }, during, 'C2'),
    ];
    const read = showsReturn([SHOW, LATER], {
      channelId: CHANNEL,
      entries,
      spentOnShows: new Map([['101', 10_000]]),
      beyondCredits: new Map([['101', 100_000]]),
      rate: PRICED,
      watchAccounts: [],
    });
    const [first, second] = read.shows.map((s) => s.figures);

    expect(first).toMatchObject({
      meetingsBooked: 1,
      meetingsHeld: 2,
      leads: { A: 1, B: 0, C: 1 },
      opportunities: 1,
      pipeline: { sourced: 1_000_000, influenced: 0 },
      deals: 1,
      won: { sourced: 400_000, influenced: 0 },
      accountsMet: 3,
    });
    // 10,000 credits × 0.10 = 1,000.00 plus 1,000.00 beyond credits.
    expect(first?.cost.total).toBe(200_000);
    expect(first?.ratios).toEqual({
      unit: 'money',
      perMeetingHeld: 100_000,
      perOpportunity: 200_000,
      pipelinePerCost: 500,
      wonPerCost: 200,
    });
    expect(second?.pipeline).toEqual({ sourced: 200_000, influenced: 500_000 });
    // Nothing spent on the later show: it cost nothing per opportunity, and no ratio divides by its zero cost.
    expect(second?.ratios).toEqual({ unit: 'money', perOpportunity: 0 });
    expect(read.total).toMatchObject({
      opportunities: 3,
      pipeline: { sourced: 1_200_000, influenced: 500_000 },
      won: { sourced: 400_000, influenced: 0 },
      accountsMet: 4,
    });
    expect(read.total.cost.total).toBe(200_000);
  });

  it('gives the cost in credits when credits are not priced, and no money ratio', () => {
    const read = showsReturn([SHOW], {
      channelId: CHANNEL,
      entries: [
        entry(SHOW, { kind: 'opportunity', hundredths: 100, account: 'Acme' }, daysAfter('2031-04-11', 0)),
      ],
      spentOnShows: new Map([['101', 300]]),
      beyondCredits: new Map(),
      rate: { state: 'not-set' },
      watchAccounts: [],
    });
    expect(read.total.ratios).toEqual({ unit: 'credits', perOpportunity: 300 });
  });

  it('covers the plan’s shows and the shows with entries starting in the period; alone, the last full quarter', () => {
    const other: ReturnShow = { eventId: '303', name: 'Other', dateStart: '2031-06-01', dateEnd: null };
    const entries = [entry(other, { kind: 'meeting-held', account: 'Acme' }, daysAfter('2031-06-01', 0))];
    const quarter = parseQuarter('Q2-2031');
    if (!quarter) throw new Error('no quarter');
    expect(
      returnShows([LATER, SHOW], { channelId: CHANNEL, entries }, { period: quarter }).map((s) => s.eventId),
    ).toEqual(['101', '202', '303']);
    expect(returnShows([SHOW], { channelId: 'C2', entries }, { eventId: '303' })).toEqual([]);
    expect(lastFullQuarter(new Date('2031-07-01T00:00:00Z')).key).toBe('Q2-2031');
    expect(lastFullQuarter(new Date('2031-01-15T00:00:00Z')).key).toBe('Q4-2030');
  });
});

function gone() {
  const change = deletion('U1', new Date('2031-04-20T00:00:00Z'));
  return { deletedBy: change.by, deletedAt: change.at };
}
