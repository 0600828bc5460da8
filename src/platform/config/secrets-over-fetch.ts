import type { AwsFetch } from '../aws-fetch.ts';
import type { ReadSecret } from './secrets.ts';

/** Secrets Manager's GetSecretValue over signed `fetch` (its JSON protocol), for the Slack function's cold start. */
export const readWithFetch =
  (secretsManager: AwsFetch): ReadSecret =>
  async (secretId) => {
    const { text } = await secretsManager('/', {
      operation: 'GetSecretValue',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'secretsmanager.GetSecretValue',
      },
      body: JSON.stringify({ SecretId: secretId }),
    });
    const answer: unknown = JSON.parse(text);
    const value =
      typeof answer === 'object' && answer !== null
        ? (answer as { SecretString?: unknown }).SecretString
        : undefined;
    return typeof value === 'string' ? value : undefined;
  };
