import { Duration, Stack } from 'aws-cdk-lib';
import {
  AlarmStatusWidget,
  Color,
  Dashboard,
  GraphWidget,
  type IAlarm,
  type IMetric,
  MathExpression,
  Metric,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { ACK_DURATION_ALARM_MS } from './alarms.ts';
import { APP_METRICS } from './bot-function.ts';

/**
 * The custom metrics the code emits with Powertools Metrics (EMF) in `APP_METRICS.namespace`, each
 * with `service=eventbot` and, where named here, one more dimension.
 */
export const APP_METRIC_NAMES = {
  /** Charges run, by `action` (count). */
  chargesRun: 'ChargesRun',
  /** Credits charged, by `action`. */
  creditsCharged: 'CreditsCharged',
  /** Confirmations decided, by `outcome` (count). */
  confirmations: 'Confirmations',
  /** The Slack function's own measure of request → ack (ms). */
  ackDuration: 'AckDuration',
  /** A finished unlock task's completion → its result posted in Slack. */
  pollLag: 'PollLag',
  digestsPosted: 'DigestsPosted',
  digestsSkipped: 'DigestsSkipped',
} as const;

export interface OpsDashboardProps {
  /** The Slack function (acks), the worker, and every function for the errors graph, by short name. */
  readonly slack: IFunction;
  readonly worker: IFunction;
  readonly functions: Record<string, IFunction>;
  readonly alarms: IAlarm[];
}

const PERIOD = Duration.minutes(5);

/**
 * One small dashboard: is Slack answered in time, is anything failing, what the bot spends and
 * decides, and how late results and digests arrive. Within CloudWatch's 3 free dashboards of up to 50
 * metrics each.
 */
export class OpsDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OpsDashboardProps) {
    super(scope, id);
    const { slack, worker } = props;
    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: Stack.of(this).stackName,
      defaultInterval: Duration.days(1),
    });
    const graph = (title: string, left: IMetric[], width = 8) =>
      new GraphWidget({ title, left, width, height: 6, period: PERIOD });
    const app = (metricName: string, statistic: string, label = `${metricName} ${statistic}`) =>
      new Metric({
        namespace: APP_METRICS.namespace,
        metricName,
        dimensionsMap: { service: APP_METRICS.service },
        statistic,
        period: PERIOD,
        label,
      });

    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Slack ack: function duration and AckDuration (ms)',
        left: [
          slack.metricDuration({ statistic: 'p50', period: PERIOD, label: 'Duration p50' }),
          slack.metricDuration({ statistic: 'p99', period: PERIOD, label: 'Duration p99' }),
          app(APP_METRIC_NAMES.ackDuration, 'p50'),
          app(APP_METRIC_NAMES.ackDuration, 'p99'),
        ],
        leftAnnotations: [
          { value: ACK_DURATION_ALARM_MS, label: 'alarm', color: Color.ORANGE },
          { value: 3000, label: 'Slack gives up', color: Color.RED },
        ],
        width: 8,
        height: 6,
        period: PERIOD,
      }),
      graph(
        'Errors per function',
        Object.entries(props.functions).map(([name, fn]) =>
          fn.metricErrors({ statistic: 'Sum', period: PERIOD, label: name }),
        ),
      ),
      graph('Worker duration (ms)', [
        worker.metricDuration({ statistic: 'p50', period: PERIOD, label: 'p50' }),
        worker.metricDuration({ statistic: 'p99', period: PERIOD, label: 'p99' }),
        worker.metricDuration({ statistic: 'Maximum', period: PERIOD, label: 'max' }),
      ]),
    );
    this.dashboard.addWidgets(
      graph('Charges run, by action', [byDimension(APP_METRIC_NAMES.chargesRun, 'action')]),
      graph('Credits charged, by action', [byDimension(APP_METRIC_NAMES.creditsCharged, 'action')]),
      graph('Confirmations, by outcome', [byDimension(APP_METRIC_NAMES.confirmations, 'outcome')]),
    );
    this.dashboard.addWidgets(
      graph('Poll lag: task finished → result posted', [
        app(APP_METRIC_NAMES.pollLag, 'p50'),
        app(APP_METRIC_NAMES.pollLag, 'p95'),
        app(APP_METRIC_NAMES.pollLag, 'Maximum', 'PollLag max'),
      ]),
      graph('Digests', [
        app(APP_METRIC_NAMES.digestsPosted, 'Sum', 'posted'),
        app(APP_METRIC_NAMES.digestsSkipped, 'Sum', 'skipped'),
      ]),
      new AlarmStatusWidget({ title: 'Alarms', alarms: props.alarms, width: 8, height: 6 }),
    );
  }
}

/**
 * One line per value of `dimension` (each action, each outcome), whichever the code has emitted: a
 * SEARCH expression, so a new action needs no dashboard change.
 */
function byDimension(metricName: string, dimension: string): MathExpression {
  const { namespace, service } = APP_METRICS;
  return new MathExpression({
    expression: `SEARCH('{${namespace},service,${dimension}} MetricName="${metricName}" service="${service}"', 'Sum', ${PERIOD.toSeconds()})`,
    usingMetrics: {},
    label: '',
    period: PERIOD,
  });
}
