import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

export const POLL_TASKS_SCHEDULE = 'rate(1 minute)';
/** Hourly, on the hour: digests are due at a local hour. */
export const DIGEST_SCHEDULE = 'cron(0 * * * ? *)';

export interface SchedulesProps {
  readonly pollTasks: IFunction;
  readonly digest: IFunction;
}

/**
 * EventBridge rules for the two timed functions. A run that is not delivered within a minute is
 * dropped rather than retried for hours: the next run picks up whatever fell due in between.
 */
export class Schedules extends Construct {
  readonly pollTasks: Rule;
  readonly digest: Rule;

  constructor(scope: Construct, id: string, props: SchedulesProps) {
    super(scope, id);
    const target = (fn: IFunction) =>
      new LambdaFunction(fn, { retryAttempts: 0, maxEventAge: Duration.minutes(1) });
    this.pollTasks = new Rule(this, 'PollTasks', {
      description: 'eventbot: poll unlock tasks that are due',
      schedule: Schedule.expression(POLL_TASKS_SCHEDULE),
      targets: [target(props.pollTasks)],
    });
    this.digest = new Rule(this, 'Digest', {
      description: 'eventbot: send the digests due this hour',
      schedule: Schedule.expression(DIGEST_SCHEDULE),
      targets: [target(props.digest)],
    });
  }
}
