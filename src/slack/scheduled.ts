import { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { describeStoredAction } from '../domain/charging.ts';
import { storedOutcome } from '../domain/confirmations.ts';
import { reconcileConfirmations } from '../domain/reconcile.ts';
import { runDueDigests } from '../domain/digest.ts';
import { SlackDeliveryError, type Sleep } from '../domain/slack-delivery.ts';
import { pollUnlockTasks, type UnlockTaskProgress, type UnlockThread } from '../domain/unlock-polling.ts';
import type { EisClient } from '../eis/index.ts';
import { createRuntimeLoader, type Runtime } from '../runtime.ts';
import type { Store } from '../store/index.ts';
import { webClientOptions } from './app.ts';
import { confirmationCardShower } from './confirmation-cards.ts';
import { digestMessage } from './views/digest.ts';
import { unlockCardUpdate, unlockResultReply, unlockTimeoutReply } from './views/task-result.ts';
import type { SlackMessage } from './views/types.ts';

/** What `@slack/web-api` throws, as far as the scheduled jobs need to know. */
const WebApiErrorSchema = z.object({
  code: z.string(),
  data: z.object({ error: z.string() }).partial().optional(),
  retryAfter: z.number().optional(),
  statusCode: z.number().optional(),
});

/**
 * Turns a Web API failure into the domain's `SlackDeliveryError`. Only a rate limit is retried: the
 * result was already marked posted, and after a timeout or a Slack-side error the message may have
 * arrived, so trying again could post it twice (losing one is the lesser harm, and is recorded).
 */
export function slackDeliveryErrorOf(error: unknown): SlackDeliveryError {
  if (error instanceof SlackDeliveryError) return error;
  const parsed = WebApiErrorSchema.safeParse(error);
  if (!parsed.success) return new SlackDeliveryError('unexpected_error', { retryable: false, cause: error });
  const { code, data, retryAfter, statusCode } = parsed.data;
  switch (code) {
    case 'slack_webapi_rate_limited_error':
      return new SlackDeliveryError('ratelimited', {
        retryable: true,
        retryAfterMs: (retryAfter ?? 1) * 1000,
        cause: error,
      });
    case 'slack_webapi_platform_error':
      return new SlackDeliveryError(data?.error ?? 'unknown_error', { retryable: false, cause: error });
    case 'slack_webapi_http_error':
      return new SlackDeliveryError(`http_${statusCode ?? 'error'}`, { retryable: false, cause: error });
    default:
      return new SlackDeliveryError('request_failed', { retryable: false, cause: error });
  }
}

async function slackCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw slackDeliveryErrorOf(error);
  }
}

/** Both email and phone task answers, as one shape. */
export async function unlockTaskProgress(
  eis: Pick<EisClient, 'contacts'>,
  kind: 'email' | 'phone',
  taskId: string,
): Promise<UnlockTaskProgress> {
  if (kind === 'email') {
    const task = await eis.contacts.emailTask(taskId);
    return {
      taskStatus: task.taskStatus,
      items: task.items.map((item) => ({
        personnelId: item.personnelId,
        status: item.status,
        value: item.email ?? null,
        ...(item.errorCode ? { errorCode: item.errorCode } : {}),
      })),
    };
  }
  const task = await eis.contacts.phoneTask(taskId);
  return {
    taskStatus: task.taskStatus,
    items: task.items.map((item) => ({
      personnelId: item.personnelId,
      status: item.status,
      value: item.phone ?? null,
      ...(item.errorCode ? { errorCode: item.errorCode } : {}),
    })),
  };
}

function unlockThread(web: WebClient, store: Pick<Store, 'confirmations'>): UnlockThread {
  const reply = (channel: string, threadTs: string, message: SlackMessage) =>
    slackCall(() => web.chat.postMessage({ channel, thread_ts: threadTs, ...message, unfurl_links: false }));
  return {
    async postResult(task, result) {
      await reply(task.channelId, task.threadTs, unlockResultReply(result, task.names));
    },
    async postTimeout(task) {
      await reply(task.channelId, task.threadTs, unlockTimeoutReply(task));
    },
    async updateCard(task, outcome) {
      if (!task.confirmationId) return;
      const confirmation = await store.confirmations.get(task.confirmationId);
      if (confirmation?.status !== 'succeeded') return;
      const charge = storedOutcome(confirmation);
      const card = unlockCardUpdate(
        {
          description: describeStoredAction(confirmation.action),
          price: confirmation.price,
          requestedBy: confirmation.requestedBy,
          confirmedBy: confirmation.confirmedBy ?? confirmation.requestedBy,
          creditsSpent: charge.creditsSpent ?? confirmation.price.credits,
          balanceAfter: charge.balanceAfter ?? null,
        },
        task.kind,
        outcome,
      );
      await slackCall(() => web.chat.update({ channel: task.channelId, ts: task.threadTs, ...card }));
    },
  };
}

