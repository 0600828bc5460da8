import type { KnownBlock } from '@slack/types';
import type { WorkspacePolicy } from '../../../store/workspaces.ts';
import type { EnvironmentRules } from '../../kit/listener-deps.ts';
import { context, header, input, plainText, section } from '../../views/blocks.ts';
import { code, formatCredits, mentionUser, mentionUserGroup } from '../../views/format.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn } from '../../views/mrkdwn.ts';

/**
 * The settings modal's spending rules. A rule a single workspace's environment sets is shown
 * read-only with the variable that sets it (the save refuses it: `fixedRulesIn`); the others are
 * inputs, each saying what an empty field means (a distributed app's environment gives defaults).
 */

/** The modal's spending rule fields, by block id (each element's `action_id` is `value`). */
export const RULE_FIELDS = {
  approvers: 'approvers',
  approverGroup: 'approver_group',
  dailyCap: 'daily_cap',
  approvalThreshold: 'approval_threshold',
} as const;

const FIELD = 'value';

/** Which rules the environment fixes, by the variable that sets each. */
function fixedRules(environment: EnvironmentRules) {
  const { approvers } = environment;
  return {
    approvers: environment.fixes && approvers.userIds.length + approvers.userGroupIds.length > 0,
    dailyCap: environment.fixes && environment.dailyCap !== undefined,
    approvalThreshold: environment.fixes && environment.approvalThreshold !== undefined,
  };
}

/** What a submission tries to change of the rules the environment fixes: the variables that set them. */
export function fixedRulesIn(
  submitted: {
    approverUserIds?: unknown;
    approverUserGroupId?: unknown;
    dailyCap?: unknown;
    approvalThreshold?: unknown;
  },
  environment: EnvironmentRules,
): string[] {
  const fixed = fixedRules(environment);
  return [
    ...(fixed.approvers &&
    (submitted.approverUserIds !== undefined || submitted.approverUserGroupId !== undefined)
      ? ['SPEND_APPROVERS']
      : []),
    ...(fixed.dailyCap && submitted.dailyCap !== undefined ? ['DAILY_CREDIT_CAP'] : []),
    ...(fixed.approvalThreshold && submitted.approvalThreshold !== undefined ? ['APPROVAL_THRESHOLD'] : []),
  ];
}

/** `*Daily credit cap:* 500 credits a day (UTC), set by `DAILY_CREDIT_CAP` in the environment.` */
const fixedRule = (label: string, value: Mrkdwn, variable: string) =>
  section(mk`*${escapeMrkdwn(label)}:* ${value}, set by ${code(variable)} in the environment.`);

/** `@Bob, members of @approvers`: each id through the mention builders. */
const approverWords = ({ userIds, userGroupIds }: EnvironmentRules['approvers']) =>
  joinMrkdwn(
    [...userIds.map(mentionUser), ...userGroupIds.map((id) => mk`members of ${mentionUserGroup(id)}`)],
    ', ',
  );

const creditsInput = (field: string, label: string, initial: number | null | undefined, hint: string) =>
  input(
    field,
    label,
    {
      type: 'number_input',
      action_id: FIELD,
      is_decimal_allowed: false,
      min_value: '1',
      ...(typeof initial === 'number' ? { initial_value: String(initial) } : {}),
    },
    { hint },
  );

/** What an empty field means: the environment's default (distributed), else none. */
const emptyMeans = (fallback: number | undefined, variable: string, none: string) =>
  fallback !== undefined ? ` Empty keeps the default, ${fallback} (${variable}).` : ` Empty: ${none}.`;

function approverInputs(policy: WorkspacePolicy | null, environment: EnvironmentRules): KnownBlock[] {
  const { userIds, userGroupIds } = environment.approvers;
  const defaults =
    userIds.length + userGroupIds.length > 0 ? ' Empty keeps the environment’s (SPEND_APPROVERS).' : '';
  return [
    input(
      RULE_FIELDS.approvers,
      'Approvers',
      {
        type: 'multi_users_select',
        action_id: FIELD,
        ...(policy?.approverUserIds?.length ? { initial_users: policy.approverUserIds } : {}),
      },
      { hint: `They may confirm anybody’s spending.${defaults}` },
    ),
    input(
      RULE_FIELDS.approverGroup,
      'Approvers’ user group id',
      {
        type: 'plain_text_input',
        action_id: FIELD,
        max_length: 30,
        placeholder: plainText('S0123ABCD'),
        ...(policy?.approverUserGroupId ? { initial_value: policy.approverUserGroupId } : {}),
      },
      { hint: 'Its members may confirm too.' },
    ),
  ];
}

/** The spending rules: read-only where the environment fixes them, inputs elsewhere. */
export function spendingRuleBlocks(
  policy: WorkspacePolicy | null,
  environment: EnvironmentRules,
): KnownBlock[] {
  const F = RULE_FIELDS;
  const fixed = fixedRules(environment);
  const { dailyCap, approvalThreshold } = environment;
  const defaults = environment.fixes ? {} : { dailyCap, approvalThreshold };
  return [
    header('Spending rules'),
    ...(fixed.approvers
      ? [fixedRule('Approvers', approverWords(environment.approvers), 'SPEND_APPROVERS')]
      : approverInputs(policy, environment)),
    fixed.dailyCap && dailyCap !== undefined
      ? fixedRule('Daily credit cap', mk`${formatCredits(dailyCap)} a day (UTC)`, 'DAILY_CREDIT_CAP')
      : creditsInput(
          F.dailyCap,
          'Daily credit cap',
          policy?.dailyCap,
          `Credits the workspace may spend a day (UTC).${emptyMeans(defaults.dailyCap, 'DAILY_CREDIT_CAP', 'no cap')}`,
        ),
    fixed.approvalThreshold && approvalThreshold !== undefined
      ? fixedRule('Approval threshold', formatCredits(approvalThreshold), 'APPROVAL_THRESHOLD')
      : creditsInput(
          F.approvalThreshold,
          'Approval threshold',
          policy?.approvalThreshold,
          `Spending of at least this many credits needs an approver.${emptyMeans(defaults.approvalThreshold, 'APPROVAL_THRESHOLD', 'none')}`,
        ),
    ...(fixed.approvers || fixed.dailyCap || fixed.approvalThreshold
      ? [context('Rules set in the environment are changed where the app is deployed, not here.')]
      : []),
  ];
}
