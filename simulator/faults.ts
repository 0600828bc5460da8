export type Fault =
  | {
      kind: 'status';
      status: number;
      route?: string;
      times?: number;
      retryAfterSeconds?: number;
      /** run the operation (and charge) first, then answer the error status */
      afterExecute?: boolean;
    }
  | { kind: 'hang'; route?: string; times?: number }
  | { kind: 'latency'; ms: number; route?: string; times?: number }
  | { kind: 'malformed-json'; route?: string; times?: number }
  | { kind: 'concurrency-envelope'; route?: string; times?: number }
  | { kind: 'subscription-envelope'; route?: string; times?: number };

interface QueuedFault {
  fault: Fault;
  remaining: number;
}

/** Faults wait in order; the first one whose route matches applies to the request and counts down. */
export class FaultQueue {
  private queue: QueuedFault[] = [];

  add(fault: Fault): void {
    this.queue.push({ fault, remaining: fault.times ?? 1 });
  }

  clear(): void {
    this.queue = [];
  }

  /** `route` is `"METHOD /pattern"` exactly as the OpenAPI writes it. */
  take(route: string): Fault | undefined {
    const index = this.queue.findIndex((q) => q.fault.route === undefined || q.fault.route === route);
    const queued = this.queue[index];
    if (!queued) return undefined;
    queued.remaining -= 1;
    if (queued.remaining <= 0) this.queue.splice(index, 1);
    return queued.fault;
  }
}
