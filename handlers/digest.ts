import { type LambdaClock, createScheduledLoader, remainingTimeOf } from '../src/roots/runtime.ts';

// Every hour (EventBridge schedule): posts the digest of every subscription whose local time has come.
// Built once per cold start.
const load = createScheduledLoader();

export const handler = async (_event: unknown, context?: LambdaClock) => {
  const jobs = await load();
  jobs.logger.addLambdaContext(context);
  return jobs.runDigests(remainingTimeOf(context));
};
