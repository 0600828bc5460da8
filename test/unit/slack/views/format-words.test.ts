import { describe, expect, it } from 'vitest';
import { contactUnlockButtons } from '../../../../src/slack/kit/row-buttons.ts';
import { formatCredits, plural, utcDateTime } from '../../../../src/slack/views/format.ts';

describe('the one plural rule', () => {
  it('says the singular for exactly one and the plural otherwise, zero and fractions included', () => {
    expect([0, 1, 2, 1.5, -1].map((n) => plural(n, 'show'))).toEqual([
      '0 shows',
      '1 show',
      '2 shows',
      '1.5 shows',
      '-1 shows',
    ]);
  });

  it('takes an irregular plural and groups thousands', () => {
    expect([plural(1, 'person', 'people'), plural(12_345, 'person', 'people')]).toEqual([
      '1 person',
      '12,345 people',
    ]);
  });

  it('is the rule credits and the kit’s words count with', () => {
    expect([formatCredits(1), formatCredits(2_000)]).toEqual(['1 credit', '2,000 credits']);
    const [emails, phones] = contactUnlockButtons({ emails: ['1'], phones: ['1', '2'] });
    expect([emails?.text.text, phones?.text.text]).toEqual(['Unlock 1 email…', 'Unlock 2 phone numbers…']);
  });

  it('escapes the words it is given', () => {
    expect(plural(2, '<thing>', '<things>')).toBe('2 &lt;things&gt;');
  });
});

describe('a moment in words', () => {
  it('writes the day and time with the zone once', () => {
    expect(utcDateTime(new Date('2026-11-28T12:42:59Z'))).toBe('28 Nov 2026 12:42 UTC');
    expect(utcDateTime(new Date('2027-01-05T03:07:00Z'))).toBe('5 Jan 2027 03:07 UTC');
  });
});
