import type { Account, ChargeDetails, SimulatorState } from './state.ts';

export interface RouteContext {
  state: SimulatorState;
  account: Account;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  traceId: string;
  today: string;
  charge(action: string, credits: number, details?: ChargeDetails): void;
}

export interface RouteResult {
  status: number;
  body: unknown;
}

export interface Route {
  method: 'GET' | 'POST';
  /** as written in the OpenAPI, e.g. `/external/events/{id}/unlock` */
  pattern: string;
  /** Credit operations of one key on the same target may not overlap: the later one answers 409. */
  lockTarget?: (ctx: RouteContext) => string | undefined;
  /** Per-key limit of concurrent requests; beyond it the 200 concurrency envelope answers. */
  concurrencyLimit?: number;
  handle(ctx: RouteContext): RouteResult;
}

export const routeId = (route: Route): string => `${route.method} ${route.pattern}`;

export function matchRoute(
  routes: readonly Route[],
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | undefined {
  const segments = path.split('/');
  for (const route of routes) {
    if (route.method !== method) continue;
    const parts = route.pattern.split('/');
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < parts.length && ok; i += 1) {
      const part = parts[i] ?? '';
      const segment = segments[i] ?? '';
      if (part.startsWith('{') && part.endsWith('}')) {
        if (segment === '') ok = false;
        else params[part.slice(1, -1)] = safeDecode(segment);
      } else if (part !== segment) {
        ok = false;
      }
    }
    if (ok) return { route, params };
  }
  return undefined;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export const ok = (body: unknown): RouteResult => ({ status: 200, body });
export const created = (body: unknown): RouteResult => ({ status: 201, body });
