import { Metrics as Powertools, MetricUnit } from '@aws-lambda-powertools/metrics';
import { DURATION_METRICS, type Metrics, NO_METRICS } from './metric-names.ts';

/**
 * The bot's metrics (metric-names.ts) as CloudWatch embedded metric format (Powertools Metrics): one log line per data
 * point, which CloudWatch turns into metrics without an API call on the request path. Only on Lambda:
 * locally the lines would be noise.
 */
export function createMetrics(env: NodeJS.ProcessEnv = process.env): Metrics {
  if (!env.AWS_LAMBDA_FUNCTION_NAME) return NO_METRICS;
  const metrics = new Powertools({ namespace: 'eventbot', serviceName: 'eventbot' });
  return {
    add(name, value, dimension) {
      // A single metric is written at once, with its own dimension: nothing waits for a flush.
      const point = metrics.singleMetric();
      if (dimension) point.addDimension(dimension.name, dimension.value);
      point.addMetric(name, DURATION_METRICS.has(name) ? MetricUnit.Milliseconds : MetricUnit.Count, value);
    },
  };
}
