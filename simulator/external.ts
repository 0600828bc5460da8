import type { IncomingMessage, ServerResponse } from 'node:http';
import { concurrencyEnvelope, featureUnavailableEnvelope, SimError } from './errors.ts';
import type { Fault, FaultQueue } from './faults.ts';
import {
  bearerKey,
  parseBody,
  queryObject,
  type RecordedRequest,
  redactHeaders,
  sendError,
  sendJson,
  sendText,
} from './http.ts';
import { routes } from './routes/index.ts';
import { matchRoute, type Route, type RouteContext, type RouteResult, routeId } from './routing.ts';
import type { SimulatorState } from './state.ts';

export interface ExternalRuntime {
  state: SimulatorState;
  faults: FaultQueue;
  today: string;
  latencyMs(): number;
  delay(ms: number): Promise<void>;
  recorded: RecordedRequest[];
}

const TRUNCATED_JSON = '{"items":[{"id":"8450","eventId":"26855","name":"Consumer Tech';

/** Runs `fn` once when the response has been sent or its connection dropped. */
function onDone(res: ServerResponse, fn: () => void): void {
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    fn();
  };
  res.once('finish', once);
  res.once('close', once);
}

/** Tracks concurrent requests per key; returns the function that ends this one. */
function trackInFlight(state: SimulatorState, key: string): () => void {
  const count = (state.inFlight.get(key) ?? 0) + 1;
  state.inFlight.set(key, count);
  state.peakInFlight.set(key, Math.max(count, state.peakInFlight.get(key) ?? 0));
  return () => state.inFlight.set(key, (state.inFlight.get(key) ?? 1) - 1);
}

/** Answers a fault that stands in for the operation; undefined when the operation should still run. */
function preemptiveFault(
  fault: Fault | undefined,
): ((res: ServerResponse, traceId: string) => void) | undefined {
  if (!fault) return undefined;
  switch (fault.kind) {
    case 'status': {
      if (fault.afterExecute && fault.status !== 429) return undefined;
      return (res, traceId) => sendFaultStatus(res, traceId, fault);
    }
    case 'malformed-json':
      return (res) => sendText(res, 200, TRUNCATED_JSON);
    case 'concurrency-envelope':
      return (res, traceId) => sendJson(res, 200, concurrencyEnvelope(traceId));
    case 'subscription-envelope':
      return (res, traceId) => sendJson(res, 200, featureUnavailableEnvelope(traceId));
    default:
      return undefined;
  }
}

function sendFaultStatus(
  res: ServerResponse,
  traceId: string,
  fault: Extract<Fault, { kind: 'status' }>,
): void {
  const retryAfter = fault.retryAfterSeconds ?? (fault.status === 429 ? 1 : undefined);
  const headers: Record<string, string> =
    retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) };
  const message = fault.status === 429 ? 'Rate limit exceeded' : `Simulated failure (${fault.status})`;
  sendError(res, traceId, fault.status, message, undefined, headers);
}

/** Takes the per-key gates of a route (credit-operation lock, concurrency limit) or says why not. */
function acquireGates(
  state: SimulatorState,
  route: Route,
  ctx: RouteContext,
): { release: () => void } | { reject: 'conflict' | 'concurrency' } {
  const releases: (() => void)[] = [];
  const id = `${ctx.account.key}|${routeId(route)}`;
  if (route.concurrencyLimit !== undefined) {
    const running = state.routeInFlight.get(id) ?? 0;
    if (running >= route.concurrencyLimit) return { reject: 'concurrency' };
    state.routeInFlight.set(id, running + 1);
    releases.push(() => state.routeInFlight.set(id, (state.routeInFlight.get(id) ?? 1) - 1));
  }
  let target: string | undefined;
  try {
    target = route.lockTarget?.(ctx);
  } catch {
    target = undefined; // a malformed body: the handler answers 400
  }
  if (target !== undefined) {
    const lock = `${ctx.account.key}|${target}`;
    if (state.locks.has(lock)) {
      for (const release of releases) release();
      return { reject: 'conflict' };
    }
    state.locks.add(lock);
    releases.push(() => state.locks.delete(lock));
  }
  return {
    release: () => {
      for (const release of releases) release();
    },
  };
}

function execute(route: Route, ctx: RouteContext): RouteResult {
  try {
    return route.handle(ctx);
  } catch (error) {
    if (error instanceof SimError) {
      return {
        status: error.status,
        body: { code: error.status, message: error.message, errorKey: error.errorKey, traceId: ctx.traceId },
      };
    }
    const message = error instanceof Error ? error.message : String(error);
    return {
      status: 500,
      body: { code: 500, message, errorKey: 'INTERNAL_SERVER_ERROR', traceId: ctx.traceId },
    };
  }
}

export async function handleExternal(
  rt: ExternalRuntime,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  rawBody: string,
  traceId: string,
): Promise<void> {
  const method = req.method ?? 'GET';
  const parsed = parseBody(rawBody);
  rt.recorded.push({
    method,
    path: url.pathname,
    query: queryObject(url.searchParams),
    headers: redactHeaders(req.headers),
    body: parsed.ok ? parsed.value : parsed.text,
    at: new Date(rt.state.now()).toISOString(),
  });
  const key = bearerKey(req.headers.authorization);
  const account = key === undefined ? undefined : rt.state.accounts.get(key);
  const latency = rt.latencyMs();
  if (!account) {
    await rt.delay(latency);
    const message = req.headers.authorization ? 'Invalid API key' : 'Missing API key';
    return sendError(res, traceId, 401, message, 'INVALID_API_KEY');
  }
  onDone(res, trackInFlight(rt.state, account.key));
  const match = matchRoute(routes, method, url.pathname);
  if (!match) {
    await rt.delay(latency);
    return sendError(res, traceId, 404, `No route for ${method} ${url.pathname}`, 'ROUTE_NOT_FOUND');
  }
  const { route, params } = match;
  const ctx: RouteContext = {
    state: rt.state,
    account,
    params,
    query: url.searchParams,
    body: parsed.ok ? parsed.value : undefined,
    headers: req.headers,
    traceId,
    today: rt.today,
    charge: (action, credits, details) => rt.state.charge(account, action, credits, traceId, details),
  };
  const fault = rt.faults.take(routeId(route));
  if (fault?.kind === 'hang') return; // never answers; close() drops the connection
  const extra = fault?.kind === 'latency' ? fault.ms : 0;
  const answerFault = preemptiveFault(fault);
  if (answerFault) {
    await rt.delay(latency + extra);
    return answerFault(res, traceId);
  }
  if (!parsed.ok) {
    await rt.delay(latency + extra);
    return sendError(res, traceId, 400, 'Request body is not valid JSON');
  }
  const gates = acquireGates(rt.state, route, ctx);
  if ('reject' in gates) {
    await rt.delay(latency + extra);
    if (gates.reject === 'concurrency') return sendJson(res, 200, concurrencyEnvelope(traceId));
    return sendError(
      res,
      traceId,
      409,
      'Another credit operation for this target is in progress',
      'STATE_CONFLICT',
    );
  }
  onDone(res, gates.release);
  await rt.delay(latency + extra);
  rt.state.settle();
  const result = execute(route, ctx);
  if (fault?.kind === 'status') return sendFaultStatus(res, traceId, fault); // afterExecute: ran, then failed
  sendJson(res, result.status, result.body);
}
