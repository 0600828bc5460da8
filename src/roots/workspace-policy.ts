/**
 * A workspace's spending rules, built in one place for both modes and both functions (the Slack
 * function's listeners and the worker's runtime). A single workspace's are the environment's
 * (`SPEND_APPROVERS`, `APPROVAL_THRESHOLD`, `DAILY_CREDIT_CAP`); a distributed workspace's are its saved
 * settings over those. Each kind of approver (user ids, user groups) has its id form and its reading
 * here only: a new kind is added in this file (and, for a distributed workspace's settings modal to
 * offer it, in the settings' form and record).
 */
import type { SpendPolicy } from '../domain/approval.ts';
import type { Env } from '../platform/config/env.ts';
import type { Logger } from '../platform/log.ts';
import type { EnvironmentRules } from '../slack/kit/listener-deps.ts';
import type { WorkspacePolicyInput } from '../store/workspace-policy-input.ts';

/** Who may approve, before Slack is asked who is in a group. */
interface ApproverRules {
  userIds: readonly string[];
  userGroupIds: readonly string[];
}

/** The ids `SPEND_APPROVERS` takes, one form per kind (the deploy checks them: infra/config.ts). */
const APPROVER_ID_FORMS = {
  userIds: /^[UW][A-Z0-9]{2,}$/,
  userGroupIds: /^S[A-Z0-9]{2,}$/,
} satisfies Record<keyof ApproverRules, RegExp>;

export const isApproverId = (id: string) => Object.values(APPROVER_ID_FORMS).some((form) => form.test(id));

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
    approvers: approverRulesOf(env.SPEND_APPROVERS),
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
  const { approverUserIds, approverUserGroupId, dailyCap, approvalThreshold, ...rest } = saved;
  return {
    ...rest,
    ...(env.SPEND_APPROVERS.length === 0 ? { approverUserIds, approverUserGroupId } : {}),
    ...(env.DAILY_CREDIT_CAP === undefined ? { dailyCap } : {}),
    ...(env.APPROVAL_THRESHOLD === undefined ? { approvalThreshold } : {}),
  };
}

/** A user group's members, read with a bot token (Slack's `usergroups.users.list`). */
export type ReadUserGroup = (botToken: string, groupId: string) => Promise<readonly string[]>;

export interface SpendPolicyOptions {
  logger: Logger;
  /** Tests replace Slack; by default the group is read from `SLACK_API_URL`'s Slack. */
  readUserGroup?: ReadUserGroup;
}

/**
 * The spending rules of one workspace: `saved` (a distributed workspace's settings; null for a single
 * workspace, or one that saved none) over the environment's. The approvers' user groups are read with
 * `botToken` (none without one).
 */
export async function spendPolicyOf(
  env: PolicyEnv,
  saved: WorkspacePolicyInput | null,
  botToken: string | undefined,
  options: SpendPolicyOptions,
): Promise<SpendPolicy> {
  const approvalThreshold = pick(saved?.approvalThreshold, env.APPROVAL_THRESHOLD);
  const dailyCap = pick(saved?.dailyCap, env.DAILY_CREDIT_CAP);
  const rules = savedApprovers(saved) ?? approverRulesOf(env.SPEND_APPROVERS);
  return {
    approvers: await approversOf(rules, botToken, env, options),
    ...(approvalThreshold !== undefined ? { approvalThreshold } : {}),
    ...(dailyCap !== undefined ? { dailyCap } : {}),
  };
}

/** `SPEND_APPROVERS`: user group ids (`S…`) and user ids, in any order; an id of no other form is a user's. */
function approverRulesOf(ids: readonly string[]): ApproverRules {
  const isUserGroupId = (id: string) => APPROVER_ID_FORMS.userGroupIds.test(id);
  return {
    userIds: ids.filter((id) => !isUserGroupId(id)),
    userGroupIds: ids.filter(isUserGroupId),
  };
}

/** The approvers a workspace saved (users, a group): they replace the environment's. Undefined: none saved. */
function savedApprovers(saved: WorkspacePolicyInput | null): ApproverRules | undefined {
  if (saved?.approverUserIds === undefined && saved?.approverUserGroupId === undefined) return undefined;
  return {
    userIds: saved.approverUserIds ?? [],
    userGroupIds: saved.approverUserGroupId ? [saved.approverUserGroupId] : [],
  };
}

/** The saved value, else the environment's; `null` (cleared by an admin) means none. */
function pick(own: number | null | undefined, fallback: number | undefined): number | undefined {
  if (own === null) return undefined;
  return own ?? fallback;
}

/** The approvers' user ids: the users named, then each group's members, once each. */
async function approversOf(
  rules: ApproverRules,
  botToken: string | undefined,
  env: PolicyEnv,
  options: SpendPolicyOptions,
): Promise<string[]> {
  const read = options.readUserGroup ?? slackUserGroups(env.SLACK_API_URL);
  const groups = await Promise.all(
    rules.userGroupIds.map((id) => groupMembers(read, botToken, id, options.logger)),
  );
  return [...new Set([...rules.userIds, ...groups.flat()])];
}

/** A group's members; none without a bot token, and none (and a log line) when Slack cannot say. */
async function groupMembers(
  read: ReadUserGroup,
  botToken: string | undefined,
  usergroup: string,
  logger: Logger,
) {
  if (!botToken) return [];
  try {
    return await read(botToken, usergroup);
  } catch (error) {
    logger.warn('could not read the approvers’ user group', { usergroup, error });
    return [];
  }
}

/**
 * Slack's `usergroups.users.list`. The Web API client loads on the first group read: a Slack function
 * answering a command without one never compiles it.
 */
function slackUserGroups(slackApiUrl: string | undefined): ReadUserGroup {
  return async (botToken, usergroup) => {
    const [{ WebClient }, { webClientOptions }] = await Promise.all([
      import('@slack/web-api'),
      import('../slack/web-client.ts'),
    ]);
    const answer = await new WebClient(botToken, webClientOptions(slackApiUrl)).usergroups.users.list({
      usergroup,
    });
    return answer.users ?? [];
  };
}
