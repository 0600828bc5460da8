import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { Env } from '../platform/config/env.ts';
import type { KeyCipher } from '../platform/config/key-cipher.ts';
import type { ReadSecret } from '../platform/config/secrets.ts';
import { readWithSdk } from '../platform/config/secrets-manager.ts';
import type { Tracing } from '../platform/tracing.ts';
import type { InvokeWorker } from '../slack/dispatch.ts';
import { createStore, type Store } from '../store/index.ts';
import { createDocumentClient } from '../store/table.ts';

// The Slack function's AWS SDK half, loaded with `import()` when a request first needs it: the store
// (confirmations, digests, a distributed app's installs) and, without static credentials, the calls
// `slack-aws.ts` otherwise signs itself.

/** The store on one DynamoDB document client, with or without a key cipher. */
export function slackStores(env: Env, tracing: Tracing, now: () => Date): (keyCipher?: KeyCipher) => Store {
  const endpoint = env.AWS_ENDPOINT_URL_DYNAMODB;
  const client = tracing.captureAwsClient(createDocumentClient(endpoint ? { endpoint } : {}));
  return (keyCipher) =>
    createStore({ client, tableName: env.TABLE_NAME, now, ...(keyCipher ? { keyCipher } : {}) });
}

export function sdkWorkerInvoker(functionName: string, tracing: Tracing): InvokeWorker {
  const lambda = tracing.captureAwsClient(new LambdaClient({}));
  return async (payload) => {
    await lambda.send(
      new InvokeCommand({ FunctionName: functionName, InvocationType: 'Event', Payload: payload }),
    );
  };
}

export function sdkSecretReader(tracing: Tracing): ReadSecret {
  return readWithSdk(() => tracing.captureAwsClient(new SecretsManagerClient({})));
}
