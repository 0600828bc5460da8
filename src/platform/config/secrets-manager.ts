import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { ReadSecret } from './secrets.ts';

/** Secrets Manager's GetSecretValue over the AWS SDK (the client made on the first read). */
export const readWithSdk =
  (client: () => SecretsManagerClient): ReadSecret =>
  async (secretId) =>
    (await client().send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString;
