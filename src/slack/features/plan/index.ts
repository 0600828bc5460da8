/** The plan room's face: the budget warning after a charge, the canvas, and the plan's Home section. */
export { planBudgetCheck } from './budget-check.ts';
export { createPlanCanvasOut } from './canvas.ts';
export { HOME_PLAN_CHANNELS, type HomePlans, planHomeBlocks } from './home-views.ts';
export { withPlanSpend } from './read.ts';
