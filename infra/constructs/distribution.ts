import { RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { SLACK_TOKENS_PURPOSE } from '../../src/platform/config/key-cipher.ts';

/**
 * The one encryption-context key the app puts on every service-key KMS call (`EncryptionContext:
 * { teamId }`, see `src/platform/config/key-cipher.ts`): those grants allow no call without it, nor with any
 * other key, so they never cover Slack tokens (whose context adds `purpose`).
 */
export const WORKSPACE_KEY_CONTEXT = 'teamId';

/** The context keys of a Slack token's KMS calls: `{ teamId, purpose: SLACK_TOKENS_PURPOSE }`. */
export const SLACK_TOKENS_CONTEXT = [WORKSPACE_KEY_CONTEXT, 'purpose'] as const;

/** What a function does with the key: the Slack function stores service keys, the others read them. */
export type WorkspaceKeyUse = 'encrypt' | 'decrypt';

export interface DistributionProps {
  /** The Slack app's client id (`-c slackClientId=…`), passed to the functions as `SLACK_CLIENT_ID`. */
  readonly slackClientId: string;
}

/**
 * What distribution (issue 15, `-c slackClientId=…`) adds to the stack: the app's client id, and
 * the KMS key that encrypts each workspace's Event Intelligence service key and Slack tokens in the
 * table. Functions get both with `BotFunction.allowDistribution`, which sets `SLACK_CLIENT_ID` and
 * `KMS_KEY_ID` and grants one service-key action under `statementFor`'s encryption-context condition
 * and both token actions under `slackTokensStatement`'s.
 *
 * The key policy is CDK's default (the account delegates to IAM; no other principal), so access is
 * exactly those role grants. Rotation is on (yearly; old material stays for decrypts).
 */
export class Distribution extends Construct {
  readonly slackClientId: string;
  readonly key: Key;

  constructor(scope: Construct, id: string, props: DistributionProps) {
    super(scope, id);
    this.slackClientId = props.slackClientId;
    this.key = new Key(this, 'WorkspaceKeys', {
      description:
        'eventbot: encrypts each workspace service key (context teamId) and its Slack tokens (teamId, purpose)',
      enableKeyRotation: true,
      // The table is retained with the ciphertexts in it; without this key they could never be read.
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /**
   * `kms:Encrypt` or `kms:Decrypt` on the key, only when the encryption context's keys are exactly
   * `teamId`: ForAllValues alone would also pass a call with no context, so ForAnyValue requires it.
   */
  statementFor(use: WorkspaceKeyUse): PolicyStatement {
    const contextKeys = { 'kms:EncryptionContextKeys': [WORKSPACE_KEY_CONTEXT] };
    return new PolicyStatement({
      actions: [use === 'encrypt' ? 'kms:Encrypt' : 'kms:Decrypt'],
      resources: [this.key.keyArn],
      conditions: {
        'ForAllValues:StringEquals': contextKeys,
        'ForAnyValue:StringEquals': contextKeys,
      },
    });
  }

  /**
   * `kms:Encrypt` and `kms:Decrypt` for Slack tokens (every function that reads a token may also
   * refresh it): only when the context's keys are exactly `teamId` and `purpose` (ForAllValues: no
   * other; ForAnyValue: `teamId` present) and `purpose` is `slack-tokens` (present, so never a
   * service key's context).
   */
  slackTokensStatement(): PolicyStatement {
    return new PolicyStatement({
      actions: ['kms:Encrypt', 'kms:Decrypt'],
      resources: [this.key.keyArn],
      conditions: {
        'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': [...SLACK_TOKENS_CONTEXT] },
        'ForAnyValue:StringEquals': { 'kms:EncryptionContextKeys': [WORKSPACE_KEY_CONTEXT] },
        StringEquals: { 'kms:EncryptionContext:purpose': SLACK_TOKENS_PURPOSE },
      },
    });
  }
}
