import { Duration } from 'aws-cdk-lib';
import type { Node } from 'constructs';
import { z } from 'zod';
import { WORKER_TIMEOUT_SECONDS } from '../src/platform/config/timeouts.ts';
import { APPROVER_ID_EXAMPLES, isApproverId } from '../src/slack/kit/approver-kinds.ts';

const SLACK_USER_ID = /^[UW][A-Z0-9]{2,}$/;
const SLACK_WORKSPACE_ID = /^T[A-Z0-9]{2,}$/;
const SLACK_CHANNEL_ID = /^[CG][A-Z0-9]{2,}$/;
/** A Slack app's client id, as Basic Information shows it: two numbers joined by a dot. */
const SLACK_CLIENT_ID = /^\d+\.\d+$/;
const HOSTNAME_LIST = /^[a-z0-9.-]+\.[a-z]{2,}(,[a-z0-9.-]+\.[a-z]{2,})*$/i;

/** `-c name=value` arrives as a string, `cdk.json` may hold a number or boolean: accept both. */
const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')]);

/** Deploy-time settings, from CDK context (`cdk.json` defaults, overridden with `-c name=value`). */
export const DeployConfigSchema = z
  .object({
    /** Slack user and user group ids who may approve spending; empty = anyone who asked may confirm. */
    spendApprovers: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean),
      )
      .pipe(
        z.array(
          z
            .string()
            .refine(isApproverId, APPROVER_ID_EXAMPLES),
        ),
      ),
    /** Credits the service account may spend per UTC day; 0 = no cap. */
    dailyCreditCap: z.coerce.number().int().nonnegative().default(0),
    /** At or above this price (credits) an approver other than the requester must confirm; 0 = off. */
    approvalThreshold: z.coerce.number().int().nonnegative().default(0),
    eisBaseUrl: z.url().default('https://platform.lensmor.com'),
    logLevel: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
    /** See `RESERVED_CONCURRENCY`: `false` for accounts whose concurrency quota is still 10. */
    reserveConcurrency: flag.default(true),
    /**
     * The workspace the app is installed in (`T…`, `team_id` of `auth.test`) and the bot's user id
     * (`U…`, its `user_id`): with both set, the Slack function makes no `auth.test` call before its
     * first ack after a cold start. Unset, it asks Slack once per cold start.
     */
    slackTeamId: z
      .union([z.literal(''), z.string().regex(SLACK_WORKSPACE_ID, 'a Slack workspace id such as T0123ABCD')])
      .default(''),
    slackBotUserId: z
      .union([z.literal(''), z.string().regex(SLACK_USER_ID, 'a Slack user id such as U0123ABCD')])
      .default(''),
    /**
     * The Slack function's `UNFURL_DOMAINS` (comma-separated hostnames whose event links unfurl); must
     * match the manifest's `unfurl_domains`. Empty: the bot's default, `app.lensmor.com`.
     */
    unfurlDomains: z
      .union([
        z.literal(''),
        z.string().regex(HOSTNAME_LIST, 'comma-separated hostnames such as app.lensmor.com'),
      ])
      .default(''),
    /**
     * The switch for distribution (issue 15): with the app's client id set, the bot is installable
     * by any workspace over OAuth, and the stack adds the KMS key that encrypts each workspace's
     * service key. Empty (the default): one workspace, the stack exactly as before.
     */
    slackClientId: z
      .union([
        z.literal(''),
        z.string().regex(SLACK_CLIENT_ID, "a Slack app's client id such as 1234567890.1234567890"),
      ])
      .default(''),
    /** When set, the alarm topic (which always exists) mails this address too. */
    alarmEmail: z.union([z.literal(''), z.email()]).default(''),
    /**
     * With `alarmSlackChannelId`: an AWS Chatbot Slack channel configuration posts the alarms there.
     * The workspace (`T…`) must first be authorized once in the AWS Chatbot console.
     */
    alarmSlackWorkspaceId: z
      .union([z.literal(''), z.string().regex(SLACK_WORKSPACE_ID, 'a Slack workspace id such as T0123ABCD')])
      .default(''),
    /** The channel (`C…`, or `G…` for a private one) the alarms go to; invite `@aws` there. */
    alarmSlackChannelId: z
      .union([z.literal(''), z.string().regex(SLACK_CHANNEL_ID, 'a Slack channel id such as C0123ABCD')])
      .default(''),
  })
  .refine((config) => !config.alarmSlackWorkspaceId === !config.alarmSlackChannelId, {
    message: 'set both alarmSlackWorkspaceId and alarmSlackChannelId, or neither',
    path: ['alarmSlackChannelId'],
  });
