import { createScheduledLoader, type LambdaClock } from '../src/roots/runtime.ts';
import { createWatchRun } from '../src/roots/watch-runtime.ts';

// Every hour (EventBridge schedule): each due watched channel's check, sent to the watch queue (or run
// here when no queue is configured). Built once per cold start.
const run = createWatchRun(createScheduledLoader());

export const handler = async (_event: unknown, context?: LambdaClock) => run(context);
