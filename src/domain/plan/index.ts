/** The channel's plan: its shows and budgets, its costs beyond credits, their money, the cost line, the canvas kept current, the budget warning. */
export * from './budget-warning.ts';
export * from './canvas.ts';
export * from './costs.ts';
export * from './money.ts';
export * from './rules.ts';
export * from './show-costs.ts';
export * from './spend.ts';
