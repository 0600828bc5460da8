import { randomUUID } from 'node:crypto';
import { withCorrelationId } from '../src/log.ts';
import { createRuntimeLoader } from '../src/runtime.ts';
import { correlationIdOf } from '../src/slack/jobs.ts';

// Slow work dispatched by the Slack handler after its ack (asynchronous invoke; payload: a Job).
const load = createRuntimeLoader();

export const handler = async (event: unknown, context: unknown): Promise<void> => {
  const { worker, logger } = await load();
  logger.addLambdaContext(context);
  await withCorrelationId(correlationIdOf(event) ?? randomUUID(), () => worker.handle(event));
};
