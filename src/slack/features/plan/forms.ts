import { readAmount } from '../../../domain/plan/show-costs.ts';
import { COST_KINDS } from '../../../domain/ports/records.ts';
import { didYouMeanAmount } from '../../kit/amount-words.ts';
import { checked, fieldOf, type FormResult, type ViewValues } from '../../kit/modal-forms.ts';
import type { CostsMetadata } from './buttons.ts';
import { amountAsTyped } from './cost-views.ts';

/** The Costs… modal read back: every field's error at once, or the `plan cost` command it stands for. */

const PROBLEMS = {
  'not-a-number': 'Not an amount: digits, with at most 2 decimals (12000 or 12000.50).',
  negative: 'A cost is 0 or more.',
  decimals: 'At most 2 decimals.',
  'too-large': 'More than 10,000,000: check the amount.',
} as const;

/**
 * The kinds whose amount changed from what the modal began with (an empty field is 0: the cost is
 * removed); `undefined` value when nothing changed. A kind left as it was is not sent, so a cost
 * someone else set meanwhile is kept.
 */
export function readCostsForm(values: ViewValues, metadata: CostsMetadata): FormResult<string | undefined> {
  const errors: Record<string, string> = {};
  const pairs: string[] = [];
  for (const kind of COST_KINDS) {
    const typed = fieldOf(values, kind) ?? '0';
    const amount = readAmount(typed);
    if (!amount.ok) {
      errors[kind] = `${PROBLEMS[amount.reason]}${didYouMeanAmount(typed, { whole: false })}`;
      continue;
    }
    if (amount.hundredths !== (metadata.amounts[kind] ?? 0))
      pairs.push(`${amountAsTyped(amount.hundredths)} ${kind}`);
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  if (pairs.length === 0) return { ok: true, value: undefined };
  return checked(`plan cost ${metadata.eventId} ${pairs.join(' ')}`, 'booth', values);
}
