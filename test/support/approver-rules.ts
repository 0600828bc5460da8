import { type ApproverRules, approverRulesBy } from '../../src/slack/kit/approver-kinds.ts';

/**
 * Approver rules as `SPEND_APPROVERS` or the saved settings give them (src/slack/kit/approver-kinds.ts):
 * the kinds given, every other kind none.
 */
export const approverRules = (given: Partial<ApproverRules> = {}): ApproverRules => ({
  ...approverRulesBy(() => []),
  ...given,
});
