import { PLAN_COST_MAX } from '../../../domain/plan/show-costs.ts';
import { COST_KINDS } from '../../../domain/ports/records.ts';

/** How `plan cost` and `plan currency` are written, as their refusals and the cost job say it. */

export const costUsage = () =>
  `Give the event id, then an amount and its kind: \`plan cost 26855 12000 booth\` (several at once: \`plan cost 26855 12000 booth 3000 travel\`). Kinds: ${COST_KINDS.join(', ')}. Amounts up to ${PLAN_COST_MAX.toLocaleString('en-US')}, at most 2 decimals, in the plan's currency (\`plan currency EUR\`); 0 removes that cost.`;

export const currencyUsage = () =>
  'Give an ISO 4217 code of three letters: `plan currency EUR` (USD, GBP, …). Every cost of the plan is read in it.';
