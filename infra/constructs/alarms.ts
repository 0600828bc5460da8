import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { SlackChannelConfiguration } from 'aws-cdk-lib/aws-chatbot';
import {
  Alarm,
  type AlarmProps,
  ComparisonOperator,
  type Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { ManagedPolicy } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** Slack answers an interaction with an error after 3 s; the alarm leaves a second of headroom. */
export const ACK_DURATION_ALARM_MS = 2000;

export interface AlarmsProps {
  /** Functions by a short name used in the alarm's id and description. */
  readonly functions: Record<string, IFunction>;
  /** The function that must answer Slack within 3 s: its p99 duration is watched. */
  readonly ackFunction: IFunction;
  readonly deadLetterQueue: IQueue;
  /** The watch queue's dead-letter queue: checks that failed every receive. */
  readonly watchDeadLetterQueue?: IQueue;
  /** When set, the topic mails this address too. */
  readonly email?: string;
  /** When set, an AWS Chatbot Slack channel configuration posts the topic's messages to this channel. */
  readonly slackChannel?: { readonly workspaceId: string; readonly channelId: string };
}

/**
 * Alarms that say something needs a look: any function error or throttle in five minutes, any
 * message in the worker's (or the watch queue's) dead-letter queue, and the Slack function's p99 duration nearing Slack's
 * limit. Missing data (no traffic) is not a problem. Every alarm notifies one SNS topic, which always
 * exists (so a subscription can be added at any time, by config or by hand), both when it fires and
 * when it recovers, so whoever was told can see it is over.
 */
export class Alarms extends Construct {
  readonly alarms: Alarm[] = [];
  readonly topic: Topic;
  readonly slackChannel?: SlackChannelConfiguration;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    // No topic policy: one would replace the default policy under which CloudWatch alarms publish
    // and AWS Chatbot subscribes.
    this.topic = new Topic(this, 'Topic', { displayName: 'eventbot alarms' });
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS3',
      reason:
        'The only publisher is CloudWatch (over TLS); a TLS-only topic policy would replace the default one that lets alarms publish and Chatbot subscribe',
    });
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
    if (props.slackChannel) {
      this.slackChannel = new SlackChannelConfiguration(this, 'SlackChannel', {
        slackChannelConfigurationName: `${Stack.of(this).stackName}-alarms`,
        slackWorkspaceId: props.slackChannel.workspaceId,
        slackChannelId: props.slackChannel.channelId,
        notificationTopics: [this.topic],
        // Notifications only: the channel role it creates has no policy, and the guardrail caps
        // whatever someone adds later to reading CloudWatch (the default guardrail is AdministratorAccess).
        guardrailPolicies: [ManagedPolicy.fromAwsManagedPolicyName('CloudWatchReadOnlyAccess')],
      });
    }
    const action = new SnsAction(this.topic);
    const alarm = (alarmId: string, alarmProps: AlarmProps) => {
      const created = new Alarm(this, alarmId, alarmProps);
      created.addAlarmAction(action);
      created.addOkAction(action);
      this.alarms.push(created);
    };
    const atLeastOne = (alarmId: string, metric: Metric, description: string) =>
      alarm(alarmId, {
        metric,
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      });
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
    if (props.watchDeadLetterQueue)
      atLeastOne(
        'WatchDeadLetters',
        props.watchDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }),
        "eventbot watch: channels' checks failed every try and are waiting in the watch dead-letter queue",
      );
    // Two of the last three 5-minute periods: a lone slow cold start is not a trend, a slow
    // dependency (Secrets Manager, DynamoDB, the worker invoke) is.
    alarm('SlackAckDuration', {
      metric: props.ackFunction.metricDuration({ period, statistic: 'p99' }),
      threshold: ACK_DURATION_ALARM_MS,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: `eventbot Slack: p99 duration over ${ACK_DURATION_ALARM_MS} ms (Slack gives up at 3 s)`,
    });
  }
}
