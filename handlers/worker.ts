import { createRuntimeLoader } from '../src/runtime.ts';

// Slow work dispatched by the Slack handler after its ack (asynchronous invoke; payload: a Job).
const load = createRuntimeLoader();

export const handler = async (event: unknown, _context: unknown): Promise<void> => {
  const { worker } = await load();
  await worker.handle(event);
};
