import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SignatureV4 } from '@smithy/signature-v4';
import {
  AWS_SERVICES,
  awsFetch,
  signedHeaders,
  targetFromEnvironment,
} from '../../../src/platform/aws-fetch.ts';
import { createFetchedDeliveryLog } from '../../../src/store/deliveries-over-fetch.ts';

const SECRET_KEY = 'wJalrXUtnFEMI-test-secret-key-9d1e';
const SESSION_TOKEN = 'IQoJb3JpZ2luX2VjE-test-session-token-41c7';

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A stand-in AWS endpoint: answers each request with the next of `answers` (the last one repeats). */
async function standIn(answers: { status: number; body?: unknown; errorType?: string }[]) {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ url: request.url ?? '', headers: request.headers, body });
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)] ?? { status: 200 };
      response.writeHead(answer.status, {
        'content-type': 'application/json',
        ...(answer.errorType ? { 'x-amzn-errortype': answer.errorType } : {}),
      });
      response.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url, seen };
}

const closers: (() => Promise<void>)[] = [];

/** The SDK signer's hash interface over node:crypto (SHA-256, HMAC when given a key). */
class NodeSha256 {
  private readonly hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    const key =
      secret === undefined || typeof secret === 'string' ? secret : Buffer.from(secret as ArrayBuffer);
    this.hash = key === undefined ? createHash('sha256') : createHmac('sha256', key);
  }
  reset() {
    throw new Error('not used by the signer');
  }
  update(data: Uint8Array | string) {
    this.hash.update(data);
  }
  digest() {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** What Lambda puts in the environment, with the endpoint override tests and `npm run dev` use. */
const lambdaEnvironment = (extra: Record<string, string>) => ({
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'ASIATESTKEYID',
  AWS_SECRET_ACCESS_KEY: SECRET_KEY,
  AWS_SESSION_TOKEN: SESSION_TOKEN,
  ...extra,
});

const dynamoCall = {
  operation: 'PutItem',
  headers: { 'x-amz-target': 'DynamoDB_20120810.PutItem' },
  body: '{}',
};

describe('signed AWS calls over fetch', () => {
  it('go to the endpoint override, signed with the environment’s credentials and session token', async () => {
    const lambda = await standIn([{ status: 202 }]);
    const target = targetFromEnvironment(
      lambdaEnvironment({ AWS_ENDPOINT_URL_LAMBDA: lambda.url }),
      AWS_SERVICES.lambda,
    );
    if (!target) throw new Error('expected a target from the environment');

    const answer = await awsFetch(AWS_SERVICES.lambda, target)('/2015-03-31/functions/worker/invocations', {
      operation: 'Invoke',
      headers: { 'x-amz-invocation-type': 'Event' },
      body: '{"kind":"command"}',
    });

    expect(answer.status).toBe(202);
    const [request] = lambda.seen;
    expect(request?.url).toBe('/2015-03-31/functions/worker/invocations');
    expect(request?.body).toBe('{"kind":"command"}');
    expect(request?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=ASIATESTKEYID\/\d{8}\/eu-west-1\/lambda\/aws4_request, SignedHeaders=\S*x-amz-invocation-type\S*, Signature=[0-9a-f]{64}$/,
    );
    expect(request?.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
    expect(request?.headers['x-amz-security-token']).toBe(SESSION_TOKEN);
  });

  it('carry the signature the AWS SDK’s own signer computes for the same request', async () => {
    const credentials = {
      accessKeyId: 'ASIATESTKEYID',
      secretAccessKey: SECRET_KEY,
      sessionToken: SESSION_TOKEN,
    };
    const url = new URL(
      'https://lambda.eu-west-1.amazonaws.com/2015-03-31/functions/arn%3Aaws%3Alambda%3Aeu-west-1%3A1%3Afunction%3Aworker/invocations',
    );
    const at = new Date('2031-05-14T10:00:00.000Z');
    const body = '{"kind":"command"}';
    const ours = signedHeaders(
      'lambda',
      { region: 'eu-west-1', credentials },
      url,
      { 'X-Amz-Invocation-Type': 'Event' },
      body,
      at,
    );
    const sdk = await new SignatureV4({
      service: 'lambda',
      region: 'eu-west-1',
      credentials,
      sha256: NodeSha256,
      applyChecksum: false,
    }).sign(
      {
        method: 'POST',
        protocol: url.protocol,
        hostname: url.hostname,
        path: url.pathname,
        headers: { host: url.host, 'x-amz-invocation-type': 'Event' },
        body,
      },
      { signingDate: at },
    );

    expect(ours.authorization).toBe(sdk.headers.authorization);
  });

  it('are left to the AWS SDK without static credentials, or under a named profile', () => {
    const { AWS_ACCESS_KEY_ID: _id, ...withoutKeys } = lambdaEnvironment({});
    expect(targetFromEnvironment(withoutKeys, AWS_SERVICES.dynamodb)).toBeUndefined();
    expect(
      targetFromEnvironment(lambdaEnvironment({ AWS_PROFILE: 'dev' }), AWS_SERVICES.dynamodb),
    ).toBeUndefined();
  });

  it('retry a 5xx and a throttled answer, then return the success', async () => {
    const dynamodb = await standIn([
      { status: 500, body: { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError' } },
      {
        status: 400,
        body: { __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException' },
      },
      { status: 200, body: {} },
    ]);
    const target = {
      region: 'eu-west-1',
      endpoint: dynamodb.url,
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    };

    const answer = await awsFetch(AWS_SERVICES.dynamodb, target, { baseDelayMs: 1 })('/', dynamoCall);

    expect(answer.status).toBe(200);
    expect(dynamodb.seen).toHaveLength(3);
  });

  it('give up after three tries of a 5xx, and never retry a refusal', async () => {
    const failing = await standIn([{ status: 503, body: { message: 'Service unavailable' } }]);
    const refusing = await standIn([
      {
        status: 400,
        body: { __type: 'com.amazonaws.dynamodb.v20120810#ValidationException', message: 'bad' },
      },
    ]);
    const target = (endpoint: string) => ({
      region: 'eu-west-1',
      endpoint,
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    });

    const call = (endpoint: string) =>
      awsFetch(AWS_SERVICES.dynamodb, target(endpoint), { baseDelayMs: 1 })('/', dynamoCall);

    await expect(call(failing.url)).rejects.toMatchObject({ name: 'Http503', statusCode: 503 });
    await expect(call(refusing.url)).rejects.toMatchObject({ name: 'ValidationException', message: 'bad' });
    expect(failing.seen).toHaveLength(3);
    expect(refusing.seen).toHaveLength(1);
  });

  it('name an error by its type, and keep the secret key, session token and signature out of its text', async () => {
    const echo = `The request signature we calculated does not match. The Canonical String should have been 'x-amz-security-token:${SESSION_TOKEN}' with key ${SECRET_KEY}; Signature=0123456789abcdef`;
    const lambda = await standIn([
      {
        status: 403,
        errorType: 'InvalidSignatureException:http://internal.amazon.com/',
        body: { message: echo },
      },
    ]);
    const target = targetFromEnvironment(
      lambdaEnvironment({ AWS_ENDPOINT_URL_LAMBDA: lambda.url }),
      AWS_SERVICES.lambda,
    );
    if (!target) throw new Error('expected a target from the environment');

    const failure: unknown = await awsFetch(AWS_SERVICES.lambda, target)('/x', {
      operation: 'Invoke',
      headers: {},
      body: '',
    }).catch((error: unknown) => error);

    expect(failure).toMatchObject({ name: 'InvalidSignatureException', statusCode: 403 });
    const text = `${String(failure)} ${JSON.stringify(failure)} ${(failure as Error).stack ?? ''}`;
    expect(text).toContain('The request signature we calculated does not match');
    for (const secret of [SESSION_TOKEN, SECRET_KEY, '0123456789abcdef']) expect(text).not.toContain(secret);
  });

  it('map DynamoDB’s ConditionalCheckFailed to a delivery seen before', async () => {
    const owner = '6f1c2a4e-0000-4000-8000-000000000001';
    const dynamodb = await standIn([
      {
        status: 400,
        body: {
          __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException',
          message: 'The conditional request failed',
        },
      },
      {
        status: 200,
        body: {
          Item: {
            pk: { S: 'DELIVERY#command:1' },
            sk: { S: 'DELIVERY' },
            type: { S: 'delivery' },
            key: { S: 'command:1' },
            owner: { S: owner },
            at: { S: '2031-05-14T10:00:00.000Z' },
            expiresAt: { N: '1952503200' },
          },
        },
      },
    ]);
    const target = {
      region: 'eu-west-1',
      endpoint: dynamodb.url,
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    };
    const deliveries = createFetchedDeliveryLog(awsFetch(AWS_SERVICES.dynamodb, target), 'eventbot');

    expect(await deliveries.first('command:1')).toBe(false);
    expect(dynamodb.seen.map((request) => request.headers['x-amz-target'])).toEqual([
      'DynamoDB_20120810.PutItem',
      'DynamoDB_20120810.GetItem',
    ]);
    expect(JSON.parse(dynamodb.seen[0]?.body ?? '{}')).toMatchObject({
      TableName: 'eventbot',
      ConditionExpression: 'attribute_not_exists(pk)',
      Item: { pk: { S: 'DELIVERY#command:1' }, key: { S: 'command:1' }, type: { S: 'delivery' } },
    });
  });
});
