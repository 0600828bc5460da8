import { currentCorrelationId, type Logger } from '../platform/log.ts';
import { NO_TRACING, type Tracing } from '../platform/tracing.ts';
import { jobAnnotations } from './job-annotations.ts';
import type { Dispatch, Job } from './kit/jobs.ts';

/** Lambda Invoke of the worker (`WORKER_FUNCTION_NAME`) with InvocationType 'Event' and this payload. */
export type InvokeWorker = (payload: string) => Promise<void>;

/**
 * Hands a job to the worker Lambda with an asynchronous invoke, so the Slack request can be answered
 * at once (the pattern of Bolt for Python's lazy listeners). The request's trace says which job
 * (kind, subcommand) it handed on.
 */
export function lambdaDispatch(
  invokeWorker: InvokeWorker,
  tracing: Pick<Tracing, 'annotate'> = NO_TRACING,
): Dispatch {
  return async (job) => {
    tracing.annotate(jobAnnotations(job));
    // The worker logs under the request's correlation id (an inline job keeps it by itself).
    await invokeWorker(JSON.stringify({ ...job, correlationId: currentCorrelationId() }));
  };
}

/**
 * For local runs and tests: the job runs in this process after the current request is answered.
 * `idle()` resolves when every started job has finished, so tests can wait for the outcome.
 */
export function inlineDispatch(
  run: (job: Job) => Promise<void>,
  logger: Logger,
): Dispatch & { idle(): Promise<void> } {
  const running = new Set<Promise<void>>();
  const dispatch = (job: Job): Promise<void> => {
    const started = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => run(job))
      .catch((error: unknown) => logger.error('inline job failed', { kind: job.kind, error }))
      .finally(() => running.delete(started));
    running.add(started);
    return Promise.resolve();
  };
  const idle = async () => {
    while (running.size > 0) await Promise.all([...running]);
  };
  return Object.assign(dispatch, { idle });
}
