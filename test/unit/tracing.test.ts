import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { createTracing, NO_TRACING, type TracerLike, tracingEnabledIn } from '../../src/platform/tracing.ts';
import { jobAnnotations, subcommandOf } from '../../src/slack/job-annotations.ts';
import { ACTION_IDS } from '../../src/slack/views/action-ids.ts';

const ON_LAMBDA = {
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
  POWERTOOLS_SERVICE_NAME: 'eventbot',
  _HANDLER: 'index.handler',
};

/** A stand-in for an X-Ray segment or subsegment: what the code records on it. */
class FakeSegment {
  readonly children: FakeSegment[] = [];
  readonly attributes: Record<string, unknown> = {};
  readonly flags: string[] = [];
  closed = false;
  closedWith: unknown;

  constructor(readonly name: string) {}

  addNewSubsegment(name: string): FakeSegment {
    const child = new FakeSegment(name);
    this.children.push(child);
    return child;
  }
  addAttribute(name: string, value: unknown): void {
    this.attributes[name] = value;
  }
  addThrottleFlag(): void {
    this.flags.push('throttle');
  }
  addErrorFlag(): void {
    this.flags.push('error');
  }
  addFaultFlag(): void {
    this.flags.push('fault');
  }
  close(error?: unknown): void {
    this.closed = true;
    this.closedWith = error;
  }
}

/** A stand-in for Powertools' Tracer that records what the code asks of it. */
function fakeTracer() {
  const facade = new FakeSegment('facade');
  let current: FakeSegment = facade;
  const record = {
    captured: [] as object[],
    annotations: [] as Array<[string, unknown, FakeSegment]>,
    errors: [] as Error[],
    facade,
    current: () => current,
  };
  const tracer = {
    captureAWSv3Client: (client: object) => {
      record.captured.push(client);
      return client;
    },
    getSegment: () => current,
    setSegment: (segment: FakeSegment) => {
      current = segment;
    },
    annotateColdStart: () => record.annotations.push(['ColdStart', true, current]),
    addServiceNameAnnotation: () => record.annotations.push(['Service', 'eventbot', current]),
    addErrorAsMetadata: (error: Error) => record.errors.push(error),
    putAnnotation: (key: string, value: unknown) => record.annotations.push([key, value, current]),
  } as unknown as TracerLike;
  return { tracer, record };
}

describe('tracing', () => {
  it.each([
    ['outside Lambda', {}],
    ['with POWERTOOLS_TRACE_ENABLED=false', { ...ON_LAMBDA, POWERTOOLS_TRACE_ENABLED: 'false' }],
    ['under SAM local', { ...ON_LAMBDA, AWS_SAM_LOCAL: 'true' }],
  ])('is off %s, and never loads the tracer', async (_case, env) => {
    // Prepare
    const load = vi.fn();

    // Act
    const tracing = createTracing(env, { load });
    const client = {};
    const result = await tracing.traceInvocation(() => Promise.resolve('answered'));
    tracing.annotate({ JobKind: 'command' });

    // Assess
    expect(tracingEnabledIn(env)).toBe(false);
    expect(tracing).toBe(NO_TRACING);
    expect(tracing.captureAwsClient(client)).toBe(client);
    expect(result).toBe('answered');
    expect(load).not.toHaveBeenCalled();
  });

  it('leaves the X-Ray SDK unloaded when off (it would enable a process-wide async hook)', async () => {
    // Act
    const tracing = createTracing({});
    await tracing.traceInvocation(() => Promise.resolve());

    // Assess: the SDK's cls namespace and the tracer's environment default are both absent
    expect((process as { namespaces?: Record<string, unknown> }).namespaces?.AWSXRay).toBeUndefined();
    expect(process.env.AWS_XRAY_CONTEXT_MISSING).toBeUndefined();
  });

  it('on Lambda captures clients made before and after the tracer loaded', async () => {
    // Prepare
    const { tracer, record } = fakeTracer();
    const tracing = createTracing(ON_LAMBDA, { load: () => Promise.resolve(tracer) });
    const early = { name: 'made during module init' };

    // Act
    expect(tracing.captureAwsClient(early)).toBe(early);
    await tracing.traceInvocation(() => Promise.resolve());
    const late = { name: 'made on a request' };
    tracing.captureAwsClient(late);

    // Assess
    expect(tracing.enabled).toBe(true);
    expect(record.captured).toEqual([early, late]);
  });

  it('runs an invocation in an annotated `## handler` subsegment, then restores the facade', async () => {
    // Prepare
    const { tracer, record } = fakeTracer();
    const tracing = createTracing(ON_LAMBDA, { load: () => Promise.resolve(tracer) });

    // Act
    const result = await tracing.traceInvocation(() => {
      tracing.annotate({ CorrelationId: 'req-1', Subcommand: undefined });
      return Promise.resolve(42);
    });

    // Assess
    const [subsegment] = record.facade.children;
    expect(result).toBe(42);
    expect(subsegment).toMatchObject({ name: '## index.handler', closed: true });
    expect(record.annotations).toEqual([
      ['ColdStart', true, subsegment],
      ['Service', 'eventbot', subsegment],
      ['CorrelationId', 'req-1', subsegment],
    ]);
    expect(record.current()).toBe(record.facade);
  });

  it('records an error on the subsegment, closes it and rethrows', async () => {
    // Prepare
    const { tracer, record } = fakeTracer();
    const tracing = createTracing(ON_LAMBDA, { load: () => Promise.resolve(tracer) });
    const failure = new Error('the worker failed');

    // Act
    const outcome = tracing.traceInvocation(() => Promise.reject(failure));

    // Assess
    await expect(outcome).rejects.toBe(failure);
    expect(record.errors).toEqual([failure]);
    expect(record.facade.children[0]?.closed).toBe(true);
    expect(record.current()).toBe(record.facade);
  });

  it('runs untraced, and says so once, when the tracer cannot be loaded', async () => {
    // Prepare
    const onLoadError = vi.fn();
    const tracing = createTracing(ON_LAMBDA, {
      load: () => Promise.reject(new Error('no such module')),
      onLoadError,
    });
    const client = {};

    // Act
    tracing.captureAwsClient(client);
    const result = await tracing.traceInvocation(() => Promise.resolve('answered'));
    tracing.annotate({ JobKind: 'command' });

    // Assess
    expect(result).toBe('answered');
    expect(onLoadError).toHaveBeenCalledOnce();
  });
});

