import { randomUUID } from 'node:crypto';
import type { Metrics } from '../domain/ports/index.ts';
import { type Logger, withCorrelationId } from '../platform/log.ts';
import type { Tracing } from '../platform/tracing.ts';
import type { SlackHttpEvent, SlackHttpHandler } from '../slack/http-boundary.ts';
import type { Dispatch } from '../slack/kit/jobs.ts';

/** The Slack function's handler, and the dispatch it hands jobs to (tests wait for it to go idle). */
export type BuiltHandler = {
  handler: SlackHttpHandler;
  dispatch: Dispatch & { idle?: () => Promise<void> };
};

export interface Observers {
  logger: Logger;
  metrics: Metrics;
  tracing: Tracing;
}

/**
 * Every line of a request, and of the jobs it hands on, carries one correlation id (so does its
 * trace, as an annotation); each answer's time is reported (Slack waits 3 s for it).
 */
export function observed(
  handler: SlackHttpHandler,
  { logger, metrics, tracing }: Observers,
): SlackHttpHandler {
  return async (event: SlackHttpEvent, context: unknown) => {
    const started = performance.now();
    logger.addLambdaContext(context);
    const requestId = (event.requestContext as { requestId?: unknown } | undefined)?.requestId;
    const id = typeof requestId === 'string' ? requestId : randomUUID();
    tracing.annotate({ CorrelationId: id });
    try {
      return await withCorrelationId(id, () => handler(event, context));
    } finally {
      metrics.add('AckDuration', performance.now() - started);
    }
  };
}
