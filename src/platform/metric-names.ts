/**
 * The figures the bot reports (the stack's dashboard graphs them, namespace `eventbot`) and the one
 * method they are reported through: the domain and the roots use these; metrics.ts writes them.
 * Kept apart from metrics.ts so that reading them loads no Powertools.
 */
export type MetricName =
  | 'ChargesRun'
  | 'CreditsCharged'
  | 'Confirmations'
  | 'AckDuration'
  | 'PollLag'
  | 'DigestsPosted'
  | 'DigestsSkipped';

/** Durations are in milliseconds, everything else a count. */
export const DURATION_METRICS: ReadonlySet<MetricName> = new Set(['AckDuration', 'PollLag']);

export interface Metrics {
  /** One data point, optionally split by one dimension (`action`, `outcome`). */
  add(name: MetricName, value: number, dimension?: { name: string; value: string }): void;
}

export const NO_METRICS: Metrics = { add: () => undefined };
