import { describe, expect, it } from 'vitest';
import { amountMeant } from '../../../src/domain/amount-meant.ts';

describe('an amount written another way', () => {
  it('reads dots for thousands, a decimal comma, k for thousands and a currency sign, in hundredths', () => {
    expect(amountMeant('12.000')).toBe(1_200_000);
    expect(amountMeant('1.250.000')).toBe(125_000_000);
    expect(amountMeant('12.000,50')).toBe(1_200_050);
    expect(amountMeant('€12k')).toBe(1_200_000);
    expect(amountMeant('2,5k')).toBe(250_000);
    expect(amountMeant('12.000 €')).toBe(1_200_000);
    expect(amountMeant('EUR12000')).toBe(1_200_000);
    expect(amountMeant('12.5')).toBe(1250);
  });

  it('reads nothing sure from words that are not amounts', () => {
    for (const word of ['lots', '1e5', '12.00.0', 'k', '€', '12,0000', '-5']) expect(amountMeant(word)).toBeUndefined();
  });
});
