import { subscribe } from 'node:diagnostics_channel';
import type { Tracer } from '@aws-lambda-powertools/tracer';
import { createLogger } from './log.ts';

/**
 * X-Ray tracing through Powertools Tracer, for the two functions a user waits on (the Slack function
 * and the worker; the stack turns on active tracing for those two only). Each invocation runs in a
 * `## <handler>` subsegment annotated with `ColdStart` and `Service`; the AWS SDK clients passed to
 * `captureAwsClient` (DynamoDB, Lambda, Secrets Manager) add one subsegment per call (operation,
 * table or function name; never items or payloads), and every `fetch` (Slack's Web API, response
 * URLs, the service) adds one with its host, method and status (see `traceFetches`).
 *
 * Annotations are indexed and searchable, so they hold only ids and fixed words (`JobKind`,
 * `Subcommand` from the known command list, `Button` from the known action ids), never message text, command arguments or secrets. The
 * handler's response is not recorded (a Slack answer holds message text).
 *
 * Off, as a no-op that never loads the X-Ray SDK, anywhere but Lambda (tests, `npm run dev`, the
 * bench), under SAM local and with `POWERTOOLS_TRACE_ENABLED=false`: the same rules Powertools
 * applies, checked before the import, because importing the SDK enables a process-wide async hook
 * (cls-hooked) and sets `AWS_XRAY_CONTEXT_MISSING`. On Lambda the import starts at once, during init.
 */
export type Annotation = string | number | boolean;
export type Annotations = Record<string, Annotation | undefined>;

export interface Tracing {
  readonly enabled: boolean;
  /** `client`, its calls traced from now on (or from when the tracer has loaded). */
  captureAwsClient<C extends object>(client: C): C;
  /** Runs one invocation in its own annotated subsegment; an error thrown is recorded on it. */
  traceInvocation<T>(work: () => Promise<T>): Promise<T>;
  /** Annotates the invocation under way (undefined values are left out). */
  annotate(annotations: Annotations): void;
  /**
   * One AWS call made without the SDK (`aws-fetch.ts`) in an `aws` subsegment, as the SDK's capture
   * records it (service, operation, the table or function named); `work` gets the trace header that
   * carries the trace on (an async Invoke: into the worker's trace).
   */
  traceAwsCall<T>(call: AwsCallTrace, work: (traceHeader?: string) => Promise<T>): Promise<T>;
}

export interface AwsCallTrace {
  service: string;
  operation: string;
  region: string;
  /** `table_name`, `function_name`: ids, never items or payloads. */
  resource?: Record<string, string>;
}

export const NO_TRACING: Tracing = {
  enabled: false,
  captureAwsClient: (client) => client,
  traceInvocation: (work) => work(),
  annotate: () => undefined,
  traceAwsCall: (_call, work) => work(),
};

/** The part of Powertools' `Tracer` used here (tests pass a fake). */
export type TracerLike = Pick<
  Tracer,
  | 'captureAWSv3Client'
  | 'getSegment'
  | 'setSegment'
  | 'annotateColdStart'
  | 'addServiceNameAnnotation'
  | 'addErrorAsMetadata'
  | 'putAnnotation'
>;

export interface TracingOptions {
  /** Loads the tracer; by default Powertools', imported only when tracing is on. */
  load?: (serviceName: string) => Promise<TracerLike>;
  /** Told when the tracer cannot be loaded (the function then runs untraced); by default, a log line. */
  onLoadError?: (error: unknown) => void;
}

/** Whether Powertools Tracer would trace in this environment (its own rules, read from `env`). */
export function tracingEnabledIn(env: NodeJS.ProcessEnv): boolean {
  return (
    Boolean(env.AWS_EXECUTION_ENV) &&
    !env.AWS_SAM_LOCAL &&
    env.AWS_EXECUTION_ENV !== 'AWS_Lambda_amplify-mock' &&
    env.POWERTOOLS_TRACE_ENABLED?.toLowerCase() !== 'false'
  );
}

async function loadPowertools(serviceName: string): Promise<TracerLike> {
  const { Tracer } = await import('@aws-lambda-powertools/tracer');
  // HTTP requests are traced by `traceFetches`, which keeps credentials out of the recorded URLs.
  return new Tracer({ serviceName, captureHTTPsRequests: false });
}

export function createTracing(env: NodeJS.ProcessEnv = process.env, options: TracingOptions = {}): Tracing {
  if (!tracingEnabledIn(env)) return NO_TRACING;
  const load = options.load ?? loadPowertools;
  // Clients made before the tracer has loaded (module init) are captured when it has.
  let waiting: Set<object> | undefined = new Set<object>();
  let tracer: TracerLike | undefined;
  const ready = load(env.POWERTOOLS_SERVICE_NAME ?? 'eventbot').then(
    (loaded) => {
      tracer = loaded;
      for (const client of waiting ?? []) loaded.captureAWSv3Client(client);
      waiting = undefined;
      traceFetches(loaded, pathKeptFor(env));
    },
    (error: unknown) => {
      waiting = undefined;
      const report =
        options.onLoadError ??
        ((cause: unknown) =>
          createLogger().warn('tracing is off: the tracer did not load', { error: cause }));
      report(error);
    },
  );
  return {
    enabled: true,
    captureAwsClient(client) {
      if (tracer) tracer.captureAWSv3Client(client);
      else waiting?.add(client);
      return client;
    },
    async traceInvocation(work) {
      await ready;
      return tracer ? inSubsegment(tracer, `## ${env._HANDLER ?? 'handler'}`, work) : work();
    },
    annotate(annotations) {
      if (!tracer) return;
      for (const [key, value] of Object.entries(annotations)) {
        if (value !== undefined) tracer.putAnnotation(key, value);
      }
    },
    traceAwsCall: (call, work) => (tracer ? inAwsSubsegment(tracer, call, work) : work()),
  };
}

