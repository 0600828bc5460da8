import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The parts of an API Gateway HTTP API v2 / Function URL event and response this adapter uses. */
export interface HttpApiEvent {
  version: '2.0';
  routeKey: string;
  rawPath: string;
  rawQueryString: string;
  headers: Record<string, string>;
  body: string;
  isBase64Encoded: boolean;
  requestContext: {
    http: { method: string; path: string; sourceIp: string };
    requestId: string;
    timeEpoch: number;
  };
}
export interface HttpApiResult {
  statusCode: number;
  headers?: Record<string, boolean | number | string>;
  body: string;
  /** Cookies to set (a Function URL sends each as its own `Set-Cookie`). */
  cookies?: string[];
}

type LambdaHttpHandler = (event: HttpApiEvent, context: unknown) => Promise<HttpApiResult>;

/**
 * Serves a Lambda HTTP handler on a local port, turning each request into the event a Function URL
 * would deliver (body base64-encoded, as AWS sends form posts), so local runs and tests exercise the
 * real `handlers/slack.ts` code path.
 */
export async function serveLambda(
  handler: LambdaHttpHandler,
  options: { port?: number } = {},
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  let requests = 0;
  const nextRequestId = () => `local-${++requests}`;
  const server = createServer((request, response) => void respond(handler, request, response, nextRequestId));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One request through the handler; a handler that throws is a 500, as on AWS. */
async function respond(
  handler: LambdaHttpHandler,
  request: IncomingMessage,
  response: ServerResponse,
  nextRequestId: () => string,
) {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const event = eventOf(request, Buffer.concat(chunks), nextRequestId());
  try {
    const result = await handler(event, { awsRequestId: event.requestContext.requestId });
    const outHeaders = Object.fromEntries(
      Object.entries(result.headers ?? {}).map(([k, v]) => [k, String(v)]),
    );
    if (result.cookies?.length) response.setHeader('set-cookie', result.cookies);
    response.writeHead(result.statusCode, outHeaders);
    response.end(result.body);
  } catch {
    response.writeHead(500);
    response.end('Internal error');
  }
}

/** The request as a Function URL delivers it. */
function eventOf(request: IncomingMessage, body: Buffer, requestId: string): HttpApiEvent {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(',') : (value ?? ''),
    ]),
  );
  return functionUrlEvent(request.method ?? 'GET', url, headers, body, requestId);
}

/** A `POST /slack/events` as a Function URL delivers it, for a handler called without a server. */
export const slackPostEvent = (headers: Record<string, string>, body: string, requestId: string) =>
  functionUrlEvent(
    'POST',
    new URL('/slack/events', 'http://localhost'),
    headers,
    Buffer.from(body),
    requestId,
  );

function functionUrlEvent(
  method: string,
  url: URL,
  headers: Record<string, string>,
  body: Buffer,
  requestId: string,
): HttpApiEvent {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    body: body.toString('base64'),
    isBase64Encoded: true,
    requestContext: {
      http: { method, path: url.pathname, sourceIp: '127.0.0.1' },
      requestId,
      timeEpoch: Date.now(),
    },
  };
}
