import { randomUUID } from 'node:crypto';
import { withCorrelationId } from '../src/platform/log.ts';
import { correlationIdOf, teamIdOf } from '../src/slack/kit/jobs.ts';
import { createTracing } from '../src/platform/tracing.ts';
import { jobAnnotations } from '../src/slack/job-annotations.ts';
import { createWorkerLoader, jobWorkers } from '../src/roots/worker-runtime.ts';

// Slow work dispatched by the Slack handler after its ack (asynchronous invoke; payload: a Job).
// X-Ray on Lambda only: elsewhere (tests, `npm run dev`) tracing is a no-op that loads nothing.
const tracing = createTracing();
const load = createWorkerLoader(process.env, { tracing });
const workerFor = jobWorkers(load);

export const handler = (event: unknown, context: unknown): Promise<void> =>
  tracing.traceInvocation(async () => {
    const correlationId = correlationIdOf(event) ?? randomUUID();
    tracing.annotate({ CorrelationId: correlationId, ...jobAnnotations(event) });
    const worker = await workerFor(teamIdOf(event));
    load.logger.addLambdaContext(context);
    await withCorrelationId(correlationId, () => worker.handle(event));
  });
