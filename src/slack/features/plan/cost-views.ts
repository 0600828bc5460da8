import type { ModalView } from '@slack/types';
import { FORM_IDS } from '../../views/form-ids.ts';
import type { KindTotals, ShowCostTotals } from '../../../domain/plan/show-costs.ts';
import { COST_KINDS, type PlanCurrency, type PlanShowCost } from '../../../domain/ports/records.ts';
import { ACTION_IDS } from '../../views/action-ids.ts';
import { button, plainText } from '../../views/blocks.ts';
import { FIELD_ACTION, modal } from '../../views/modal-inputs.ts';
import { input } from '../../views/blocks.ts';
import { truncate } from '../../views/mrkdwn.ts';
import { moneyWords } from '../../kit/money-words.ts';
import type { CostsMetadata, CostsValue, ShowCostsValue } from './buttons.ts';

/** The plan's costs beyond credits as the card, the canvas and the modal show them. */

/** What the plan view carries of its costs: the totals, the currency (none until set), the entries. */
export interface CostsBeyondCredits {
  totals: ShowCostTotals;
  currency: PlanCurrency | null;
  entries: PlanShowCost[];
}

/** `12,000 EUR`, `12,000.50 EUR`; without a currency set, the number alone. */
export const formatAmount = (hundredths: number, currency: PlanCurrency | null): string =>
  moneyWords(hundredths, currency?.code);

/** `12000`, `12000.50`: an amount as typed back into the modal. */
export const amountAsTyped = (hundredths: number) =>
  hundredths % 100 === 0 ? String(hundredths / 100) : (hundredths / 100).toFixed(2);

/** `booth 12,000 EUR, travel 3,000 EUR (15,000 EUR in all)`: the kinds that have a cost. */
export function kindTotalsWords(totals: KindTotals, currency: PlanCurrency | null): string {
  const kinds = COST_KINDS.filter((kind) => totals[kind] > 0).map(
    (kind) => `${kind} ${formatAmount(totals[kind], currency)}`,
  );
  if (kinds.length === 0) return 'none';
  return kinds.length === 1
    ? (kinds[0] ?? '')
    : `${kinds.join(', ')} (${formatAmount(totals.total, currency)} in all)`;
}

/** A show's line: `Costs: booth 12,000 EUR`, or that it has none yet. */
export function showCostWords(eventId: string, costs: CostsBeyondCredits | undefined): string {
  const totals = costs?.totals.byShow.get(eventId);
  return totals ? `Costs: ${kindTotalsWords(totals, costs?.currency ?? null)}` : 'Costs: none yet';
}

/** The currency line: which currency, or that none is set. */
function currencyWords(currency: PlanCurrency | null): string {
  return currency
    ? `Costs are in ${currency.code}.`
    : 'No currency set: amounts are shown without one (`/events plan currency EUR` sets it).';
}

/** The costs per quarter (beside the quarter's credits above them), undated shows, and the whole plan. */
export function costsBeyondCreditsLines(costs: CostsBeyondCredits | undefined): string[] {
  if (!costs || costs.totals.all.total === 0)
    return [
      'Costs beyond credits: none yet. `/events plan cost <event id> <amount> <kind>` (booth, sponsorship, travel, other) or Costs… on a show adds one.',
      ...(costs?.currency ? [currencyWords(costs.currency)] : []),
    ];
  const { totals, currency } = costs;
  return [
    ...totals.quarters.map(
      ({ quarter, totals: q }) => `${quarter.label} costs: ${kindTotalsWords(q, currency)}.`,
    ),
    ...(totals.undated.total > 0
      ? [`Dates not announced, costs: ${kindTotalsWords(totals.undated, currency)}.`]
      : []),
    `All costs beyond credits: ${kindTotalsWords(totals.all, currency)}.`,
    currencyWords(currency),
  ];
}

/** The amounts of one show, by kind, as the Costs… button carries them. */
export function showAmounts(eventId: string, costs: CostsBeyondCredits | undefined): ShowCostsValue {
  const totals = costs?.totals.byShow.get(eventId);
  return Object.fromEntries(COST_KINDS.filter((k) => (totals?.[k] ?? 0) > 0).map((k) => [k, totals?.[k]]));
}

/** Costs… on a row: opens the show's modal with its costs as the card shows them. */
export const costsButton = (value: CostsValue) =>
  button('Costs…', ACTION_IDS.planCosts, { ...value, name: truncate(value.name, 100) });

export const exportPlanButton = () => button('Export CSV', ACTION_IDS.planExport, {});

export const PLAN_COSTS_MODAL = FORM_IDS.planCosts;

/** The Costs… modal: one field per kind, filled with the show's costs; an empty field removes that cost. */
export function planCostsModal(value: CostsValue, metadata: CostsMetadata): ModalView {
  const fields = COST_KINDS.map((kind) => {
    const initial = value.amounts[kind];
    return input(
      kind,
      kind[0]?.toUpperCase() + kind.slice(1),
      {
        type: 'plain_text_input',
        action_id: FIELD_ACTION,
        max_length: 20,
        ...(initial ? { initial_value: amountAsTyped(initial) } : {}),
        placeholder: plainText('0'),
      },
      { hint: kind === 'other' ? 'Up to 2 decimals; empty or 0 removes the cost.' : '' },
    );
  });
  return modal(
    PLAN_COSTS_MODAL,
    'Costs of a show',
    'Save',
    [
      {
        type: 'section',
        text: plainText(
          `${truncate(value.name, 100)} (event ${value.eventId}): costs beyond credits, in the plan's currency. Saved for the whole channel.`,
        ),
      },
      ...fields,
    ],
    metadata,
  );
}
