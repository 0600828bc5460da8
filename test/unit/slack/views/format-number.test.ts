import { describe, expect, it } from 'vitest';
import { formatCredits, formatNumber } from '../../../../src/slack/views/format.ts';

// Whole numbers are grouped without Intl (its first use costs a cold start ≈ 10 ms); they must read
// exactly as Intl's en-US grouping does, and fractions still go through Intl.
const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

describe('formatNumber', () => {
  it('groups whole numbers exactly as Intl does, signs and powers of ten included', () => {
    const wholes = [0, 1, 9, 10, 99, 100, 999, 1_000, 1_001, 12_345, 999_999, 1_000_000, 123_456_789];
    const all = [...wholes, ...wholes.map((n) => -n), Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
    for (const n of all) expect(formatNumber(n), String(n)).toBe(intl.format(n));
  });

  it('rounds fractions to two places as before', () => {
    expect([formatNumber(2.5), formatNumber(1234.567), formatNumber(-0.004)]).toEqual([
      '2.5',
      '1,234.57',
      intl.format(-0.004),
    ]);
  });

  it('says credits with the grouped number', () => {
    expect([formatCredits(1), formatCredits(2000), formatCredits(1_500_000)]).toEqual([
      '1 credit',
      '2,000 credits',
      '1,500,000 credits',
    ]);
  });
});