export interface ScheduledOptions {
  /** The business clock (due times, local dates, 24 h windows); tests move it. */
  now?: () => Date;
  /** How Slack retries wait; tests make it instant. */
  sleep?: Sleep;
}

export interface RunOptions {
  /** The Lambda's remaining time, when the runtime can say. */
  remainingMs?: () => number;
}

/** The two scheduled jobs over a runtime (whose clock the store and the domain share). */
export function createScheduledJobs(
  runtime: Pick<Runtime, 'env' | 'logger' | 'secrets' | 'store' | 'eis' | 'now'>,
  options: Pick<ScheduledOptions, 'sleep'> = {},
) {
  const { env, logger, eis, store, now } = runtime;
  // Rate limits come back as errors with Retry-After, so the domain paces and knows its deadline; the
  // client itself never retries, since a retried post may arrive twice.
  const web = new WebClient(runtime.secrets.slackBotToken, {
    ...webClientOptions(env.SLACK_API_URL, { retries: false }),
    rejectRateLimitedCalls: true,
  });
  const sleep = options.sleep ? { sleep: options.sleep } : {};
  const deadline = (run: RunOptions) => (run.remainingMs ? { remainingMs: run.remainingMs } : {});

  return {
    /** Settles what crashes left behind: expired, never-started and unsettled confirmations, stale cards. */
    reconcileConfirmations: () =>
      reconcileConfirmations({
        confirmations: store.confirmations,
        charges: store.charges,
        eis,
        showCard: confirmationCardShower(
          async (channel, ts, message) => {
            await web.chat.update({ channel, ts, ...message });
          },
          store.confirmations,
          logger,
        ),
        logger: logger.child({ job: 'reconcile' }),
        now,
      }),
    pollUnlockTasks: (run: RunOptions = {}) =>
      pollUnlockTasks({
        tasks: store.unlockTasks,
        progress: (kind, taskId) => unlockTaskProgress(eis, kind, taskId),
        thread: unlockThread(web, store),
        logger: logger.child({ job: 'poll-tasks' }),
        now,
        ...deadline(run),
        ...sleep,
      }),
    runDigests: (run: RunOptions = {}) =>
      runDueDigests({
        subscriptions: store.digestSubscriptions,
        eis,
        ledger: store.ledger,
        unlockTasks: store.unlockTasks,
        fitScores: store.fitScores,
        post: async (channel, digest) => {
          await slackCall(() =>
            web.chat.postMessage({
              channel,
              ...digestMessage(digest),
              unfurl_links: false,
              unfurl_media: false,
            }),
          );
        },
        logger: logger.child({ job: 'digest' }),
        now,
        ...deadline(run),
        ...sleep,
      }),
  };
}

export type ScheduledJobs = ReturnType<typeof createScheduledJobs>;

/** Built once per cold start (and again when the secrets rotate), like the other handlers. */
export function createScheduledLoader(
  source: NodeJS.ProcessEnv = process.env,
  options: ScheduledOptions & { logger?: Runtime['logger'] } = {},
) {
  const loadRuntime = createRuntimeLoader(source, {
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  let built: { runtime: Runtime; jobs: ScheduledJobs } | undefined;
  return async (): Promise<ScheduledJobs> => {
    const runtime = await loadRuntime();
    if (built?.runtime !== runtime) built = { runtime, jobs: createScheduledJobs(runtime, options) };
    return built.jobs;
  };
}

/** The part of the Lambda context the scheduled handlers read. */
export interface LambdaClock {
  getRemainingTimeInMillis?: () => number;
}

/** The Lambda's remaining time, when the handler was given a context that knows it. */
export function remainingTimeOf(context: LambdaClock | undefined): RunOptions {
  const remaining = context?.getRemainingTimeInMillis;
  return remaining ? { remainingMs: () => remaining.call(context) } : {};
}
