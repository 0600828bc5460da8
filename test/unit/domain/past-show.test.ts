import { describe, expect, it } from 'vitest';
import { isPastShow } from '../../../src/domain/past-show.ts';
import { formatShowDates } from '../../../src/slack/views/format.ts';

describe('a past show', () => {
  it('is one whose last day is before today, and is still ahead on its last day', () => {
    expect(isPastShow({ dateStart: '2026-11-20', dateEnd: '2026-11-22' }, '2026-11-28')).toBe(true);
    expect(isPastShow({ dateStart: '2026-11-26', dateEnd: '2026-11-28' }, '2026-11-28')).toBe(false);
    expect(isPastShow({ dateStart: '2027-05-05', dateEnd: '2027-05-08' }, '2026-11-28')).toBe(false);
  });

  it('goes by its start when it has no end, and is never past without dates', () => {
    expect(isPastShow({ dateStart: '2026-11-27', dateEnd: null }, '2026-11-28')).toBe(true);
    expect(isPastShow({ dateStart: '2026-11-28' }, '2026-11-28')).toBe(false);
    expect(isPastShow({ dateStart: null, dateEnd: null }, '2026-11-28')).toBe(false);
    expect(isPastShow({}, '2026-11-28')).toBe(false);
  });

  it('is marked Past after its dates in every list, and an upcoming one is not', () => {
    expect(formatShowDates({ dateStart: '2026-11-20', dateEnd: '2026-11-22' }, '2026-11-28')).toBe(
      '20–22 Nov 2026 · *Past*',
    );
    expect(formatShowDates({ dateStart: '2027-05-05', dateEnd: '2027-05-08' }, '2026-11-28')).toBe(
      '5–8 May 2027',
    );
  });
});
