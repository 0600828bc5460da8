import type { IncomingMessage, ServerResponse } from 'node:http';
import { DATA_PATHS, type DataRuntime, runDataControl } from './data-control.ts';
import { bearerKey, parseBody, sendError, sendJson } from './http.ts';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, content-type',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
};

/**
 * The local dev page's view of one key (`GET /__sim/account`, `POST /__sim/tasks/complete`), and the
 * calls that change the service's data over time (`simulator/data-control.ts`).
 */
export function handleControl(
  rt: DataRuntime,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  rawBody: string,
  traceId: string,
): void {
  if (req.method === 'OPTIONS') {
    res.writeHead(204, CORS);
    res.end();
    return;
  }
  const { state } = rt;
  const key = bearerKey(req.headers.authorization);
  const account = key === undefined ? undefined : state.accounts.get(key);
  if (!account) {
    sendError(res, traceId, 401, 'Invalid API key', 'INVALID_API_KEY', CORS);
    return;
  }
  state.settle();
  if (req.method === 'GET' && url.pathname === '/__sim/account') {
    sendJson(res, 200, { balance: state.creditBalance(account), ledger: account.ledger }, CORS);
    return;
  }
  if (req.method === 'POST' && url.pathname === '/__sim/tasks/complete') {
    const parsed = parseBody(rawBody);
    const body = parsed.ok ? parsed.value : undefined;
    const outcome =
      typeof body === 'object' && body !== null && 'outcome' in body && body.outcome === 'failed'
        ? 'failed'
        : 'completed';
    state.completeTasks(outcome, account.key);
    sendJson(res, 200, { ok: true, outcome }, CORS);
    return;
  }
  if (req.method === 'POST' && DATA_PATHS.includes(url.pathname)) {
    const parsed = parseBody(rawBody);
    if (!parsed.ok) return sendError(res, traceId, 400, 'Request body is not valid JSON', undefined, CORS);
    const answer = runDataControl(rt, url.pathname, parsed.value);
    if (answer.ok) return sendJson(res, 200, answer, CORS);
    return sendError(res, traceId, answer.status, answer.message, answer.errorKey, CORS);
  }
  sendError(res, traceId, 404, `No route for ${req.method} ${url.pathname}`, 'ROUTE_NOT_FOUND', CORS);
}
