import { createScheduledLoader, type LambdaClock, remainingTimeOf } from '../src/roots/runtime.ts';
import { consumeWatchChecks } from '../src/roots/watch-consumer.ts';

// The watch queue's consumer: one watched channel's check per message; only failed ones return to the
// queue. Built once per cold start.
const load = createScheduledLoader();

export const handler = async (event: unknown, context?: LambdaClock) => {
  const jobs = await load();
  jobs.logger.addLambdaContext(context);
  return consumeWatchChecks(event, {
    check: jobs.checkWatchedChannel,
    logger: jobs.logger.child({ job: 'watch-check' }),
    ...remainingTimeOf(context),
  });
};
