/**
 * What the domain needs from outside it: the records it works with and the narrow repositories it
 * reads and writes them through. The store implements these; the domain imports nothing else of it.
 */
export * from './charges.ts';
export * from './confirmations.ts';
export * from './digests.ts';
export * from './ledger.ts';
export * from './outcomes.ts';
export * from './plans.ts';
export * from './records.ts';
export * from './show-ids.ts';
export * from './unlock-tasks.ts';
export * from './watch.ts';
// The figures it reports go through platform's metrics, as its log lines go through platform's logger.
export * from '../../platform/metric-names.ts';
