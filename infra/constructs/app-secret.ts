import { SecretValue } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

/** The fields `src/config/secrets.ts` expects, empty until the operator puts the real document. */
export const SECRET_PLACEHOLDER = { slackSigningSecret: '', slackBotToken: '', eisApiKey: '' } as const;

/**
 * The one Secrets Manager secret with `{slackSigningSecret, slackBotToken, eisApiKey}`. It is created
 * holding the placeholder above: `unsafePlainText` only means "this text is in the template", which is
 * fine because it holds no value at all. The real values go in with `aws secretsmanager
 * put-secret-value` and never pass through CloudFormation; later deploys leave them alone, as the
 * placeholder does not change (so do not change it). Until then the functions fail fast with
 * "Secret … must be JSON with …", since the runtime rejects empty fields.
 */
export class AppSecret extends Construct {
  readonly secret: Secret;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.secret = new Secret(this, 'Secret', {
      description: 'eventbot: {slackSigningSecret, slackBotToken, eisApiKey} (put with put-secret-value)',
      secretStringValue: SecretValue.unsafePlainText(JSON.stringify(SECRET_PLACEHOLDER)),
    });
  }
}
