import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

export const POLL_TASKS_SCHEDULE = 'rate(1 minute)';
/**
 * Every 5 minutes, on the 5-minute marks: a digest set for 08:30 local is posted in the 08:30 run,
 * and any digest within 5 minutes of its local time (the domain runs only the subscriptions whose
 * `nextRunAt` has passed, each at most once a local day).
 *
 * Why one shared schedule rather than an EventBridge Scheduler schedule per subscription (which
 * would carry each channel's time zone and fire on the minute): the shared rule is one resource in
 * this stack, free, and needs no code that creates, moves and deletes schedules as channels
 * subscribe, change time or leave (nor the IAM for it, nor a repair job for schedules that drift
 * from the table). Its cost is 8,640 short runs a month (an empty one is one index query, plus
 * re-reading the two secrets once their five-minute cache has expired): about $0.10 a month in
 * Lambda, DynamoDB and Secrets Manager calls beyond the free tier. Per-subscription schedules would
 * save most of that but only pay off if digests had to land to the minute, which nobody asked for.
 */
export const DIGEST_SCHEDULE = 'cron(0/5 * * * ? *)';

/**
 * Every hour, on the hour: the watched channels that are due (each is due a day after its last check,
 * and at once when its watch changed) are sent to the watch queue.
 */
export const WATCH_SCHEDULE = 'cron(0 * * * ? *)';

export interface SchedulesProps {
  readonly pollTasks: IFunction;
  readonly digest: IFunction;
  readonly watch: IFunction;
}

/**
 * EventBridge rules for the three timed functions. A run that is not delivered within a minute is
 * dropped rather than retried for hours: the next run picks up whatever fell due in between.
 */
export class Schedules extends Construct {
  readonly pollTasks: Rule;
  readonly digest: Rule;
  readonly watch: Rule;

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
      description: 'eventbot: every 5 minutes, send the digests that are due',
      schedule: Schedule.expression(DIGEST_SCHEDULE),
      targets: [target(props.digest)],
    });
    this.watch = new Rule(this, 'Watch', {
      description: 'eventbot: every hour, check the watched channels that are due',
      schedule: Schedule.expression(WATCH_SCHEDULE),
      targets: [target(props.watch)],
    });
  }
}
