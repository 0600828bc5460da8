import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { App, Stack, Validations } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotFunctionName } from '../../infra/config.ts';
import { WORKSPACE_KEY_CONTEXT } from '../../infra/constructs/distribution.ts';
import { SLACK_TOKENS_PURPOSE } from '../../src/platform/config/key-cipher.ts';
import { type EventbotStack, OUTPUTS } from '../../infra/eventbot-stack.ts';
import { allStatements, asList, roleStatements, type Statement } from './support/iam.ts';
import { removeSynthesized, synthesize } from './support/synth.ts';
import { allResources, at, resourceOf, resourcesOf } from './support/template.ts';

// Issue 15: `-c slackClientId=…` makes the bot installable by any workspace. These vary the context
// only, so the functions are not bundled.
const CLIENT_ID = '1234567890.9876543210';
const FUNCTIONS: readonly BotFunctionName[] = [
  'slack',
  'worker',
  'pollTasks',
  'digest',
  'watch',
  'watchCheck',
];
const KMS_ONLY_TEAM_ID = {
  'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['teamId'] },
  'ForAnyValue:StringEquals': { 'kms:EncryptionContextKeys': ['teamId'] },
};
/** Slack tokens: the context's keys exactly teamId and purpose, and the purpose the app sends. */
const KMS_SLACK_TOKENS = {
  'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['teamId', 'purpose'] },
  'ForAnyValue:StringEquals': { 'kms:EncryptionContextKeys': ['teamId'] },
  StringEquals: { 'kms:EncryptionContext:purpose': SLACK_TOKENS_PURPOSE },
};

let stack: EventbotStack;
let template: Template;
let plain: Template;

beforeAll(() => {
  ({ stack, template } = synthesize({ context: { slackClientId: CLIENT_ID }, bundle: false }));
  ({ template: plain } = synthesize({ bundle: false }));
}, 120_000);
afterAll(removeSynthesized);

const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as CfnFunction);
const keyId = () => Object.keys(resourcesOf(template, 'AWS::KMS::Key'))[0] ?? '';
const variablesOf = (name: BotFunctionName) =>
  at(resourceOf(template, logicalId(stack[name].fn)), 'Properties', 'Environment', 'Variables');
const kmsStatements = (name: BotFunctionName): Statement[] =>
  roleStatements(template, logicalId(stack[name].role)).filter((statement) =>
    asList(statement.Action).some((action) => action.startsWith('kms:')),
  );

