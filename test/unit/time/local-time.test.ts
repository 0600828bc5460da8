import { describe, expect, it } from 'vitest';
import {
  isValidTimeZone,
  localDate,
  localTimeOfDay,
  nextOccurrence,
  parseLocalTime,
  zonedInstant,
} from '../../../src/time/local-time.ts';

describe('localDate', () => {
  it('gives the calendar date in the zone, which may differ from the UTC date', () => {
    const instant = new Date('2025-03-10T20:00:00Z');

    expect(localDate(instant, 'UTC')).toBe('2025-03-10');
    expect(localDate(instant, 'Pacific/Auckland')).toBe('2025-03-11');
    expect(localDate(new Date('2025-03-10T03:00:00Z'), 'America/Los_Angeles')).toBe('2025-03-09');
  });

  it('reads midnight as 00, not 24', () => {
    expect(localTimeOfDay(new Date('2025-01-01T00:00:00Z'), 'UTC')).toBe('00:00');
  });
});

describe('nextOccurrence', () => {
  it('is later today when the time has not come yet in the zone', () => {
    const next = nextOccurrence('09:00', 'Europe/Berlin', new Date('2025-06-02T05:00:00Z'));

    expect(next.toISOString()).toBe('2025-06-02T07:00:00.000Z');
  });

  it('is tomorrow when the time has passed, or is exactly now', () => {
    expect(nextOccurrence('09:00', 'Europe/Berlin', new Date('2025-06-02T08:00:00Z')).toISOString()).toBe(
      '2025-06-03T07:00:00.000Z',
    );
    expect(nextOccurrence('09:00', 'Europe/Berlin', new Date('2025-06-02T07:00:00Z')).toISOString()).toBe(
      '2025-06-03T07:00:00.000Z',
    );
  });

  it('follows the local day in Auckland, a day ahead of UTC', () => {
    // 2025-06-02T20:00Z is 08:00 on 3 June in Auckland (NZST, UTC+12).
    const next = nextOccurrence('09:00', 'Pacific/Auckland', new Date('2025-06-02T20:00:00Z'));

    expect(next.toISOString()).toBe('2025-06-02T21:00:00.000Z');
    expect(localDate(next, 'Pacific/Auckland')).toBe('2025-06-03');
  });

  it('follows the local day in Los Angeles, a day behind UTC in the evening', () => {
    // 2025-06-03T02:00Z is 19:00 on 2 June in Los Angeles (PDT, UTC-7).
    const next = nextOccurrence('20:30', 'America/Los_Angeles', new Date('2025-06-03T02:00:00Z'));

    expect(next.toISOString()).toBe('2025-06-03T03:30:00.000Z');
    expect(localDate(next, 'America/Los_Angeles')).toBe('2025-06-02');
  });

  it('keeps the wall-clock time across a change to summer time', () => {
    // Berlin moves from UTC+1 to UTC+2 on 30 March 2025.
    const before = nextOccurrence('09:00', 'Europe/Berlin', new Date('2025-03-29T09:00:00Z'));
    const after = nextOccurrence('09:00', 'Europe/Berlin', before);

    expect(before.toISOString()).toBe('2025-03-30T07:00:00.000Z');
    expect(after.toISOString()).toBe('2025-03-31T07:00:00.000Z');
    const berlinSaturday = nextOccurrence('09:00', 'Europe/Berlin', new Date('2025-03-28T09:00:00Z'));
    expect(berlinSaturday.toISOString()).toBe('2025-03-29T08:00:00.000Z');
  });

  it('keeps the wall-clock time across the end of summer time in Los Angeles', () => {
    // Los Angeles moves from UTC-7 to UTC-8 on 2 November 2025.
    const next = nextOccurrence('08:00', 'America/Los_Angeles', new Date('2025-11-01T16:00:00Z'));

    expect(next.toISOString()).toBe('2025-11-02T16:00:00.000Z');
    expect(localTimeOfDay(next, 'America/Los_Angeles')).toBe('08:00');
  });

  it('keeps the wall-clock time across Auckland moving to summer time', () => {
    // Auckland moves from UTC+12 to UTC+13 on 28 September 2025 at 02:00; 12:00Z is local midnight.
    const next = nextOccurrence('07:00', 'Pacific/Auckland', new Date('2025-09-27T12:00:00Z'));

    expect(next.toISOString()).toBe('2025-09-27T18:00:00.000Z');
    expect(localDate(next, 'Pacific/Auckland')).toBe('2025-09-28');
  });

  it('pushes a time that does not exist on the day of the change past the gap', () => {
    // 02:30 does not happen in Los Angeles on 9 March 2025: 02:00 PST jumps to 03:00 PDT.
    const next = nextOccurrence('02:30', 'America/Los_Angeles', new Date('2025-03-09T00:00:00Z'));

    expect(next.toISOString()).toBe('2025-03-09T10:30:00.000Z');
    expect(localTimeOfDay(next, 'America/Los_Angeles')).toBe('03:30');
  });

  it('takes the first of a time that happens twice on the day of the change', () => {
    // 01:30 happens twice in Los Angeles on 2 November 2025: first in PDT (UTC-7).
    const first = zonedInstant(
      { year: 2025, month: 11, day: 2 },
      { hour: 1, minute: 30 },
      'America/Los_Angeles',
    );

    expect(first.toISOString()).toBe('2025-11-02T08:30:00.000Z');
  });

  it('handles zones with a fractional offset', () => {
    const next = nextOccurrence('09:00', 'Asia/Kolkata', new Date('2025-06-02T00:00:00Z'));

    expect(next.toISOString()).toBe('2025-06-02T03:30:00.000Z');
  });
});

describe('parseLocalTime and isValidTimeZone', () => {
  it('accept HH:MM and IANA zone names, and refuse anything else', () => {
    expect(parseLocalTime('07:05')).toEqual({ hour: 7, minute: 5 });
    expect(() => parseLocalTime('24:00')).toThrow(RangeError);
    expect(() => parseLocalTime('9:00')).toThrow(RangeError);
    expect(isValidTimeZone('Pacific/Auckland')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });
});
