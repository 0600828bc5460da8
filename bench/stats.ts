/** Nearest-rank percentile: the smallest value with at least `p` % of the values at or below it. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

export interface Spread {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** The percentiles the bench reports, rounded to 0.1. */
export function spreadOf(values: readonly number[]): Spread {
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    count: values.length,
    p50: round(percentile(values, 50)),
    p95: round(percentile(values, 95)),
    p99: round(percentile(values, 99)),
    max: round(values.length > 0 ? Math.max(...values) : Number.NaN),
  };
}

/** Runs `work` for every item, at most `limit` at a time (the load a section sends). */
export async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
