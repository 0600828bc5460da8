import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';

/** One request as the core sends it: the key is already in `headers`, the body already JSON. */
export interface WireRequest {
  origin: string;
  /** Path and query string, below `origin`. */
  path: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: string | undefined;
  /** Aborted by the core's per-attempt timer. */
  signal: AbortSignal;
  timeoutMs: number;
}

export interface WireResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * Sends one request and reads the whole body. A transport failure is thrown as the error that says
 * what happened, with its `code` (`ECONNREFUSED`, `UND_ERR_SOCKET`…) for the classifier.
 */
export type Transport = (request: WireRequest) => Promise<WireResponse>;

/**
 * The default: Node's built-in `fetch`. It is undici inside Node, with a process-wide keep-alive pool
 * (idle sockets kept 4 s, or as long as the server's `Keep-Alive` says), so the client needs no pool
 * of its own, and the Lambda bundles do not carry a second copy of undici (about 525 KiB). The
 * per-key semaphore bounds requests in flight, as the old pool's 10 connections did. Redirects are
 * returned, not followed, as undici's `request` did: a 3xx is the service's answer to judge.
 */
export const fetchTransport: Transport = async (request) => {
  try {
    const response = await fetch(`${request.origin}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body ?? null,
      signal: request.signal,
      redirect: 'manual',
    });
    const text = await response.text();
    return { status: response.status, headers: headersOf(response.headers), text };
  } catch (error) {
    throw networkCause(error);
  }
};

/**
 * An injected undici dispatcher (a `MockAgent` in unit tests, any `Dispatcher` a caller owns), with
 * undici's own headers and body timeouts at the attempt's timeout.
 */
export function dispatcherTransport(dispatcher: Dispatcher): Transport {
  return async (request) => {
    const response = await dispatcher.request({
      origin: request.origin,
      path: request.path,
      method: request.method,
      headers: request.headers,
      body: request.body ?? null,
      signal: request.signal,
      headersTimeout: request.timeoutMs,
      bodyTimeout: request.timeoutMs,
    });
    const text = await response.body.text();
    return { status: response.statusCode, headers: response.headers, text };
  };
}

/**
 * `fetch` wraps every network failure in `TypeError('fetch failed')` (and a body cut short in
 * `TypeError('terminated')`); the cause is undici's own error, the one its `request` throws, whose
 * `code` tells a connection never made from one lost after sending.
 */
function networkCause(error: unknown): unknown {
  return error instanceof TypeError && error.cause instanceof Error ? error.cause : error;
}

function headersOf(headers: Headers): IncomingHttpHeaders {
  const plain: IncomingHttpHeaders = {};
  headers.forEach((value, name) => {
    plain[name] = value;
  });
  return plain;
}
