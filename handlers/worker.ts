import { randomUUID } from 'node:crypto';
import { withCorrelationId } from '../src/log.ts';
import { correlationIdOf } from '../src/slack/jobs.ts';
import { createWorkerLoader } from '../src/worker-runtime.ts';

// Slow work dispatched by the Slack handler after its ack (asynchronous invoke; payload: a Job).
const load = createWorkerLoader();

export const handler = async (event: unknown, context: unknown): Promise<void> => {
  const { worker, runtime } = await load();
  runtime.logger.addLambdaContext(context);
  await withCorrelationId(correlationIdOf(event) ?? randomUUID(), () => worker.handle(event));
};
