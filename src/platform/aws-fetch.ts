import { createHash, createHmac } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { NO_TRACING, type Tracing } from './tracing.ts';

/**
 * Signed AWS calls (SigV4, JSON over HTTPS) for the few calls on the Slack function's ack path:
 * loading the AWS SDK clients costs that path more than the calls themselves (docs/
 * slack-function-profile.md, fourth step). Everything else uses the SDK. Over `node:https`, not
 * `fetch`: Node compiles undici on the first `fetch`, about 40 ms of CPU at a cold start (measured),
 * which is why aws4fetch (SigV4 over `fetch` and WebCrypto) is not used. Nor is the SDK's own signer,
 * `@smithy/signature-v4`: it depends on `@smithy/core` (131 KiB), the largest part of what this cut
 * takes off the ack; the unit tests check this signature against it.
 */

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** Where and as whom the calls go: the region, the service's endpoint, static credentials. */
export interface AwsTarget {
  region: string;
  endpoint: string;
  credentials: AwsCredentials;
}

/**
 * The credentials Lambda puts in the environment, or undefined when there are none (a developer's
 * profile or SSO: the SDK's credential chain is needed then). With `AWS_PROFILE` set the SDK skips the
 * environment's keys, so this does too.
 */
export function environmentCredentials(env: NodeJS.ProcessEnv): AwsCredentials | undefined {
  const { AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_PROFILE } = env;
  if (AWS_PROFILE || !AWS_ACCESS_KEY_ID || !AWS_SECRET_ACCESS_KEY) return undefined;
  return {
    accessKeyId: AWS_ACCESS_KEY_ID,
    secretAccessKey: AWS_SECRET_ACCESS_KEY,
    ...(AWS_SESSION_TOKEN ? { sessionToken: AWS_SESSION_TOKEN } : {}),
  };
}

/** The services called this way: SigV4's signing name and the SDK's endpoint override variable. */
export const AWS_SERVICES = {
  dynamodb: { signingName: 'dynamodb', endpointVariable: 'AWS_ENDPOINT_URL_DYNAMODB', traceName: 'DynamoDB' },
  lambda: { signingName: 'lambda', endpointVariable: 'AWS_ENDPOINT_URL_LAMBDA', traceName: 'Lambda' },
  secretsManager: {
    signingName: 'secretsmanager',
    endpointVariable: 'AWS_ENDPOINT_URL_SECRETS_MANAGER',
    traceName: 'Secrets Manager',
  },
} as const;
export type AwsService = (typeof AWS_SERVICES)[keyof typeof AWS_SERVICES];

/**
 * A service's endpoint as the SDK picks it: its own `AWS_ENDPOINT_URL_<SERVICE>` (DynamoDB Local, the
 * bench's stand-ins), else `AWS_ENDPOINT_URL`, else the regional endpoint.
 */
export function serviceEndpoint(env: NodeJS.ProcessEnv, service: AwsService, region: string): string {
  return (
    env[service.endpointVariable] ??
    env.AWS_ENDPOINT_URL ??
    `https://${service.signingName}.${region}.amazonaws.com`
  );
}

/** Region, endpoint and credentials from the environment, or undefined without static credentials or a region. */
export function targetFromEnvironment(env: NodeJS.ProcessEnv, service: AwsService): AwsTarget | undefined {
  const credentials = environmentCredentials(env);
  const region = env.AWS_REGION;
  if (!credentials || !region) return undefined;
  return { region, endpoint: serviceEndpoint(env, service, region), credentials };
}

/**
 * An AWS service's error answer, named by its error type as the SDK names its exceptions
 * (`ConditionalCheckFailedException`); status 0 when no answer came (`NetworkingError`).
 */
export class AwsServiceError extends Error {
  readonly statusCode: number;
  readonly retryable: boolean;
  constructor(type: string, message: string, statusCode: number) {
    super(message);
    this.name = type;
    this.statusCode = statusCode;
    this.retryable = statusCode === 0 || statusCode >= 500 || statusCode === 429 || THROTTLING.has(type);
  }
}

/** Error types the SDK retries as throttling (DynamoDB and Lambda answer some with a 400). */
const THROTTLING = new Set([
  'ThrottlingException',
  'Throttling',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'TransactionInProgressException',
  'RequestThrottledException',
  'LimitExceededException',
]);

export interface AwsFetchOptions {
  /** Tries per call, the first included (the SDK's default is 3). */
  attempts?: number;
  /** Full jitter: the n-th retry waits a random time up to `baseDelayMs · 2ⁿ`. */
  baseDelayMs?: number;
  /** X-Ray: each call in an `aws` subsegment, as the SDK's capture records it. */
  tracing?: Pick<Tracing, 'traceAwsCall'>;
}

/** One call: its operation and the resource it names (for the trace), headers and JSON body. */
export interface AwsCall {
  operation: string;
  resource?: Record<string, string>;
  headers: Record<string, string>;
  body: string;
}

export interface AwsResponse {
  status: number;
  text: string;
}

export type AwsFetch = (path: string, call: AwsCall) => Promise<AwsResponse>;

/**
 * POSTs to one service, signed, retrying network failures, 5xx and throttling with jittered backoff
 * (connections kept alive, as the SDK does); any other non-2xx answer is thrown as an
 * `AwsServiceError`. No error text carries a credential.
 */
