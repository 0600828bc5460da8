/* The hostile-text property test's builders of the plan's costs beyond credits: card, canvas, CSV, modal. */
import { toCsv } from '../../../src/domain/csv.ts';
import { showCostTotals } from '../../../src/domain/plan/index.ts';
import type { PlanShowCost } from '../../../src/domain/ports/records.ts';
import { planCanvasMarkdown } from '../../../src/slack/features/plan/canvas.ts';
import { planCostsModal } from '../../../src/slack/features/plan/cost-views.ts';
import { PLAN_CSV_HEADER, planCsvRows } from '../../../src/slack/features/plan/export.ts';
import { planCard, type PlanView } from '../../../src/slack/features/plan/views.ts';
import { type Pool, planView, type Rendered } from '../hostile-fixtures.ts';

/** The fixture plan with costs on both shows, set by people whose ids come from the pool. */
function withCosts(s: Pool): PlanView {
  const view = planView(s);
  const entries: PlanShowCost[] = view.rows.map((row, n) => ({
    eventId: row.show.eventId,
    kind: n === 0 ? 'booth' : 'travel',
    hundredths: 1_200_050,
    setBy: s(n + 8),
    setAt: '2027-01-02T00:00:00.000Z',
  }));
  const totals = showCostTotals(
    view.rows.map((row) => row.show),
    entries,
  );
  return {
    ...view,
    costsBeyondCredits: {
      totals,
      currency: { code: 'EUR', setBy: 'U0ALICE', setAt: '2027-01-01T00:00:00.000Z' },
      entries,
    },
  };
}

export const PLAN_COST_BUILDERS: Record<string, (s: Pool) => Rendered> = {
  planCardWithCosts: (s) => ({ messages: [planCard(withCosts(s))] }),
  planCanvasWithCosts: (s) => ({
    canvas: { markdown: planCanvasMarkdown(withCosts(s)), benign: planCanvasMarkdown(withCosts(() => 'x')) },
  }),
  planCsvRows: (s) => ({ csv: toCsv(PLAN_CSV_HEADER, planCsvRows(withCosts(s))) }),
  planCostsModal: (s) => ({
    blocks: planCostsModal(
      { eventId: '26855', name: s(0), amounts: { booth: 100 } },
      { channelId: 'C0GENERAL', eventId: '26855', amounts: { booth: 100 } },
    ).blocks,
  }),
};