describe('tracing of fetch', () => {
  /** A local server answering every request with `status`. */
  async function serve(status: number) {
    const server = createServer((_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const close = () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    return { origin: `http://127.0.0.1:${port}`, close };
  }

  /** One invocation that makes one fetch; the fetch's subsegment under the invocation's. */
  async function tracedFetch(url: string, env: Record<string, string> = {}) {
    const { tracer, record } = fakeTracer();
    const tracing = createTracing({ ...ON_LAMBDA, ...env }, { load: () => Promise.resolve(tracer) });
    await tracing.traceInvocation(async () => {
      await fetch(url, { method: 'POST', body: '{}' }).then(
        (response) => response.text(),
        () => undefined,
      );
    });
    const invocation = record.facade.children[0];
    return invocation?.children.find((child) => child.attributes.namespace === 'remote');
  }

  it('records a response URL as its origin only: its path is a credential', async () => {
    const service = await serve(200);
    try {
      const subsegment = await tracedFetch(`${service.origin}/commands/T1/123/xyzSecretPart`);

      expect(subsegment).toMatchObject({ name: '127.0.0.1', closed: true, flags: [] });
      expect(subsegment?.attributes.http).toEqual({
        request: { url: service.origin, method: 'POST' },
        response: { status: 200 },
      });
    } finally {
      await service.close();
    }
  });

  it("keeps the path of the service's operations", async () => {
    const service = await serve(200);
    try {
      const subsegment = await tracedFetch(`${service.origin}/external/events/26855?page=2`, {
        EIS_BASE_URL: `${service.origin}/`,
      });

      expect(subsegment?.attributes.http).toMatchObject({
        request: { url: `${service.origin}/external/events/26855`, method: 'POST' },
      });
    } finally {
      await service.close();
    }
  });

  it.each([
    [429, ['throttle', 'error']],
    [404, ['error']],
    [503, ['fault']],
  ])('flags a %i', async (status, flags) => {
    const service = await serve(status);
    try {
      expect((await tracedFetch(service.origin))?.flags).toEqual(flags);
    } finally {
      await service.close();
    }
  });

  it('closes the subsegment with the error when the connection fails', async () => {
    const service = await serve(200);
    await service.close();

    const subsegment = await tracedFetch(service.origin);

    expect(subsegment).toMatchObject({ closed: true, flags: ['error'] });
    expect(subsegment?.closedWith).toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('what a trace says of a job', () => {
  const context = { teamId: 'T1', channelId: 'C1', userId: 'U1' };

  it('names the kind and the subcommand of a command job, never its arguments', () => {
    const annotations = jobAnnotations({ kind: 'command', id: 'j1', text: 'who Jane Smith', context });

    expect(annotations).toEqual({ JobKind: 'command', Subcommand: 'who', ConfirmationId: undefined });
    expect(JSON.stringify(annotations)).not.toContain('Jane');
  });

  it("names a button's action id, never its value", () => {
    const value = { eventId: '26855' };
    const job = { kind: 'button', id: 'j3', action: ACTION_IDS.planAdd, value, context };
    const annotations = jobAnnotations(job);

    expect(annotations).toMatchObject({
      JobKind: 'button',
      Button: ACTION_IDS.planAdd,
      Subcommand: undefined,
    });
    expect(JSON.stringify(annotations)).not.toContain(value.eventId);
    expect(jobAnnotations({ ...job, action: 'forged <@U1>' })).toMatchObject({ Button: 'unknown' });
  });

  it("names a charge's confirmation id", () => {
    expect(jobAnnotations({ kind: 'charge', id: 'j2', confirmationId: 'cf-123', context })).toEqual({
      JobKind: 'charge',
      Subcommand: undefined,
      ConfirmationId: 'cf-123',
    });
  });

  it.each([
    ['a payload that is no job', 'nonsense'],
    ['an unknown kind', { kind: 'wipe-everything' }],
    ["an Object prototype's name", { kind: 'toString' }],
    ['nothing', undefined],
  ])('calls %s unknown', (_case, payload) => {
    expect(jobAnnotations(payload).JobKind).toBe('unknown');
  });

  it.each([
    ['fit 26855', 'fit'],
    ['  digest on 08:30 Europe/Berlin', 'digest'],
    ['FIT 26855', 'fit'],
    ['', 'help'],
    ['sk_test_not_a_word please', 'unknown'],
    [42, 'unknown'],
  ])('reads the subcommand of %j as %s', (text, word) => {
    expect(subcommandOf(text)).toBe(word);
  });
});
