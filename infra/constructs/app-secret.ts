import { SecretValue, Validations } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

/**
 * The Slack secret's placeholder, exactly as the first (single-secret) release created it. Its
 * `eisApiKey` field is a leftover: the key now lives in the service secret, and docs/deploy.md has the
 * operator put only the two Slack fields here. It stays because CloudFormation writes a changed
 * `SecretString` over whatever `put-secret-value` stored, so any edit would wipe a live stack's values.
 */
export const SLACK_SECRET_PLACEHOLDER = { slackSigningSecret: '', slackBotToken: '', eisApiKey: '' } as const;
/** The service secret's placeholder: the one field the worker, poll-tasks and digest read from it. */
export const SERVICE_SECRET_PLACEHOLDER = { eisApiKey: '' } as const;

/**
 * The app's two Secrets Manager secrets, split by who may read them:
 * - `slack` (`APP_SECRET_ID`): `{slackSigningSecret, slackBotToken}`, read by every function;
 * - `service` (`EIS_SECRET_ID`): `{eisApiKey}`, read by the worker, poll-tasks and digest only, so the
 *   public Slack function cannot spend credits even if its code were turned against us.
 *
 * Both are created holding an empty placeholder: `unsafePlainText` only means "this text is in the
 * template", which is fine because it holds no value at all. The real values go in with `aws
 * secretsmanager put-secret-value` and never pass through CloudFormation; later deploys leave them
 * alone, as the placeholders do not change (so do not change them). Until then the functions fail
 * fast, since the runtime rejects empty fields. Neither rotates on a schedule: both hold credentials
 * issued by Slack and by the service, which a rotation function could not mint; they are replaced by
 * hand (`put-secret-value`) and picked up within the runtime's five-minute cache.
 */
export class AppSecret extends Construct {
  readonly slack: Secret;
  readonly service: Secret;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    // Id `Secret` and the text below as first released: the same resource, untouched by this split.
    this.slack = new Secret(this, 'Secret', {
      description: 'eventbot: {slackSigningSecret, slackBotToken, eisApiKey} (put with put-secret-value)',
      secretStringValue: SecretValue.unsafePlainText(JSON.stringify(SLACK_SECRET_PLACEHOLDER)),
    });
    this.service = new Secret(this, 'ServiceSecret', {
      description: 'eventbot: {eisApiKey}, the service API key (put with put-secret-value)',
      secretStringValue: SecretValue.unsafePlainText(JSON.stringify(SERVICE_SECRET_PLACEHOLDER)),
    });
    for (const secret of [this.slack, this.service]) {
      Validations.of(secret).acknowledge({
        id: 'AwsSolutions-SMG4',
        reason:
          'Holds credentials issued by Slack and by the service, which no rotation function can mint; replaced by hand with put-secret-value',
      });
    }
  }
}
