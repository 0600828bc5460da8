import type { KnownBlock } from '@slack/types';
import type { WorkspacePolicy } from '../../../store/workspaces.ts';
import {
  approverRulesBy,
  type ApproverRules,
  eachApproverKind,
  hasApprovers,
  savedApproverRules,
} from '../../kit/approver-kinds.ts';
import type { EnvironmentRules } from '../../kit/listener-deps.ts';
import type { WorkspacePolicyInput } from '../../../store/workspace-policy-input.ts';
import { context, header, input, section } from '../../views/blocks.ts';
import { code, formatCredits } from '../../views/format.ts';
import { escapeMrkdwn, joinMrkdwn, mk, type Mrkdwn } from '../../views/mrkdwn.ts';

/**
 * The settings modal's spending rules. A rule a single workspace's environment sets is shown
 * read-only with the variable that sets it (the save refuses it: `fixedRulesIn`); the others are
 * inputs, each saying what an empty field means (a distributed app's environment gives defaults).
 */

/** The modal's spending rule fields, by block id (each element's `action_id` is `value`); each kind of approver has its own. */
export const RULE_FIELDS = {
  dailyCap: 'daily_cap',
  approvalThreshold: 'approval_threshold',
} as const;

const FIELD = 'value';

/** Which rules the environment fixes, by the variable that sets each. */
function fixedRules(environment: EnvironmentRules) {
  return {
    approvers: environment.fixes && hasApprovers(environment.approvers),
    dailyCap: environment.fixes && environment.dailyCap !== undefined,
    approvalThreshold: environment.fixes && environment.approvalThreshold !== undefined,
  };
}

/** What a submission tries to change of the rules the environment fixes: the variables that set them. */
export function fixedRulesIn(
  submitted: WorkspacePolicyInput,
  environment: EnvironmentRules,
): string[] {
  const fixed = fixedRules(environment);
  return [
    ...(fixed.approvers && savedApproverRules(submitted) !== undefined ? ['SPEND_APPROVERS'] : []),
    ...(fixed.dailyCap && submitted.dailyCap !== undefined ? ['DAILY_CREDIT_CAP'] : []),
    ...(fixed.approvalThreshold && submitted.approvalThreshold !== undefined ? ['APPROVAL_THRESHOLD'] : []),
  ];
}

/** `*Daily credit cap:* 500 credits a day (UTC), set by `DAILY_CREDIT_CAP` in the environment.` */
const fixedRule = (label: string, value: Mrkdwn, variable: string) =>
  section(mk`*${escapeMrkdwn(label)}:* ${value}, set by ${code(variable)} in the environment.`);

/** `@Bob, members of @approvers`: each entry as its kind names it. */
const approverWords = (rules: ApproverRules) =>
  joinMrkdwn(
    eachApproverKind(rules).flatMap(({ kind, entries }) => entries.map(kind.words)),
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

/** Each kind of approver's input, holding what the workspace saved. */
function approverInputs(policy: WorkspacePolicy | null, environment: EnvironmentRules): KnownBlock[] {
  const defaults = hasApprovers(environment.approvers) ? ' Empty keeps the environment’s (SPEND_APPROVERS).' : '';
  const saved = (policy && savedApproverRules(policy)) ?? approverRulesBy(() => []);
  return eachApproverKind(saved).map(({ kind, entries }) => kind.input(entries, defaults));
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