describe('distribution (-c slackClientId=…)', () => {
  it('adds one KMS key, rotated yearly and retained with the table (its ciphertexts need it)', () => {
    template.resourceCountIs('AWS::KMS::Key', 1);
    template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    template.hasResource('AWS::KMS::Key', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    expect(WORKSPACE_KEY_CONTEXT).toBe('teamId');
  });

  it('leaves the key policy to the account (IAM delegation): no wildcard or outside principal', () => {
    const statements = at(resourceOf(template, keyId()), 'Properties', 'KeyPolicy', 'Statement');
    expect(statements).toEqual([
      expect.objectContaining({
        Effect: 'Allow',
        Principal: {
          AWS: {
            'Fn::Join': [
              '',
              ['arn:', { Ref: 'AWS::Partition' }, ':iam::', { Ref: 'AWS::AccountId' }, ':root'],
            ],
          },
        },
      }),
    ]);
  });

  it('lets the Slack function only encrypt service keys, and the others only decrypt them, with the teamId context alone', () => {
    const onKey = { 'Fn::GetAtt': [keyId(), 'Arn'] };
    const serviceKeys = (name: BotFunctionName) =>
      kmsStatements(name).filter((statement) => isDeepStrictEqual(statement.Condition, KMS_ONLY_TEAM_ID));
    expect(serviceKeys('slack')).toEqual([
      { Effect: 'Allow', Action: 'kms:Encrypt', Resource: onKey, Condition: KMS_ONLY_TEAM_ID },
    ]);
    for (const name of ['worker', 'pollTasks', 'digest', 'watch', 'watchCheck'] as const) {
      expect(serviceKeys(name), name).toEqual([
        { Effect: 'Allow', Action: 'kms:Decrypt', Resource: onKey, Condition: KMS_ONLY_TEAM_ID },
      ]);
    }
  });

  it.each(FUNCTIONS)(
    'lets %s encrypt and decrypt Slack tokens, only with the context {teamId, purpose: slack-tokens}',
    (name) => {
      const onKey = { 'Fn::GetAtt': [keyId(), 'Arn'] };
      const tokens = kmsStatements(name).filter((statement) =>
        isDeepStrictEqual(statement.Condition, KMS_SLACK_TOKENS),
      );
      expect(tokens).toEqual([
        {
          Effect: 'Allow',
          Action: ['kms:Encrypt', 'kms:Decrypt'],
          Resource: onKey,
          Condition: KMS_SLACK_TOKENS,
        },
      ]);
      expect(kmsStatements(name)).toHaveLength(2); // and the one service-key statement above
    },
  );

  it('grants KMS nowhere else (no other role, no key grant, no wildcard principal)', () => {
    const kms = allStatements(template).filter(({ statement }) =>
      asList(statement.Action).some((action) => action.startsWith('kms:')),
    );
    const roleGrants = kms.filter(({ owner }) => !owner.startsWith('DistributionWorkspaceKeys'));
    expect(roleGrants).toHaveLength(12); // two statements for each of the six functions
    for (const { statement } of roleGrants) {
      expect([KMS_ONLY_TEAM_ID, KMS_SLACK_TOKENS]).toContainEqual(statement.Condition);
    }
    expect(JSON.stringify(kms)).not.toMatch(/"Principal":"\*"|"AWS":"\*"/);
    template.resourceCountIs('AWS::KMS::Grant', 0);
  });

  it.each(FUNCTIONS)('passes SLACK_CLIENT_ID and KMS_KEY_ID (the key ARN) to %s', (name) => {
    expect(variablesOf(name)).toMatchObject({
      SLACK_CLIENT_ID: CLIENT_ID,
      KMS_KEY_ID: { 'Fn::GetAtt': [keyId(), 'Arn'] },
    });
  });

  it.each(FUNCTIONS)(
    'puts no Slack secret in the environment of %s: they stay in the Slack secret',
    (name) => {
      const variables = JSON.stringify(variablesOf(name));
      expect(variables).not.toMatch(/SECRET"|TOKEN"|slackClientSecret|slackStateSecret/);
      expect(variables).not.toMatch(/xox[abposre]-|sk_[A-Za-z0-9]/);
    },
  );

  it('leaves the Slack secret as it was, so a deploy with the switch never wipes the values put in it', () => {
    const secrets = (from: Template) => resourcesOf(from, 'AWS::SecretsManager::Secret');
    expect(secrets(template)).toEqual(secrets(plain));
  });

  it('lets the Slack function delete items (one-use OAuth states, uninstalls, a disconnected key)', () => {
    const deletes = roleStatements(template, logicalId(stack.slack.role)).filter((statement) =>
      asList(statement.Action).includes('dynamodb:DeleteItem'),
    );
    expect(deletes).toHaveLength(1);
  });

  it.each(['pollTasks', 'digest', 'watch'] as const)(
    'lets %s forget a removed workspace: deletes its key and policy',
    (name) => {
      const deletes = roleStatements(template, logicalId(stack[name].role)).filter((statement) =>
        asList(statement.Action).includes('dynamodb:DeleteItem'),
      );
      expect(deletes).toHaveLength(1);
    },
  );

  it('lets the Slack function read a removed workspace’s due work on the indexes (the uninstall event)', () => {
    const queries = roleStatements(template, logicalId(stack.slack.role)).filter((statement) =>
      asList(statement.Action).includes('dynamodb:Query'),
    );
    expect(JSON.stringify(queries)).toContain('/index/');
  });

  it('outputs the Add to Slack page, on the request URL host, and names the secret members to put', () => {
    const [url] = Object.keys(resourcesOf(template, 'AWS::Lambda::Url'));
    template.hasOutput(OUTPUTS.slackInstallUrl, {
      Value: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [url, 'FunctionUrl'] }, 'slack/install']] },
    });
    template.hasOutput(OUTPUTS.secretArn, {
      Description: 'Put {slackSigningSecret, slackClientSecret, slackStateSecret} here',
    });
  });

  it('stops the synth on a client id that is not one', () => {
    expect(() => synthesize({ context: { slackClientId: 'xoxb-1' }, bundle: false })).toThrow(
      /slackClientId: a Slack app's client id/,
    );
  });
});

describe('without the switch (the default: one workspace)', () => {
  it('creates no key and passes neither variable: existing deployments are unchanged', () => {
    plain.resourceCountIs('AWS::KMS::Key', 0);
    const text = JSON.stringify(plain.toJSON());
    for (const word of ['KMS_KEY_ID', 'SLACK_CLIENT_ID', 'kms:', OUTPUTS.slackInstallUrl]) {
      expect(text).not.toContain(word);
    }
  });

  it('differs from the distribution stack only by what distribution adds', () => {
    const added = Object.keys(allResources(template)).filter((id) => !(id in allResources(plain)));
    expect(added).toEqual([keyId()]);
  });
});

describe('cdk-nag (AWS Solutions rules)', () => {
  it('fails a synth on an unacknowledged finding (so a clean run means something)', () => {
    const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'eventbot-nag-')) });
    new Key(new Stack(app, 'Probe'), 'NotRotated');
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    try {
      expect(() => app.synth()).toThrow(/AwsSolutions-KMS5/);
    } finally {
      rmSync(app.outdir, { recursive: true, force: true });
    }
  });

  it.each([
    ['one workspace', {}],
    ['distribution', { slackClientId: CLIENT_ID }],
  ])('finds nothing unacknowledged: %s', (_mode, context) => {
    expect(() => synthesize({ context, bundle: false, nag: true })).not.toThrow();
  });
});
