/**
 * The service's trace id of each successful response (its `x-trace-id` header), kept beside the parsed
 * object rather than on it, so result types stay as the spec shows them. The client remembers it; the
 * ledger records it. Free of the HTTP client, so code that only reads results does not bundle it.
 */
const responseTraces = new WeakMap<object, string>();

export function traceIdOf(result: unknown): string | undefined {
  return typeof result === 'object' && result !== null ? responseTraces.get(result) : undefined;
}

export function rememberTraceId(result: unknown, traceId: string): void {
  if (typeof result === 'object' && result !== null) responseTraces.set(result, traceId);
}