async function inAwsSubsegment<T>(
  tracer: TracerLike,
  call: AwsCallTrace,
  work: (traceHeader?: string) => Promise<T>,
): Promise<T> {
  const parent = tracer.getSegment();
  if (!parent) return work();
  const subsegment = parent.addNewSubsegment(call.service);
  subsegment.addAttribute('namespace', 'aws');
  subsegment.addAttribute('aws', { operation: call.operation, region: call.region, ...call.resource });
  const root = 'segment' in parent && parent.segment ? parent.segment : parent;
  const traceId = 'trace_id' in root ? String(root.trace_id) : '';
  const header = `Root=${traceId};Parent=${subsegment.id};Sampled=${subsegment.notTraced ? '0' : '1'}`;
  try {
    const result = await work(traceId ? header : undefined);
    subsegment.close();
    return result;
  } catch (error) {
    const status = typeof error === 'object' && error && 'statusCode' in error ? Number(error.statusCode) : 0;
    if (status === 429) subsegment.addThrottleFlag();
    if (status >= 500) subsegment.addFaultFlag();
    else subsegment.addErrorFlag();
    subsegment.close(error instanceof Error ? error : String(error), true);
    throw error;
  }
}

/**
 * Powertools' manual instrumentation of a handler: what its middleware does, minus recording the
 * response as metadata (a Slack answer holds message text).
 */
async function inSubsegment<T>(tracer: TracerLike, name: string, work: () => Promise<T>): Promise<T> {
  const parent = tracer.getSegment();
  if (!parent) return work();
  const subsegment = parent.addNewSubsegment(name);
  tracer.setSegment(subsegment);
  tracer.annotateColdStart();
  tracer.addServiceNameAnnotation();
  try {
    return await work();
  } catch (error) {
    tracer.addErrorAsMetadata(error instanceof Error ? error : new Error(String(error)));
    throw error;
  } finally {
    subsegment.close();
    tracer.setSegment(parent);
  }
}

type Subsegment = ReturnType<NonNullable<ReturnType<TracerLike['getSegment']>>['addNewSubsegment']>;

/** What undici (inside Node's `fetch`, or the package) publishes about a request. */
interface UndiciRequest {
  origin?: unknown;
  path?: unknown;
  method?: unknown;
}

/**
 * One `remote` subsegment per `fetch`, named by host, with the method, the status and the throttle,
 * error and fault flags, from undici's diagnostics channels. Hand-written rather than Powertools'
 * `captureHTTPsRequests` because that records every URL's path, and a Slack response URL's path is a
 * credential (whoever holds it may post to the channel for 30 minutes), as is a file upload URL. So
 * a path is kept only where it names an operation (`keepsPath`); any other URL is recorded as its
 * origin. No trace header is added to the request: neither Slack nor the service reads one.
 */
function traceFetches(tracer: TracerLike, keepsPath: (url: URL) => boolean): void {
  const open = new WeakMap<object, { subsegment: Subsegment; request: Record<string, string> }>();
  subscribe('undici:request:create', (message) => {
    const { request } = message as { request: UndiciRequest };
    const url = urlOf(request);
    const parent = url ? tracer.getSegment() : undefined;
    if (!url || !parent) return;
    const subsegment = parent.addNewSubsegment(url.hostname);
    subsegment.addAttribute('namespace', 'remote');
    const recorded = {
      url: keepsPath(url) ? `${url.origin}${url.pathname}` : url.origin,
      method: typeof request.method === 'string' ? request.method : 'GET',
    };
    subsegment.addAttribute('http', { request: recorded });
    open.set(request, { subsegment, request: recorded });
  });
  subscribe('undici:request:headers', (message) => {
    const { request, response } = message as { request: object; response: { statusCode: number } };
    const traced = open.get(request);
    if (!traced) return;
    open.delete(request);
    const status = response.statusCode;
    traced.subsegment.addAttribute('http', { request: traced.request, response: { status } });
    if (status === 429) traced.subsegment.addThrottleFlag();
    if (status >= 400 && status < 500) traced.subsegment.addErrorFlag();
    if (status >= 500) traced.subsegment.addFaultFlag();
    traced.subsegment.close();
  });
  subscribe('undici:request:error', (message) => {
    const { request, error } = message as { request: object; error: unknown };
    const traced = open.get(request);
    if (!traced) return;
    open.delete(request);
    traced.subsegment.addErrorFlag();
    traced.subsegment.close(error instanceof Error ? error : String(error), true);
  });
}

function urlOf(request: UndiciRequest): URL | undefined {
  if (request.method === 'CONNECT') return undefined;
  try {
    const path = typeof request.path === 'string' ? request.path : '';
    return new URL(`${String(request.origin)}${path}`);
  } catch {
    return undefined;
  }
}

/** Slack's Web API (`/api/chat.postMessage`) and the service's paths name operations and ids. */
function pathKeptFor(env: NodeJS.ProcessEnv): (url: URL) => boolean {
  let serviceOrigin: string | undefined;
  try {
    serviceOrigin = env.EIS_BASE_URL ? new URL(env.EIS_BASE_URL).origin : undefined;
  } catch {
    serviceOrigin = undefined;
  }
  return (url) =>
    (url.hostname === 'slack.com' && url.pathname.startsWith('/api/')) || url.origin === serviceOrigin;
}
