import { createScheduledLoader, type LambdaClock, remainingTimeOf } from '../src/slack/scheduled.ts';

// Every minute (EventBridge schedule): polls due unlock tasks and posts finished ones in their threads.
// Built once per cold start.
const load = createScheduledLoader();

export const handler = async (_event: unknown, context?: LambdaClock) => {
  const jobs = await load();
  return jobs.pollUnlockTasks(remainingTimeOf(context));
};
