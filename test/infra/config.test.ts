import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { removeSynthesized, synthesize } from './support/synth.ts';
import { at, type CfnResource, resourcesOf } from './support/template.ts';

// These vary the CDK context only, so the functions are not bundled (see `synthesize`).
const withContext = (context: Record<string, unknown>) => synthesize({ context, bundle: false }).template;
const variablesOf = (fn: CfnResource) => at(fn, 'Properties', 'Environment', 'Variables');

describe('deploy configuration (CDK context)', () => {
  afterAll(removeSynthesized);

  it('passes spend approvers, the daily cap and the approval threshold to every function, as -c strings', () => {
    const template = withContext({
      spendApprovers: 'U123ABC, W456DEF',
      dailyCreditCap: '10000',
      approvalThreshold: '2000',
    });
    const functions = Object.values(resourcesOf(template, 'AWS::Lambda::Function'));
    expect(functions).toHaveLength(4);
    for (const fn of functions) {
      expect(variablesOf(fn)).toMatchObject({
        SPEND_APPROVERS: 'U123ABC,W456DEF',
        DAILY_CREDIT_CAP: '10000',
        APPROVAL_THRESHOLD: '2000',
      });
    }
  });

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

  it('sends every alarm to an email topic when alarmEmail is set, and creates no topic otherwise', () => {
    const template = withContext({ alarmEmail: 'ops@example.com' });
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
    });
    template.allResourcesProperties('AWS::CloudWatch::Alarm', { AlarmActions: [{ Ref: Match.anyValue() }] });
    withContext({}).resourceCountIs('AWS::SNS::Topic', 0);
  });

  it.each([
    [{ spendApprovers: 'alice' }, /spendApprovers/],
    [{ dailyCreditCap: '-5' }, /dailyCreditCap/],
    [{ eisBaseUrl: 'not a url' }, /eisBaseUrl/],
    [{ logLevel: 'loud' }, /logLevel/],
  ])('stops the synth on a bad value: %o', (context, message) => {
    expect(() => withContext(context)).toThrow(message);
  });
});
