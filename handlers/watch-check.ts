import { createScheduledLoader, type LambdaClock } from '../src/roots/runtime.ts';
import { createWatchConsumer } from '../src/roots/watch-runtime.ts';

// The watch queue's consumer: one slice of a watched channel's check per message, its continuation
// sent back to the queue (`WATCH_QUEUE_URL`); only failed ones return. Built once per cold start.
const consume = createWatchConsumer(createScheduledLoader());

export const handler = async (event: unknown, context?: LambdaClock) => consume(event, context);
