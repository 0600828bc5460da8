import { Duration } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  type IAlarmAction,
  type Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface AlarmsProps {
  /** Functions by a short name used in the alarm's id and description. */
  readonly functions: Record<string, IFunction>;
  readonly deadLetterQueue: IQueue;
  /** When set, every alarm notifies this address (through an SNS topic). */
  readonly email?: string;
}

/**
 * Alarms that say something needs a look: any function error or throttle in five minutes, and any
 * message in the worker's dead-letter queue. Missing data (no traffic) is not a problem.
 */
export class Alarms extends Construct {
  readonly alarms: Alarm[] = [];
  readonly topic?: Topic;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    let action: IAlarmAction | undefined;
    if (props.email) {
      this.topic = new Topic(this, 'Topic', { displayName: 'eventbot alarms' });
      this.topic.addSubscription(new EmailSubscription(props.email));
      action = new SnsAction(this.topic);
    }
    const atLeastOne = (alarmId: string, metric: Metric, description: string) => {
      const alarm = new Alarm(this, alarmId, {
        metric,
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      });
      if (action) alarm.addAlarmAction(action);
      this.alarms.push(alarm);
    };
    const period = Duration.minutes(5);
    for (const [name, fn] of Object.entries(props.functions)) {
      atLeastOne(`${name}Errors`, fn.metricErrors({ period, statistic: 'Sum' }), `eventbot ${name}: errors`);
      atLeastOne(
        `${name}Throttles`,
        fn.metricThrottles({ period, statistic: 'Sum' }),
        `eventbot ${name}: throttled (reserved concurrency reached)`,
      );
    }
    atLeastOne(
      'DeadLetters',
      props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }),
      'eventbot worker: jobs failed and are waiting in the dead-letter queue',
    );
  }
}
