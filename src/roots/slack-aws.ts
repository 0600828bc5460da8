import { AWS_SERVICES, type AwsTarget, awsFetch, targetFromEnvironment } from '../platform/aws-fetch.ts';
import type { Env } from '../platform/config/env.ts';
import type { ReadSecret } from '../platform/config/secrets.ts';
import { readWithFetch } from '../platform/config/secrets-over-fetch.ts';
import type { Tracing } from '../platform/tracing.ts';
import type { InvokeWorker } from '../slack/dispatch.ts';
import { createFetchedDeliveryLog } from '../store/deliveries-over-fetch.ts';
import type { DeliveryLog } from '../store/delivery-log.ts';
import { createFetchedPlanShows, type PlanShowsReader } from '../store/plan-shows-over-fetch.ts';
import { once } from './deferred.ts';

/**
 * The Slack function's AWS calls before its first ack (the secret read, the delivery record, the
 * worker's Invoke, a channel's plan for `plan add`): signed `fetch` with the credentials Lambda puts in the environment, honouring
 * `AWS_ENDPOINT_URL_<SERVICE>` as the SDK does. Without static credentials (a developer's profile, SSO)
 * each falls back to the AWS SDK, imported on its first call. Everything else uses the SDK.
 */

/** Lambda Invoke of `functionName` with InvocationType 'Event'. */
export function workerInvoker(
  source: NodeJS.ProcessEnv,
  functionName: string,
  tracing: Tracing,
): InvokeWorker {
  const target = targetFromEnvironment(source, AWS_SERVICES.lambda);
  if (!target) {
    const sdk = once(() =>
      import('./slack-sdk.ts').then((module) => module.sdkWorkerInvoker(functionName, tracing)),
    );
    return async (payload) => (await sdk())(payload);
  }
  const lambda = awsFetch(AWS_SERVICES.lambda, target, { tracing });
  const path = `/2015-03-31/functions/${encodeURIComponent(functionName)}/invocations`;
  const headers = { 'content-type': 'application/json', 'x-amz-invocation-type': 'Event' };
  return async (payload) => {
    await lambda(path, {
      operation: 'Invoke',
      resource: { function_name: functionName },
      headers,
      body: payload,
    });
  };
}

/** Secrets Manager's GetSecretValue. */
export function secretReader(source: NodeJS.ProcessEnv, tracing: Tracing): ReadSecret {
  const target = targetFromEnvironment(source, AWS_SERVICES.secretsManager);
  if (target) return readWithFetch(awsFetch(AWS_SERVICES.secretsManager, target, { tracing }));
  const sdk = once(() => import('./slack-sdk.ts').then((module) => module.sdkSecretReader(tracing)));
  return async (secretId) => (await sdk())(secretId);
}

/** The delivery log (the dedupe of slash commands and events), or undefined to use the store's. */
export function fetchedDeliveryLog(
  env: Env,
  source: NodeJS.ProcessEnv,
  now: () => Date,
  tracing: Tracing,
): Pick<DeliveryLog, 'first'> | undefined {
  const target = dynamoDbTarget(env, source);
  const dynamodb = target && awsFetch(AWS_SERVICES.dynamodb, target, { tracing });
  return dynamodb && createFetchedDeliveryLog(dynamodb, env.TABLE_NAME, now);
}

/** The plans' shows the ack reads (`plan add`), or undefined to use the store's. */
export function fetchedPlanShows(
  env: Env,
  source: NodeJS.ProcessEnv,
  tracing: Tracing,
): PlanShowsReader | undefined {
  const target = dynamoDbTarget(env, source);
  return (
    target && createFetchedPlanShows(awsFetch(AWS_SERVICES.dynamodb, target, { tracing }), env.TABLE_NAME)
  );
}

/** As the store's document client (`createDocumentClient`): an endpoint override is called with dummy keys. */
function dynamoDbTarget(env: Env, source: NodeJS.ProcessEnv): AwsTarget | undefined {
  const endpoint = env.AWS_ENDPOINT_URL_DYNAMODB;
  if (!endpoint) return targetFromEnvironment(source, AWS_SERVICES.dynamodb);
  return {
    region: source.AWS_REGION ?? 'us-east-1',
    endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  };
}