export function awsFetch(service: AwsService, target: AwsTarget, options: AwsFetchOptions = {}): AwsFetch {
  const { attempts = 3, baseDelayMs = 50, tracing = NO_TRACING } = options;
  const endpoint = target.endpoint.replace(/\/+$/, '');
  const redact = redactor(target.credentials);
  const send = sender(new URL(endpoint).protocol);
  const once = async (url: URL, call: AwsCall, traceHeader: string | undefined): Promise<AwsResponse> => {
    try {
      const headers = signedHeaders(service.signingName, target, url, call.headers, call.body);
      // Not signed (as the SDK leaves it out): X-Ray's header for the trace to go on.
      const answer = await send(
        url,
        { ...headers, ...(traceHeader ? { 'x-amzn-trace-id': traceHeader } : {}) },
        call.body,
      );
      if (answer.status >= 200 && answer.status < 300) return { status: answer.status, text: answer.text };
      throw errorOf(answer, redact);
    } catch (error) {
      if (error instanceof AwsServiceError) throw error;
      // Refused, reset, DNS: Node's words for it quote no request data.
      throw new AwsServiceError(
        'NetworkingError',
        redact(error instanceof Error ? error.message : 'no answer'),
        0,
      );
    }
  };
  return (path, call) => {
    const url = new URL(`${endpoint}${path}`);
    const trace = { service: service.traceName, operation: call.operation, region: target.region };
    return tracing.traceAwsCall(
      { ...trace, ...(call.resource ? { resource: call.resource } : {}) },
      async (traceHeader) => {
        for (let attempt = 1; ; attempt++) {
          try {
            return await once(url, call, traceHeader);
          } catch (error) {
            if (!(error instanceof AwsServiceError) || !error.retryable || attempt >= attempts) throw error;
          }
          await new Promise((resolve) => setTimeout(resolve, Math.random() * baseDelayMs * 2 ** attempt));
        }
      },
    );
  };
}

interface RawAnswer {
  status: number;
  errorType: string | undefined;
  text: string;
}

function sender(protocol: string) {
  const secure = protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const request = secure ? httpsRequest : httpRequest;
  return (url: URL, headers: Record<string, string>, body: string) =>
    new Promise<RawAnswer>((resolve, reject) => {
      const outgoing = request(url, { method: 'POST', headers, agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const errorType = response.headers['x-amzn-errortype'];
          resolve({
            status: response.statusCode ?? 0,
            errorType: typeof errorType === 'string' ? errorType : undefined,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
}

/** SigV4 of one POST (AWS's "Create a signed AWS API request"), headers and body signed. */
export function signedHeaders(
  service: string,
  { region, credentials }: Pick<AwsTarget, 'region' | 'credentials'>,
  url: URL,
  headers: Record<string, string>,
  body: string,
  now: Date = new Date(),
): Record<string, string> {
  const amzDate = now.toISOString().replace(/[:-]|\.\d{3}/g, '');
  const scope = `${amzDate.slice(0, 8)}/${region}/${service}/aws4_request`;
  const signed: Record<string, string> = {
    ...Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])),
    host: url.host,
    'x-amz-date': amzDate,
    ...(credentials.sessionToken ? { 'x-amz-security-token': credentials.sessionToken } : {}),
  };
  const names = Object.keys(signed).sort();
  const canonicalRequest = [
    'POST',
    // Every path segment encoded twice (all services but S3).
    url.pathname
      .split('/')
      .map((segment) => uriEncode(uriEncode(decodeURIComponent(segment))))
      .join('/'),
    '',
    names.map((name) => `${name}:${(signed[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join(''),
    names.join(';'),
    sha256(body),
  ].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = [amzDate.slice(0, 8), region, service, 'aws4_request'].reduce<Buffer | string>(
    (previous, part) => hmac(previous, part),
    `AWS4${credentials.secretAccessKey}`,
  );
  const signature = hmac(key, stringToSign).toString('hex');
  return {
    ...signed,
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
    'content-length': String(Buffer.byteLength(body)),
  };
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();
const uriEncode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

/** The error type from the `x-amzn-errortype` header or the JSON body's `__type`/`code`, as the SDK reads it. */
function errorOf(answer: RawAnswer, redact: (text: string) => string): AwsServiceError {
  const body = parseObject(answer.text);
  const raw =
    answer.errorType ??
    stringField(body, '__type') ??
    stringField(body, 'code') ??
    stringField(body, 'Type') ??
    `Http${answer.status}`;
  // `com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException`, `Name:http://…`
  const type = raw.split('#').at(-1)?.split(':')[0] || `Http${answer.status}`;
  const message = stringField(body, 'message') ?? stringField(body, 'Message') ?? `HTTP ${answer.status}`;
  return new AwsServiceError(type, redact(message), answer.status);
}

/**
 * A signature mismatch answer quotes the canonical request, headers and session token included: the
 * token, the secret key and any signature are cut out, and the text kept short.
 */
function redactor({ secretAccessKey, sessionToken }: AwsCredentials): (text: string) => string {
  // Real keys and tokens are long; a short test value would cut ordinary words.
  const secrets = [secretAccessKey, sessionToken].filter(
    (value): value is string => (value ?? '').length >= 8,
  );
  return (text) => {
    let kept = text;
    for (const secret of secrets) kept = kept.split(secret).join('[redacted]');
    return kept.replace(/Signature=[0-9a-f]+/gi, 'Signature=[redacted]').slice(0, 300);
  };
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function stringField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
