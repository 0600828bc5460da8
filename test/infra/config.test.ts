import { Match } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import type { BotFunction } from '../../infra/constructs/bot-function.ts';
import { removeSynthesized, synthesize } from './support/synth.ts';
import { at, type CfnResource, resourceOf, resourcesOf } from './support/template.ts';

// These vary the CDK context only, so the functions are not bundled (see `synthesize`).
const withContext = (context: Record<string, unknown>) => synthesize({ context, bundle: false }).template;
const variablesOf = (fn: CfnResource) => at(fn, 'Properties', 'Environment', 'Variables');

describe('deploy configuration (CDK context)', () => {
  afterAll(removeSynthesized);

  // The first synth of the file loads aws-cdk-lib: slow on a loaded machine.
  it(
    'passes spend approvers (users and user groups), the daily cap and the approval threshold to every function, as -c strings',
    { timeout: 60_000 },
    () => {
      const template = withContext({
        spendApprovers: 'U123ABC, W456DEF, S0APPROVERS',
        dailyCreditCap: '10000',
        approvalThreshold: '2000',
      });
      const functions = Object.values(resourcesOf(template, 'AWS::Lambda::Function'));
      expect(functions).toHaveLength(6);
      for (const fn of functions) {
        expect(variablesOf(fn)).toMatchObject({
          SPEND_APPROVERS: 'U123ABC,W456DEF,S0APPROVERS',
          DAILY_CREDIT_CAP: '10000',
          APPROVAL_THRESHOLD: '2000',
        });
      }
    },
  );

  it('sets neither when approvers are empty and the cap is 0 (the cdk.json defaults)', () => {
    const template = withContext({});
    for (const fn of Object.values(resourcesOf(template, 'AWS::Lambda::Function'))) {
      expect(variablesOf(fn)).not.toHaveProperty('SPEND_APPROVERS');
      expect(variablesOf(fn)).not.toHaveProperty('DAILY_CREDIT_CAP');
      expect(variablesOf(fn)).not.toHaveProperty('APPROVAL_THRESHOLD');
    }
  });

  it('passes the service URL and log level through', () => {
    const template = withContext({ eisBaseUrl: 'https://eis.example.test', logLevel: 'debug' });
    template.allResourcesProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({ EIS_BASE_URL: 'https://eis.example.test', LOG_LEVEL: 'debug' }),
      },
    });
  });

  it('reserves no concurrency with reserveConcurrency=false (accounts still at a quota of 10)', () => {
    const template = withContext({ reserveConcurrency: 'false' });
    template.allResourcesProperties('AWS::Lambda::Function', {
      ReservedConcurrentExecutions: Match.absent(),
    });
  });

  it('subscribes alarmEmail to the alarm topic when set, and nothing otherwise (the topic is always there)', () => {
    const template = withContext({ alarmEmail: 'ops@example.com' });
    template.resourceCountIs('AWS::SNS::Subscription', 1);
    const [topic] = Object.keys(template.findResources('AWS::SNS::Topic'));
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: topic },
    });
    template.allResourcesProperties('AWS::CloudWatch::Alarm', { AlarmActions: [{ Ref: topic }] });

    const unset = withContext({});
    unset.resourceCountIs('AWS::SNS::Topic', 1);
    unset.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('posts the alarms to Slack through AWS Chatbot when a workspace and channel are set', () => {
    const template = withContext({ alarmSlackWorkspaceId: 'T0123ABCD', alarmSlackChannelId: 'C0123ABCD' });
    const [topic] = Object.keys(template.findResources('AWS::SNS::Topic'));
    template.resourceCountIs('AWS::Chatbot::SlackChannelConfiguration', 1);
    template.hasResourceProperties('AWS::Chatbot::SlackChannelConfiguration', {
      ConfigurationName: 'Eventbot-alarms',
      SlackWorkspaceId: 'T0123ABCD',
      SlackChannelId: 'C0123ABCD',
      SnsTopicArns: [{ Ref: topic }],
      GuardrailPolicies: [
        {
          'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::aws:policy/CloudWatchReadOnlyAccess']],
        },
      ],
    });
    // Its role can do nothing: the channel gets notifications, no commands.
    const chatbotRoles = Object.entries(resourcesOf(template, 'AWS::IAM::Role')).filter(([, role]) =>
      JSON.stringify(at(role, 'Properties', 'AssumeRolePolicyDocument')).includes('chatbot.amazonaws.com'),
    );
    expect(chatbotRoles).toHaveLength(1);
    const [[roleId, role]] = chatbotRoles as [[string, CfnResource]];
    expect(at(role, 'Properties', 'ManagedPolicyArns')).toBeUndefined();
    expect(at(role, 'Properties', 'Policies')).toBeUndefined();
    const attached = Object.values(resourcesOf(template, 'AWS::IAM::Policy')).filter((policy) =>
      JSON.stringify(at(policy, 'Properties', 'Roles')).includes(roleId),
    );
    expect(attached).toEqual([]);
  });

  it('creates no Chatbot configuration (nor its role) by default', () => {
    const template = withContext({});
    template.resourceCountIs('AWS::Chatbot::SlackChannelConfiguration', 0);
    expect(JSON.stringify(resourcesOf(template, 'AWS::IAM::Role'))).not.toContain('chatbot.amazonaws.com');
  });

  it('gives the Slack function and the worker the workspace and bot user ids when set, and only them', () => {
    const { stack, template } = synthesize({
      context: { slackTeamId: 'T0123ABCD', slackBotUserId: 'U0456EFGH' },
      bundle: false,
    });
    const variables = (fn: BotFunction) =>
      variablesOf(resourceOf(template, stack.getLogicalId(fn.fn.node.defaultChild as CfnFunction)));
    for (const fn of [stack.slack, stack.worker]) {
      expect(variables(fn)).toMatchObject({ SLACK_TEAM_ID: 'T0123ABCD', SLACK_BOT_USER_ID: 'U0456EFGH' });
    }
    for (const fn of [stack.pollTasks, stack.digest]) {
      expect(variables(fn)).not.toHaveProperty('SLACK_TEAM_ID');
      expect(variables(fn)).not.toHaveProperty('SLACK_BOT_USER_ID');
    }
  });

  it('sets no workspace or bot user id by default (the Slack function asks auth.test once per cold start)', () => {
    for (const fn of Object.values(resourcesOf(withContext({}), 'AWS::Lambda::Function'))) {
      expect(variablesOf(fn)).not.toHaveProperty('SLACK_TEAM_ID');
      expect(variablesOf(fn)).not.toHaveProperty('SLACK_BOT_USER_ID');
    }
  });

  it('passes the unfurl domains to the Slack function and the worker when set', () => {
    const template = withContext({ unfurlDomains: 'app.lensmor.com,events.example.org' });
    const variables = Object.values(resourcesOf(template, 'AWS::Lambda::Function')).map(variablesOf);
    expect(variables.filter((v) => JSON.stringify(v).includes('UNFURL_DOMAINS'))).toHaveLength(2);
    expect(JSON.stringify(variables)).toContain('app.lensmor.com,events.example.org');
  });

  it('sets either id alone when only that one is given', () => {
    const template = withContext({ slackTeamId: 'T0123ABCD' });
    const variables = Object.values(resourcesOf(template, 'AWS::Lambda::Function')).map(variablesOf);
    expect(variables.filter((v) => JSON.stringify(v).includes('SLACK_TEAM_ID'))).toHaveLength(2);
    expect(JSON.stringify(variables)).not.toContain('SLACK_BOT_USER_ID');
  });

  it.each([
    [{ spendApprovers: 'alice' }, /spendApprovers/],
    [{ spendApprovers: 'U0123ABCD,C0123ABCD' }, /spendApprovers.1: a Slack user id .* or a user group id/],
    [{ dailyCreditCap: '-5' }, /dailyCreditCap/],
    [{ eisBaseUrl: 'not a url' }, /eisBaseUrl/],
    [{ logLevel: 'loud' }, /logLevel/],
    [{ alarmSlackWorkspaceId: 'workspace', alarmSlackChannelId: 'C0123ABCD' }, /alarmSlackWorkspaceId/],
    [{ alarmSlackWorkspaceId: 'T0123ABCD', alarmSlackChannelId: '#alerts' }, /alarmSlackChannelId/],
    [{ alarmSlackWorkspaceId: 'T0123ABCD' }, /alarmSlackChannelId: set both/],
    [{ slackTeamId: 'C0123ABCD' }, /slackTeamId: a Slack workspace id/],
    [{ slackBotUserId: 'B0123ABCD' }, /slackBotUserId: a Slack user id/],
    [{ unfurlDomains: 'https://app.lensmor.com/' }, /unfurlDomains: comma-separated hostnames/],
    [{ alarmSlackChannelId: 'C0123ABCD' }, /alarmSlackChannelId: set both/],
  ])('stops the synth on a bad value: %o', (context, message) => {
    expect(() => withContext(context)).toThrow(message);
  });
});
