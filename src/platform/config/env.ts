import * as z from 'zod';

const commaList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );

/** Environment: names, URLs and ARNs only. Secrets come from `secrets.ts`. */
export const EnvSchema = z.object({
  TABLE_NAME: z.string().min(1),
  AWS_ENDPOINT_URL_DYNAMODB: z.url().optional(),
  EIS_BASE_URL: z.url(),
  /** The Slack secret (JSON `{slackSigningSecret, slackBotToken}`, optionally with `eisApiKey`). */
  APP_SECRET_ID: z.string().min(1).optional(),
  /** The service secret (JSON `{eisApiKey}`): given to the functions that call the service only. */
  EIS_SECRET_ID: z.string().min(1).optional(),
  SLACK_SIGNING_SECRET: z.string().min(1).optional(),
  SLACK_BOT_TOKEN: z.string().min(1).optional(),
  EIS_API_KEY: z.string().min(1).optional(),
  SLACK_API_URL: z.url().optional(),
  /** The one workspace served; unset, it is the bot token's own (from `auth.test`). */
  SLACK_TEAM_ID: z.string().min(1).optional(),
  /** The bot's user id; with `SLACK_TEAM_ID` set too, no `auth.test` is made before the first ack. */
  SLACK_BOT_USER_ID: z.string().min(1).optional(),
  /**
   * Set, the app is distributed (issue 15): any workspace installs it through OAuth, each with its own
   * token, service key and policy. The client secret and state secret come from these variables or the
   * app secret (`slackClientSecret`, `slackStateSecret`).
   */
  SLACK_CLIENT_ID: z.string().min(1).optional(),
  SLACK_CLIENT_SECRET: z.string().min(1).optional(),
  SLACK_STATE_SECRET: z.string().min(1).optional(),
  WORKER_MODE: z.enum(['lambda', 'inline']).default('lambda'),
  WORKER_FUNCTION_NAME: z.string().min(1).optional(),
  SPEND_APPROVERS: commaList,
  DAILY_CREDIT_CAP: z.coerce.number().int().positive().optional(),
  /** At or above this price (credits) an approver other than the requester must confirm. */
  APPROVAL_THRESHOLD: z.coerce.number().int().positive().optional(),
  /** KMS key (id, ARN or alias) for workspaces' service keys; unset, the local cipher is used. */
  KMS_KEY_ID: z.string().min(1).optional(),
  /** Dev: the local cipher's key, base64 of 32 bytes; unset, a fixed dev-only key. */
  LOCAL_ENCRYPTION_KEY: z
    .base64()
    .transform((value) => Buffer.from(value, 'base64'))
    .refine((key) => key.length === 32, 'must be base64 of 32 bytes')
    .optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /** Domains whose event links unfurl into a fit card (comma-separated; subdomains included). */
  UNFURL_DOMAINS: commaList.transform((domains) =>
    domains.length > 0 ? domains.map((domain) => domain.toLowerCase()) : ['app.lensmor.com'],
  ),
});
export type Env = z.infer<typeof EnvSchema>;

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
      .join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  return parsed.data;
}
