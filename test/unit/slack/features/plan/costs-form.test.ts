import { describe, expect, it } from 'vitest';
import { readCostsForm } from '../../../../../src/slack/features/plan/forms.ts';

const typed = (fields: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(fields).map(([field, value]) => [field, { value: { type: 'plain_text_input', value } }]),
  );
const METADATA = { channelId: 'C0GENERAL', eventId: '26855', amounts: { booth: 1_200_000, travel: 5_000 } };

describe('the Costs… form', () => {
  it('says what is wrong with every field at once', () => {
    const read = readCostsForm(
      typed({ booth: '-5', sponsorship: 'lots', travel: '1.234', other: '1e99' }),
      METADATA,
    );

    expect(read).toEqual({
      ok: false,
      errors: {
        booth: 'A cost is 0 or more.',
        sponsorship: 'Not an amount: digits, with at most 2 decimals (12000 or 12000.50).',
        // 1.234 is 1,234 written the European way: the form offers it (issue 41).
        travel: 'At most 2 decimals. Did you mean `1,234`?',
        other: 'Not an amount: digits, with at most 2 decimals (12000 or 12000.50).',
      },
    });
  });

  it('sends only the kinds changed from what it opened with; an emptied field removes that cost', () => {
    const read = readCostsForm(typed({ booth: '12,000', travel: '', other: '99.5' }), METADATA);

    expect(read).toEqual({ ok: true, value: 'plan cost 26855 0 travel 99.50 other' });
  });

  it('sends nothing when nothing changed', () => {
    expect(readCostsForm(typed({ booth: '12000', travel: '50' }), METADATA)).toEqual({
      ok: true,
      value: undefined,
    });
  });
});
