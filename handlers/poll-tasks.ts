import { type LambdaClock, createScheduledLoader, remainingTimeOf } from '../src/roots/runtime.ts';

// Every minute (EventBridge schedule): settles what crashes left behind (the confirmation reconciler,
// within its share of the minute), then polls due unlock tasks for about the minute and posts finished
// ones in their threads. Built once per cold start.
const load = createScheduledLoader();

export const handler = async (_event: unknown, context?: LambdaClock) => {
  const jobs = await load();
  jobs.logger.addLambdaContext(context);
  return load.runMinute(remainingTimeOf(context));
};
