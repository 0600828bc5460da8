import { createSocket } from 'node:dgram';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What a bundle needs to run as on Lambda with active tracing, on this machine: an X-Ray daemon that
 * keeps every segment document it receives, and one HTTP stand-in for the AWS APIs the Slack
 * function calls before its ack (DynamoDB's JSON protocol, Lambda's Invoke).
 */

/** A segment or subsegment document as the X-Ray SDK sends it to the daemon. */
export interface TraceDocument {
  name: string;
  type?: string;
  namespace?: string;
  annotations?: Record<string, unknown>;
  aws?: Record<string, unknown>;
  subsegments?: TraceDocument[];
}

export interface XRayDaemon {
  /** `AWS_XRAY_DAEMON_ADDRESS`. */
  address: string;
  /** Every received document and the subsegments nested in it, flattened. */
  documents(): TraceDocument[];
  /** The raw datagrams, to check what they never contain. */
  raw(): string[];
  close(): Promise<void>;
}

export async function startXRayDaemon(): Promise<XRayDaemon> {
  const socket = createSocket('udp4');
  const datagrams: string[] = [];
  socket.on('message', (message) => datagrams.push(message.toString('utf8')));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  const flatten = (document: TraceDocument): TraceDocument[] => [
    document,
    ...(document.subsegments ?? []).flatMap(flatten),
  ];
  return {
    address: `127.0.0.1:${port}`,
    // Each datagram is a header line, then the document.
    documents: () =>
      datagrams.flatMap((datagram) => flatten(JSON.parse(datagram.split('\n')[1] ?? '{}') as TraceDocument)),
    raw: () => [...datagrams],
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

export interface AwsStandIn {
  url: string;
  /** `DynamoDB.PutItem`, `Lambda.Invoke`… in the order received. */
  calls: string[];
  close(): Promise<void>;
}

/** Answers DynamoDB (an empty success, an empty query) and Lambda's asynchronous Invoke (202). */
export async function startAwsStandIn(): Promise<AwsStandIn> {
  const calls: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const target = req.headers['x-amz-target'];
      if (typeof target === 'string') {
        const operation = target.split('.')[1] ?? '';
        calls.push(`DynamoDB.${operation}`);
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(operation === 'Query' ? '{"Items":[],"Count":0,"ScannedCount":0}' : '{}');
        return;
      }
      calls.push(/\/functions\/[^/]+\/invocations/.test(req.url ?? '') ? 'Lambda.Invoke' : `? ${req.url}`);
      res.writeHead(202);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The environment Lambda gives a function with active tracing (one sampled invocation). */
export function tracedLambdaEnvironment(daemon: XRayDaemon, taskRoot: string): Record<string, string> {
  return {
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    LAMBDA_TASK_ROOT: taskRoot,
    _HANDLER: 'index.handler',
    _X_AMZN_TRACE_ID: 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1',
    AWS_XRAY_DAEMON_ADDRESS: daemon.address,
    POWERTOOLS_SERVICE_NAME: 'eventbot',
  };
}

/** Waits until `check` passes (UDP datagrams arrive a moment after the sender has exited). */
export async function eventually(check: () => void, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
