/** Account watch's rules: reading a watch list, matching names, comparing appearances, the alert, the budget. */
export * from './alert.ts';
export * from './appearances.ts';
export * from './budget.ts';
export * from './input.ts';
export * from './names.ts';
export * from './check.ts';
export * from './lookup.ts';
export * from './where.ts';