export type DeployConfig = z.infer<typeof DeployConfigSchema>;

const CONTEXT_KEYS = Object.keys(DeployConfigSchema.shape) as (keyof typeof DeployConfigSchema.shape)[];

/** Reads and validates the context once; a bad value stops the synth with the key and the reason. */
export function readDeployConfig(node: Node): DeployConfig {
  const raw = Object.fromEntries(CONTEXT_KEYS.map((key) => [key, node.tryGetContext(key) ?? undefined]));
  const parsed = DeployConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid CDK context (-c name=value): ${problems.join('; ')}`);
  }
  return parsed.data;
}

export type BotFunctionName = 'slack' | 'worker' | 'pollTasks' | 'digest' | 'watch' | 'watchCheck';

/**
 * Reserved concurrency, in one place. It caps what a flood of Slack requests (or a stuck schedule)
 * can run up, and `digest` at 1 means a slow run makes the next one throttle instead of piling up
 * beside it (so does `watch`, the hourly watch run). `pollTasks` at 2: a poll run lasts its minute, and
 * the polls it started near the end finish while the next run starts (their leases keep them apart). `watchCheck`, the watch queue's
 * consumer, at 10: its queue's event source runs at most `WATCH_CHECK_CONCURRENCY` at once (the
 * reservation keeps those slots free of throttles). Lambda keeps at least 100 executions unreserved, so these 44 need the
 * standard quota of 1,000; brand-new accounts often start at 10, where any reservation fails the
 * deploy: use `-c reserveConcurrency=false` there (or ask for the quota increase).
 */
export const RESERVED_CONCURRENCY: Record<BotFunctionName, number> = {
  slack: 10,
  worker: 20,
  pollTasks: 2,
  digest: 1,
  watch: 1,
  watchCheck: 10,
};

/**
 * The watch queue's consumers at once, over all workspaces. The FIFO queue's lanes already run at most
 * two slices of one workspace at once (`WATCH_LANES_PER_WORKSPACE`: 2 × 4 look-ups, under the
 * service's 10 per user; a 429's Retry-After is waited in the process that got it); this bounds the
 * total, so the checks of many workspaces cannot take the account's Lambda concurrency or the table's
 * throughput from the Slack function.
 */
export const WATCH_CHECK_CONCURRENCY = 10;

/**
 * Timeout and memory per function. Slack wants an answer within 3 s, and Lambda CPU grows with
 * memory, so the Slack function gets the most for a quick cold start.
 */
export const FUNCTION_SIZING: Record<BotFunctionName, { timeout: Duration; memorySize: number }> = {
  slack: { timeout: Duration.seconds(10), memorySize: 1024 },
  // Room for one charge with its retries (3 × 10 s timeouts, Retry-After waits) and the Slack updates.
  worker: { timeout: Duration.seconds(WORKER_TIMEOUT_SECONDS), memorySize: 512 },
  // A poll run starts polls for its minute (RUN_EVERY_MS), then has the 20 s a poll and its reply may
  // need (TIME_RESERVE_MS): runs a minute apart cover every second, and never two minutes' worth.
  pollTasks: { timeout: Duration.seconds(80), memorySize: 512 },
  // Inside its 5-minute period, so one run ends before the next starts; what is left stays due.
  digest: { timeout: Duration.minutes(4), memorySize: 512 },
  // Queue mode only reads the due channels and sends them; inline (no queue) it checks what fits.
  watch: { timeout: Duration.minutes(5), memorySize: 512 },
  // One slice of a check (about 80 free calls; 429 waits and retries included, well within this);
  // the queue's visibility timeout is 6 times this.
  watchCheck: { timeout: Duration.minutes(10), memorySize: 512 },
};
