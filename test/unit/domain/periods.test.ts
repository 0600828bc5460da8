import { describe, expect, it } from 'vitest';
import {
  calendarPeriodOf,
  parseCalendarPeriod,
  parseSpendPeriod,
  quarterContaining,
} from '../../../src/domain/periods.ts';

describe('periods', () => {
  it('reads a quarter either way round, with its first and last day', () => {
    expect(parseCalendarPeriod('Q2-2027')).toEqual({
      label: 'Q2 2027',
      key: 'Q2-2027',
      from: '2027-04-01',
      to: '2027-06-30',
    });
    expect(parseCalendarPeriod('2027-q4')).toMatchObject({ from: '2027-10-01', to: '2027-12-31' });
  });

  it('reads a month, February of a leap year included', () => {
    expect(parseCalendarPeriod('2028-02')).toEqual({
      label: 'February 2028',
      key: '2028-02',
      from: '2028-02-01',
      to: '2028-02-29',
    });
  });

  it('refuses what is not a quarter or a month', () => {
    for (const word of ['Q5-2027', '2027-13', 'spring', '2027', 'Q2 2027'])
      expect(parseCalendarPeriod(word)).toBeUndefined();
  });

  it('reads the current day, week, month and quarter in UTC', () => {
    const now = new Date('2026-11-26T23:30:00Z'); // a Thursday
    expect(parseSpendPeriod('today', now)).toMatchObject({ from: '2026-11-26', to: '2026-11-26' });
    expect(parseSpendPeriod('week', now)).toMatchObject({ from: '2026-11-23', to: '2026-11-29' });
    expect(parseSpendPeriod('month', now)).toMatchObject({ from: '2026-11-01', to: '2026-11-30' });
    expect(parseSpendPeriod('quarter', now)).toEqual(quarterContaining(now));
    expect(quarterContaining(now)).toMatchObject({ key: 'Q4-2026', from: '2026-10-01', to: '2026-12-31' });
    expect(parseSpendPeriod('2027-03', now)).toMatchObject({ label: 'March 2027' });
    expect(parseSpendPeriod('yesterday', now)).toBeUndefined();
  });

  it('names the quarter or month a range is exactly, and nothing else', () => {
    expect(calendarPeriodOf('2027-04-01', '2027-06-30')?.key).toBe('Q2-2027');
    expect(calendarPeriodOf('2027-03-01', '2027-03-31')?.key).toBe('2027-03');
    expect(calendarPeriodOf('2028-02-01', '2028-02-29')?.label).toBe('February 2028');
    // The first month of a quarter alone is the month.
    expect(calendarPeriodOf('2027-04-01', '2027-04-30')?.key).toBe('2027-04');
    for (const [from, to] of [
      ['2027-04-01', '2027-06-29'],
      ['2027-04-02', '2027-06-30'],
      ['2027-02-01', '2027-04-30'],
      ['2027-13-01', '2028-01-31'],
      [undefined, '2027-06-30'],
      ['2027-04-01', undefined],
    ])
      expect(calendarPeriodOf(from, to), `${from}–${to}`).toBeUndefined();
  });
});
