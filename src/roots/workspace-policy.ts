/**
 * A workspace's spending rules, built in one place for both modes and both functions (the Slack
 * function's listeners and the worker's runtime). A single workspace's are the environment's
 * (`SPEND_APPROVERS`, `APPROVAL_THRESHOLD`, `DAILY_CREDIT_CAP`); a distributed workspace's are its saved
 * settings over those. The kinds of approver (users, user groups' members), each with its reading from
 * both and its members, are one table: src/slack/kit/approver-kinds.ts.
 */
import type { SpendPolicy } from '../domain/approval.ts';
import type { Env } from '../platform/config/env.ts';
import type { Logger } from '../platform/log.ts';
import {
  type ApproverRules,
  type ApproverScope,
  approverRulesOfEnv,
  eachApproverKind,
  type ReadSlack,
  savedApproverRules,
  withoutSavedApprovers,
} from '../slack/kit/approver-kinds.ts';
import type { EnvironmentRules } from '../slack/kit/listener-deps.ts';
import type { WorkspacePolicyInput } from '../store/workspace-policy-input.ts';

/** The environment's part: the single workspace's rules, and every distributed workspace's defaults. */
export type PolicyEnv = Pick<
  Env,
  'SPEND_APPROVERS' | 'APPROVAL_THRESHOLD' | 'DAILY_CREDIT_CAP' | 'SLACK_API_URL'
>;

/**
 * What the environment sets of the rules, for the settings modal. A single workspace's environment
 * fixes each rule it sets (and the key); a distributed app's gives each workspace its defaults.
 */
export function environmentRulesOf(
  env: PolicyEnv & Pick<Env, 'SLACK_CLIENT_ID' | 'EIS_API_KEY' | 'EIS_SECRET_ID'>,
): EnvironmentRules {
  const fixes = !env.SLACK_CLIENT_ID;
  return {
    fixes,
    approvers: approverRulesOfEnv(env.SPEND_APPROVERS),
    dailyCap: env.DAILY_CREDIT_CAP,
    approvalThreshold: env.APPROVAL_THRESHOLD,
    ...(fixes ? { keySetBy: keySetByOf(env) } : {}),
  };
}

const keySetByOf = (env: Pick<Env, 'EIS_API_KEY' | 'EIS_SECRET_ID'>) =>
  env.EIS_API_KEY ? 'EIS_API_KEY' : env.EIS_SECRET_ID ? 'EIS_SECRET_ID' : 'APP_SECRET_ID';

/**
 * Where a single workspace's saved settings live: a single-workspace deployment serves one workspace,
 * so its settings are the deployment's, whichever team id a request names (a scheduled run names none).
 */
export const SINGLE_WORKSPACE_ID = 'single-workspace';

/**
 * A single workspace's saved rules, but those its environment sets: there the environment's stand
 * (the settings modal shows them read-only), and a rule it leaves unset is the workspace admins' to set.
 */
export function notFixedByEnvironment(
  env: PolicyEnv,
  saved: WorkspacePolicyInput | null,
): WorkspacePolicyInput | null {
  if (!saved) return null;
  const { dailyCap, approvalThreshold, ...rest } = saved;
  return {
    ...(env.SPEND_APPROVERS.length === 0 ? rest : withoutSavedApprovers(rest)),
    ...(env.DAILY_CREDIT_CAP === undefined ? { dailyCap } : {}),
    ...(env.APPROVAL_THRESHOLD === undefined ? { approvalThreshold } : {}),
  };
}

export interface SpendPolicyOptions {
  logger: Logger;
  /** Tests replace Slack; by default it is `SLACK_API_URL`'s Slack. */
  readSlack?: ReadSlack;
}

/**
 * The spending rules of one workspace in one channel: `saved` (a distributed workspace's settings, or
 * what a single workspace's environment leaves to its admins; null when none) over the environment's.
 * Approvers are resolved in `scope`, Slack read with its bot token (none without one).
 */
export async function spendPolicyOf(
  env: PolicyEnv,
  saved: WorkspacePolicyInput | null,
  scope: ApproverScope,
  options: SpendPolicyOptions,
): Promise<SpendPolicy> {
  const approvalThreshold = pick(saved?.approvalThreshold, env.APPROVAL_THRESHOLD);
  const dailyCap = pick(saved?.dailyCap, env.DAILY_CREDIT_CAP);
  const rules = savedApproverRules(saved) ?? approverRulesOfEnv(env.SPEND_APPROVERS);
  return {
    approvers: await approversOf(rules, scope, options.readSlack ?? slackReads(env.SLACK_API_URL), options.logger),
    ...(approvalThreshold !== undefined ? { approvalThreshold } : {}),
    ...(dailyCap !== undefined ? { dailyCap } : {}),
  };
}

/** The saved value, else the environment's; `null` (cleared by an admin) means none. */
function pick(own: number | null | undefined, fallback: number | undefined): number | undefined {
  if (own === null) return undefined;
  return own ?? fallback;
}

/**
 * The approvers' user ids, each kind's members in the table's order, once each. An entry Slack cannot
 * say names no one (and a log line); a kind that reads Slack names no one without a bot token.
 */
async function approversOf(
  rules: ApproverRules,
  scope: ApproverScope,
  read: ReadSlack,
  logger: Logger,
): Promise<string[]> {
  const { botToken } = scope;
  const members = await Promise.all(
    eachApproverKind(rules).flatMap(({ kind, entries }) =>
      entries.map(async (entry) => {
        if (kind.readsSlack && !botToken) return [];
        try {
          return await kind.members(entry, { ...scope, botToken: botToken ?? '' }, read);
        } catch (error) {
          logger.warn(`could not read ${kind.unreadable}`, { entry, channel: scope.channelId, error });
          return [];
        }
      }),
    ),
  );
  return [...new Set(members.flat())];
}

/**
 * Slack's Web API. The client loads on the first read: a Slack function answering a command without
 * one never compiles it.
 */
function slackReads(slackApiUrl: string | undefined): ReadSlack {
  return async (botToken, method, args) => {
    const [{ WebClient }, { webClientOptions }] = await Promise.all([
      import('@slack/web-api'),
      import('../slack/web-client.ts'),
    ]);
    return new WebClient(botToken, webClientOptions(slackApiUrl)).apiCall(method, args);
  };
}
